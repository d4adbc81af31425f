package h2

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"golang.org/x/net/http2"
)

// nginxBlock is the header block nginx 1.22 answers `return 200;` with
// over h2c, recorded: ":status 200" from the static table, then server,
// date, content-type and content-length as literals with incremental
// indexing (nginx never refers to its encoder's table), the same bytes for
// every response of a second.
var nginxBlock, _ = hex.DecodeString("887689aa6355e580ae212e1f6196e4593e940094be52282009c500ddc13f702ca98b46ff5f87497ca58ae819aa5c0130")

// readySession is a session past the server's SETTINGS, with its output
// emptied.
func readySession(tb testing.TB, o Options) *Session {
	tb.Helper()
	s := NewSession(o)
	srv := newServer()
	srv.fr.WriteSettings(http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 1024})
	if _, err := s.Feed(srv.buf.Bytes()); err != nil || !s.Ready() {
		tb.Fatalf("SETTINGS: %v", err)
	}
	s.Out = s.Out[:0]
	return s
}

// responses appends to b one HEADERS frame ending each of the n streams
// from first on, with header block blk.
func responses(b []byte, first uint32, n int, blk []byte) []byte {
	for i := range n {
		b = append(b, byte(len(blk)>>16), byte(len(blk)>>8), byte(len(blk)), byte(http2.FrameHeaders),
			byte(http2.FlagHeadersEndStream|http2.FlagHeadersEndHeaders))
		b = binary.BigEndian.AppendUint32(b, first+2*uint32(i))
		b = append(b, blk...)
	}
	return b
}

// BenchmarkFeedNginx is the session's cost of one request at --streams 16
// against nginx: 16 streams started, their 16 responses fed in one read.
func BenchmarkFeedNginx(b *testing.B) {
	const streams = 16
	s := readySession(b, Options{Slots: streams})
	req := NewRequest("GET", "http", "127.0.0.1:8080", "/", nil, nil)
	var in []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += streams {
		first := s.nextID
		for slot := range streams {
			s.Start(slot, req)
		}
		s.Out = s.Out[:0]
		in = responses(in[:0], first, streams, nginxBlock)
		if n, err := s.Feed(in); err != nil || n != len(in) || len(s.Events) != streams || s.Events[0].Status != 200 {
			b.Fatalf("Feed: %d of %d bytes, %v, %d events", n, len(in), err, len(s.Events))
		}
	}
}

func TestHeadersFrameAsTheFramerWritesIt(t *testing.T) {
	tests := []struct {
		id                    uint32
		endStream, endHeaders bool
	}{{1, true, true}, {3, false, true}, {1<<31 - 1, true, false}, {0x10203, false, false}}
	fragment := []byte("a header block fragment")
	for _, tt := range tests {
		var s Session
		s.writeHeaders(tt.id, fragment, tt.endStream, tt.endHeaders)
		var want appender
		http2.NewFramer(&want, nil).WriteHeaders(http2.HeadersFrameParam{StreamID: tt.id, BlockFragment: fragment,
			EndStream: tt.endStream, EndHeaders: tt.endHeaders})
		if string(s.Out) != string(want) {
			t.Errorf("%+v: %x, want %x", tt, s.Out, []byte(want))
		}
	}
}
