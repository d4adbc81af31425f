package h2

import (
	"strconv"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// Header block representations (RFC 7541 §6), spelled out for tests.
func indexed(i int) []byte { return []byte{0x80 | byte(i)} } // i < 127

// inserted is a literal with incremental indexing, named by a static or
// dynamic index i (0 < i < 191), or by name when i is 0.
func inserted(i int, name, value string) []byte {
	var b []byte
	switch {
	case i < 63:
		b = []byte{0x40 | byte(i)}
	default:
		b = []byte{0x7f, byte(i - 63)}
	}
	if i == 0 {
		b = append(append(b, byte(len(name))), name...)
	}
	return append(append(b, byte(len(value))), value...)
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// step feeds block as the response of n streams in a row; with cancel,
// each stream is cancelled first, so that the block is decoded for the
// table alone.
type step struct {
	block  []byte
	n      int
	cancel bool
}

// TestMemoFindsWhatDecodingFinds holds the header block memo to what
// hpack finds decoding every block: the status of each response is the
// one a decoder fed every block in order reads, over runs long enough for
// the memo to take over, and it did take over.
func TestMemoFindsWhatDecodingFinds(t *testing.T) {
	const run = 300 // blocks in a row: more than fixedRun entries of each
	nginxLater := cat(indexed(8), inserted(54, "", "nginx"), inserted(33, "", "Wed, 02 Dec 2026 05:29:14 GMT"), inserted(28, "", "0"))
	status := func(v string) []byte { return inserted(0, ":status", v) }
	tests := []struct {
		name  string
		steps []step
	}{
		{"nginx, its date changing", []step{{nginxBlock, run, false}, {nginxLater, run, false}, {nginxBlock, 3, false}}},
		{"responses to streams that ended between", []step{
			{nginxBlock, run, false}, {nginxBlock, 5, true}, {nginxBlock, 3, false}, {status("201"), 1, true},
			{nginxBlock, run, false}, {nginxLater, run, true}, {nginxLater, 3, false}}},
		// A block that inserts nothing reads the table as the last block
		// that inserted left it.
		{"a status read from the table", []step{
			{status("201"), 1, false}, {indexed(62), run, false}, {status("202"), 1, false}, {indexed(62), run, false},
			{status("203"), 1, true}, {indexed(62), 3, false}}},
		{"a status read from entries the block inserted", []step{
			{cat(status("209"), status("210")), 1, false},
			{cat(indexed(63), status("204"), status("205")), run, false}, {cat(indexed(63), status("206"), status("204")), run, false}}},
		{"a status read deep in the table", []step{
			{cat(status("211"), status("212"), status("213"), status("214"), status("215"), status("216"), status("217"), status("218")), 1, false},
			{cat(indexed(69), status("204")), run, false}}},
		// Each block names its entry after the second newest: the names
		// take turns, and so do the statuses it reads.
		{"names taken from the table", []step{
			{cat(indexed(8), inserted(0, "x", "a"), status("299")), 1, false},
			{cat(inserted(63, "", "204"), indexed(62), indexed(8)), run, false}}},
		{"table size updates", []step{
			{cat([]byte{0x20, 0x3f, 0xe1, 0x1f}, status("207")), run, false}, {indexed(62), 2, false},
			{cat([]byte{0x3f, 0x81, 0x01}, status("208")), run, false}, {indexed(62), 2, false}}}, // a table of 160 bytes
	}
	req := NewRequest("GET", "http", "example.com", "/", nil, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := readySession(t, Options{Slots: 1})
			var want int
			ref := hpack.NewDecoder(decoderTable, func(f hpack.HeaderField) {
				if f.Name == ":status" && want == 0 {
					want, _ = strconv.Atoi(f.Value)
				}
			})
			for i, st := range tt.steps {
				for j := range st.n {
					want = 0
					if _, err := ref.Write(st.block); err != nil || ref.Close() != nil {
						t.Fatalf("step %d: the reference decoder: %v", i, err)
					}
					id := s.nextID
					s.Start(0, req)
					if st.cancel {
						s.Cancel(0)
					}
					s.Out = s.Out[:0]
					in := responses(nil, id, 1, st.block)
					if _, err := s.Feed(in); err != nil {
						t.Fatalf("step %d, block %d: %v", i, j, err)
					}
					switch {
					case st.cancel && len(s.Events) != 0:
						t.Fatalf("step %d, block %d: %d events for a stream that ended", i, j, len(s.Events))
					case !st.cancel && (len(s.Events) != 1 || s.Events[0].Status != want):
						t.Fatalf("step %d, block %d: events %+v, want status %d", i, j, s.Events, want)
					}
				}
				// A run long enough, of a block it may remember, is one
				// the memo took over: its decodes are skipped.
				if _, ok := scanBlock(st.block); ok && st.n >= run && !st.cancel {
					if _, _, hit := s.memo.hit(st.block); !hit {
						t.Fatalf("step %d: after %d blocks alike, the memo still has them decoded", i, st.n)
					}
				}
			}
		})
	}
}

func TestScanBlock(t *testing.T) {
	tests := []struct {
		name  string
		block []byte
		adds  int
		ok    bool
	}{
		{"nginx", nginxBlock, 4, true},
		{"indexed only", cat(indexed(8), indexed(62)), 0, true},
		{"an index in continuation bytes", cat([]byte{0xff, 0x81, 0x01}, indexed(2)), 0, true},
		{"not indexed and never indexed", cat([]byte{0x01, 1, 'x'}, []byte{0x10, 1, 'a', 1, 'b'}, []byte{0x0f, 0x00, 1, 'y'}), 0, true},
		{"a name from the static table", inserted(61, "", "v"), 1, true},
		{"a name from the dynamic table", inserted(62, "", "v"), 0, false},
		{"a size update", []byte{0x20}, 0, false},
		{"a string past the block", []byte{0x40, 5, 'a'}, 0, false},
		{"an index past the block", []byte{0xff}, 0, false},
		{"an endless index", []byte{0xff, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 0, false},
	}
	for _, tt := range tests {
		if adds, ok := scanBlock(tt.block); adds != tt.adds || ok != tt.ok {
			t.Errorf("%s: %d, %v; want %d, %v", tt.name, adds, ok, tt.adds, tt.ok)
		}
	}
}
