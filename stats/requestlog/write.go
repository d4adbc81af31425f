package requestlog

import (
	"compress/gzip"
	"io"
	"strconv"
	"strings"
	"time"
)

// Header is the log's first line: its columns, documented in
// docs/output.md.
const Header = "sent_us,target,status,error,cause,latency_us,uncorrected_us,bytes_in,bytes_out,connection,worker\n"

// Drain writes the log to w as CSV (gzip-compressed with Options.Gzip)
// until Close, then returns. It is the log's one writer: each buffer
// handed over is formatted into one chunk, written, and given back for
// reuse. After a failed write it goes on taking buffers, so that the
// appenders never wait, and returns the first error at the end.
func (l *Log) Drain(w io.Writer) error {
	var zw *gzip.Writer
	if l.opts.Gzip {
		zw = gzip.NewWriter(w)
		w = zw
	}
	_, err := io.WriteString(w, Header)
	f := formatter{open: l.opts.Open, scrub: l.opts.Scrub, causes: make(map[string]string),
		out: make([]byte, 0, l.opts.Records*lineRoom)}
	for b := range l.full {
		if err == nil {
			_, err = w.Write(f.chunk(b))
			l.lines.Add(int64(len(b)))
		}
		l.free <- b[:0]
	}
	if zw != nil {
		if cerr := zw.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// lineRoom is the room a line usually takes: a chunk's buffer is made
// that large at once, rather than grown while the load runs.
const lineRoom = 96

// formatter makes lines without allocating, but for a cause seen first.
type formatter struct {
	open   bool
	scrub  func(string) string
	causes map[string]string // cause → its CSV field, scrubbed and quoted
	out    []byte
}

// chunk returns the lines of b, in a buffer reused by the next call.
func (f *formatter) chunk(b []Record) []byte {
	f.out = f.out[:0]
	for i := range b {
		f.line(&b[i])
	}
	return f.out
}

func (f *formatter) line(r *Record) {
	o := micros(f.out, r.Sent)
	o = append(o, ',')
	o = strconv.AppendUint(o, uint64(r.Target), 10)
	o = append(o, ',')
	if r.Status != 0 {
		o = strconv.AppendUint(o, uint64(r.Status), 10)
	}
	o = append(o, ',')
	if r.Failed {
		o = append(o, r.Class.String()...)
	}
	o = append(o, ',')
	o = append(o, f.cause(r.Cause)...)
	o = append(o, ',')
	if r.Status != 0 {
		o = micros(o, r.Latency)
	}
	o = append(o, ',')
	if r.Status != 0 && f.open {
		o = micros(o, r.Uncorrected)
	}
	o = append(o, ',')
	o = strconv.AppendInt(o, r.BytesIn, 10)
	o = append(o, ',')
	o = strconv.AppendInt(o, r.BytesOut, 10)
	o = append(o, ',')
	if r.Conn != 0 {
		o = strconv.AppendUint(o, uint64(r.Conn), 10)
	}
	o = append(o, ',')
	o = strconv.AppendUint(o, uint64(r.Worker), 10)
	f.out = append(o, '\n')
}

// cause returns c as a CSV field, scrubbed of secrets; the first time
// only, as the engine's causes are few.
func (f *formatter) cause(c string) string {
	if c == "" {
		return ""
	}
	if field, ok := f.causes[c]; ok {
		return field
	}
	field := c
	if f.scrub != nil {
		field = f.scrub(field)
	}
	if strings.ContainsAny(field, ",\"\r\n") {
		field = `"` + strings.ReplaceAll(field, `"`, `""`) + `"`
	}
	if len(f.causes) < maxCauses {
		f.causes[c] = field
	}
	return field
}

// maxCauses bounds the causes kept formatted: a script's errors may
// each differ.
const maxCauses = 1024

// micros appends d in microseconds with three decimals: nanoseconds, so
// that the log keeps every digit the histograms have.
func micros(b []byte, d time.Duration) []byte {
	ns := int64(d)
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	frac := ns % 1000
	return append(b, '.', byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
}
