package h3

import (
	"bufio"
	"errors"
	"io"
	"strconv"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/quic-go/qpack"
	"github.com/quic-go/quic-go/quicvarint"
	"golang.org/x/net/http2/hpack"
)

// MaxFieldSection is the largest response header section the client
// reads, as its SETTINGS_MAX_FIELD_SECTION_SIZE tells the server: a
// larger one is the server's fault, not a reason to buffer without end.
const MaxFieldSection = 64 << 10

// Reader reads responses off request streams, one at a time, reusing
// its buffers. The zero value is not ready: use NewReader.
type Reader struct {
	br    *bufio.Reader
	src   counter
	block []byte
	dec   *qpack.Decoder
	// Keep is how many bytes of each body Body keeps (for --expect-body);
	// the rest is read and dropped.
	Keep int
	// Body is the kept start of the last response's body.
	Body []byte
	// Started is set once a byte of the response was read: a timeout then
	// is a partial response.
	Started bool
	// KeepHeaders keeps the final response's header fields in Headers
	// (for a script's response()), at most h2.MaxKeptHeaders of them, in
	// HTTP/2's type, as the script's hooks take them.
	KeepHeaders bool
	Headers     []hpack.HeaderField
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// NewReader makes a Reader keeping keep bytes of each body.
func NewReader(keep int) *Reader {
	r := &Reader{dec: qpack.NewDecoder(), Keep: keep}
	r.br = bufio.NewReaderSize(&r.src, 4<<10)
	return r
}

// BytesIn is how many bytes the last Read took off its stream.
func (r *Reader) BytesIn() int64 { return r.src.n }

// Read reads the response on stream src to its end: informational
// responses skipped, the final status returned, its DATA read (Body keeps
// the start), trailers and unknown frames skipped. A response that breaks
// HTTP/3 is a *ProtocolError; an error of src itself is returned as it
// came. head tells a HEAD request, whose response has no content whatever
// its content-length.
func (r *Reader) Read(src io.Reader, head bool) (status int, err error) {
	r.src = counter{r: src}
	r.br.Reset(&r.src)
	r.Body, r.Started, r.Headers = r.Body[:0], false, r.Headers[:0]
	length, got, trailers := int64(-1), int64(0), false
	for {
		t, err := quicvarint.Read(r.br)
		if err == io.EOF {
			return r.ended(status, length, got, head)
		}
		if err != nil {
			return 0, r.midFrame(err)
		}
		r.Started = true
		n, err := quicvarint.Read(r.br)
		if err != nil {
			return 0, r.midFrame(err)
		}
		switch ft := FrameType(t); {
		case ft == FrameHeaders && status != 0:
			trailers = true
			err = r.skip(n)
		case ft == FrameHeaders:
			var cl int64
			if status, cl, err = r.headers(n); err == nil && cl >= 0 {
				length = cl
			}
		case ft == FrameData && (status == 0 || trailers):
			return 0, protocolError(FrameUnexpected, "DATA frame outside a response's content")
		case ft == FrameData:
			got += int64(n)
			err = r.data(n)
		case unexpectedOnRequest(ft):
			return 0, protocolError(FrameUnexpected, "frame type %#x on a request stream", t)
		default: // an unknown type, or a grease one: skipped (RFC 9114 §9)
			err = r.skip(n)
		}
		if err != nil {
			return 0, r.midFrame(err)
		}
	}
}

// ended checks a response whose stream ended after a whole frame.
func (r *Reader) ended(status int, length, got int64, head bool) (int, error) {
	switch {
	case status == 0:
		return 0, protocolError(RequestIncomplete, "the stream ended before a response")
	case length >= 0 && !head && got != length && status != 204 && status != 304:
		return 0, protocolError(MessageError, "content-length %d, but DATA carried %d bytes", length, got)
	}
	return status, nil
}

// midFrame names an error met inside a frame: a stream that ended there
// is malformed; an error of the stream is returned as it came.
func (r *Reader) midFrame(err error) error {
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return protocolError(FrameError, "the stream ended inside a frame")
	}
	return err
}

// headers reads a HEADERS frame of n bytes: a final response's status and
// content-length (-1 when absent), or 0 for an informational response.
func (r *Reader) headers(n uint64) (status int, length int64, err error) {
	if n > MaxFieldSection {
		return 0, -1, protocolError(ExcessiveLoad, "a header section of %d bytes (the limit is %d)", n, MaxFieldSection)
	}
	if cap(r.block) < int(n) {
		r.block = make([]byte, n)
	}
	r.block = r.block[:n]
	if _, err := io.ReadFull(r.br, r.block); err != nil {
		return 0, -1, err
	}
	length = -1
	r.Headers = r.Headers[:0] // an informational response's are not the final one's
	next := r.dec.Decode(r.block)
	for {
		f, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, -1, protocolError(QPACKDecompression, "the response's header section does not decode: %v", err)
		}
		switch f.Name {
		case ":status":
			if status, err = strconv.Atoi(f.Value); err != nil || status < 100 || status > 999 || len(f.Value) != 3 {
				return 0, -1, protocolError(MessageError, "a response with :status %q", f.Value)
			}
		case "content-length":
			if length, err = strconv.ParseInt(f.Value, 10, 64); err != nil || length < 0 {
				return 0, -1, protocolError(MessageError, "a response with content-length %q", f.Value)
			}
		}
		if r.KeepHeaders && !f.IsPseudo() && len(r.Headers) < h2.MaxKeptHeaders {
			r.Headers = append(r.Headers, hpack.HeaderField{Name: f.Name, Value: f.Value})
		}
	}
	if status == 0 {
		return 0, -1, protocolError(MessageError, "a response without :status")
	}
	if status < 200 { // informational: the final response follows
		return 0, -1, nil
	}
	return status, length, nil
}

// data reads a DATA frame's n bytes, keeping what Keep allows.
func (r *Reader) data(n uint64) error {
	if room := r.Keep - len(r.Body); room > 0 {
		k := int(min(n, uint64(room)))
		start := len(r.Body)
		r.Body = append(r.Body, make([]byte, k)...)
		if _, err := io.ReadFull(r.br, r.Body[start:]); err != nil {
			return err
		}
		n -= uint64(k)
	}
	return r.skip(n)
}

// skip reads and drops n bytes.
func (r *Reader) skip(n uint64) error {
	for n > 0 {
		k := int(min(n, 1<<30))
		d, err := r.br.Discard(k)
		n -= uint64(d)
		if err != nil {
			return err
		}
	}
	return nil
}
