package h3

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/quic-go/qpack"
	"github.com/quic-go/quic-go/quicvarint"
)

// block encodes fields as a QPACK header section.
func block(fields ...string) []byte {
	var b bytes.Buffer
	enc := qpack.NewEncoder(&b)
	for i := 0; i+1 < len(fields); i += 2 {
		enc.WriteField(qpack.HeaderField{Name: fields[i], Value: fields[i+1]}) //nolint:errcheck // a bytes.Buffer
	}
	enc.Close() //nolint:errcheck // the same
	return b.Bytes()
}

func frame(t FrameType, payload []byte) []byte { return appendFrame(nil, t, payload) }

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestNewRequest(t *testing.T) {
	r := NewRequest("POST", "https", "localhost:8443", "/a?b", []h2.Header{{Name: "X-Token", Value: "t"}, {Name: "Connection", Value: "close"}}, []byte("body"))
	wire := r.Wire()
	br := bufio.NewReader(bytes.NewReader(wire))
	typ, _ := quicvarint.Read(br)
	n, _ := quicvarint.Read(br)
	if FrameType(typ) != FrameHeaders {
		t.Fatalf("first frame type %#x, want HEADERS", typ)
	}
	payload := make([]byte, n)
	io.ReadFull(br, payload) //nolint:errcheck // checked by what follows
	var got []string
	next := qpack.NewDecoder().Decode(payload)
	for {
		f, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f.Name+"="+f.Value)
	}
	want := ":method=POST :scheme=https :authority=localhost:8443 :path=/a?b x-token=t content-length=4"
	if strings.Join(got, " ") != want {
		t.Errorf("fields %q, want %q", strings.Join(got, " "), want)
	}
	rest, _ := io.ReadAll(br)
	if !bytes.Equal(rest, frame(FrameData, []byte("body"))) {
		t.Errorf("after HEADERS: %x, want one DATA frame of the body", rest)
	}
	if r.Head() || !NewRequest("HEAD", "https", "h", "/", nil, nil).Head() {
		t.Error("Head() wrong")
	}
}

func TestReaderRead(t *testing.T) {
	ok := frame(FrameHeaders, block(":status", "200", "content-length", "5"))
	tests := []struct {
		name    string
		stream  []byte
		head    bool
		status  int
		body    string
		code    ErrCode // the ProtocolError's; 0 for none
		started bool
	}{
		{"response with a body", join(ok, frame(FrameData, []byte("hel")), frame(FrameData, []byte("lo"))), false, 200, "hel", 0, true},
		{"no content-length", join(frame(FrameHeaders, block(":status", "404")), frame(FrameData, []byte("x"))), false, 404, "x", 0, true},
		{"informational first", join(frame(FrameHeaders, block(":status", "103")), ok, frame(FrameData, []byte("hello"))), false, 200, "hel", 0, true},
		{"trailers and unknown frames skipped", join(frame(0x21, []byte("grease")), ok, frame(FrameData, []byte("hello")), frame(FrameHeaders, block("x-t", "1"))), false, 200, "hel", 0, true},
		{"HEAD has no content", ok, true, 200, "", 0, true},
		{"content-length disagrees", join(ok, frame(FrameData, []byte("hell"))), false, 0, "hel", MessageError, true},
		{"DATA before HEADERS", join(frame(FrameData, []byte("x")), ok), false, 0, "", FrameUnexpected, true},
		{"DATA after trailers", join(ok, frame(FrameHeaders, block("x-t", "1")), frame(FrameData, []byte("hello"))), false, 0, "", FrameUnexpected, true},
		{"an HTTP/2 frame type", join(ok, frame(0x2, nil)), false, 0, "", FrameUnexpected, true},
		{"GOAWAY on a request stream", frame(FrameGoAway, []byte{0}), false, 0, "", FrameUnexpected, true},
		{"no response at all", nil, false, 0, "", RequestIncomplete, false},
		{"ends inside a frame", ok[:len(ok)-2], false, 0, "", FrameError, true},
		{"header section too large", quicvarint.Append(quicvarint.Append(nil, 1), MaxFieldSection+1), false, 0, "", ExcessiveLoad, true},
		{"QPACK that does not decode", frame(FrameHeaders, []byte{0, 0, 0xff}), false, 0, "", QPACKDecompression, true},
		{"no :status", frame(FrameHeaders, block("server", "x")), false, 0, "", MessageError, true},
		{"a :status of letters", frame(FrameHeaders, block(":status", "abc")), false, 0, "", MessageError, true},
	}
	r := NewReader(3)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, err := r.Read(bytes.NewReader(tt.stream), tt.head)
			var pe *ProtocolError
			switch {
			case tt.code == 0 && err != nil:
				t.Fatalf("Read: %v", err)
			case tt.code != 0 && (!errors.As(err, &pe) || pe.Code != tt.code):
				t.Fatalf("Read error %v, want a ProtocolError with %v", err, tt.code)
			}
			if status != tt.status || string(r.Body) != tt.body || r.Started != tt.started {
				t.Errorf("status %d, body %q, started %v; want %d, %q, %v", status, r.Body, r.Started, tt.status, tt.body, tt.started)
			}
			if tt.code == 0 && r.BytesIn() != int64(len(tt.stream)) {
				t.Errorf("BytesIn %d, want %d", r.BytesIn(), len(tt.stream))
			}
		})
	}
}

func TestReaderPassesStreamErrors(t *testing.T) {
	boom := errors.New("stream reset")
	_, err := NewReader(0).Read(io.MultiReader(bytes.NewReader(frame(FrameHeaders, block(":status", "200"))[:3]), errReader{boom}), false)
	if !errors.Is(err, boom) {
		t.Errorf("Read = %v, want the stream's own error", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestReadControl(t *testing.T) {
	settings := frame(FrameSettings, []byte{0x6, 0x40, 0x64})
	goaway := func(id uint64) []byte { return frame(FrameGoAway, quicvarint.Append(nil, id)) }
	tests := []struct {
		name    string
		stream  []byte
		goAways []uint64
		code    ErrCode
	}{
		{"SETTINGS then two GOAWAYs, then the end", join(settings, frame(0x21, []byte("x")), goaway(8), goaway(4)), []uint64{8, 4}, ClosedCriticalStream},
		{"no SETTINGS first", goaway(4), nil, MissingSettings},
		{"a second SETTINGS", join(settings, settings), nil, FrameUnexpected},
		{"GOAWAY that grows", join(settings, goaway(4), goaway(8)), []uint64{4}, IDError},
		{"GOAWAY for a server stream", join(settings, goaway(5)), nil, IDError},
		{"HEADERS on the control stream", join(settings, frame(FrameHeaders, nil)), nil, FrameUnexpected},
		{"huge SETTINGS", quicvarint.Append(quicvarint.Append(nil, 4), 1<<20), nil, ExcessiveLoad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []uint64
			err := ReadControl(bufio.NewReader(bytes.NewReader(tt.stream)), func(id uint64) { got = append(got, id) })
			var pe *ProtocolError
			if !errors.As(err, &pe) || pe.Code != tt.code {
				t.Fatalf("ReadControl = %v, want a ProtocolError with %v", err, tt.code)
			}
			if len(got) != len(tt.goAways) || len(got) > 0 && got[len(got)-1] != tt.goAways[len(tt.goAways)-1] {
				t.Errorf("GOAWAYs %v, want %v", got, tt.goAways)
			}
		})
	}
}

func TestClientControl(t *testing.T) {
	b := ClientControl()
	if b[0] != StreamControl || FrameType(b[1]) != FrameSettings {
		t.Errorf("ClientControl = %x: want the control stream's type, then SETTINGS", b)
	}
	if ErrCode(0x10b).String() != "H3_REQUEST_REJECTED" || ErrCode(0x99).String() != "error code 0x99" {
		t.Error("ErrCode names")
	}
}
