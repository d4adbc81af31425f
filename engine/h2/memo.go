package h2

import "bytes"

// A server that answers every request alike sends the same header block
// over and over: nginx sends each field of every response as a literal
// with incremental indexing (its encoder never refers to its own table),
// so decoding one costs a Huffman decoding, a string and a table
// insertion per field, and evictions. blockMemo skips that work once it
// is known to change nothing: hpack still decodes every block that
// differs, and the first of a run of identical ones.
//
// Decoding block B from table state S is a function of B and S. When
// every entry B inserts is spelled out in B (a literal or a static name,
// never a name from the dynamic table), a run of decodes of B inserts the
// same entries each time; the table holds the newest entries that fit in
// its size, so once the run inserted more than the table holds, the state
// is a function of B alone, which decoding B again maps to itself, with
// the same result. Blocks that change the table's size are never
// remembered.
type blockMemo struct {
	block []byte
	// adds is how many entries decoding block inserts; run how many the
	// decodes of block in a row inserted, counted up to fixedRun.
	adds, run int
	// status and length (its content-length, -1 without one) are what
	// the last decode of block found, valid when known: set by a decode
	// that started from the state block maps to itself.
	status int
	length int64
	known  bool
}

// fixedRun is how many entries a run of identical blocks inserts before
// the table holds none from before it: entries take at least 32 bytes
// each (RFC 7541 §4.1), and the decoder's table at most decoderTable.
const fixedRun = decoderTable/32 + 1

// hit reports whether decoding p may be skipped, and if so the status and
// content-length it would find.
func (m *blockMemo) hit(p []byte) (status int, length int64, ok bool) {
	if m.known && bytes.Equal(p, m.block) {
		return m.status, m.length, true
	}
	return 0, -1, false
}

// decoded notes that hpack decoded block p whole, finding status and
// length (known is false when emits were off, as for a stream that ended).
func (m *blockMemo) decoded(p []byte, status int, length int64, known bool) {
	if !bytes.Equal(p, m.block) {
		adds, ok := scanBlock(p)
		if !ok {
			m.reset()
			return
		}
		m.block, m.adds, m.run, m.known = append(m.block[:0], p...), adds, 0, false
	}
	// Decoding started from the state block maps to itself when the run
	// before it filled the table, or when block inserts nothing.
	fixed := m.run >= fixedRun || m.adds == 0
	if known && fixed {
		m.status, m.length, m.known = status, length, true
	}
	m.run = min(m.run+m.adds, fixedRun)
}

// reset forgets the block: another was decoded, or the decoder is new.
func (m *blockMemo) reset() {
	m.block, m.adds, m.run, m.known = m.block[:0], 0, 0, false
}

// scanBlock reads the representations of a header block (RFC 7541 §6)
// without decoding a string, to count the entries it inserts; ok is false
// for a block the memo must not skip: one that changes the table's size,
// inserts an entry named from the dynamic table, or does not parse.
func scanBlock(p []byte) (adds int, ok bool) {
	for len(p) > 0 {
		b := p[0]
		var idx uint64
		var prefix uint8
		switch {
		case b&0x80 != 0: // indexed
			if _, p, ok = readInt(7, p); !ok {
				return 0, false
			}
			continue
		case b&0xc0 == 0x40: // literal with incremental indexing
			adds++
			prefix = 6
		case b&0xe0 == 0x20: // dynamic table size update
			return 0, false
		default: // literal without indexing, or never indexed
			prefix = 4
		}
		if idx, p, ok = readInt(prefix, p); !ok {
			return 0, false
		}
		if idx == 0 {
			if p, ok = skipString(p); !ok {
				return 0, false
			}
		} else if prefix == 6 && idx > staticEntries {
			return 0, false
		}
		if p, ok = skipString(p); !ok {
			return 0, false
		}
	}
	return adds, true
}

// staticEntries is the size of HPACK's static table.
const staticEntries = 61

// readInt reads an integer with an n-bit prefix (RFC 7541 §5.1), of at
// most 4 continuation bytes.
func readInt(n uint8, p []byte) (uint64, []byte, bool) {
	if len(p) == 0 {
		return 0, nil, false
	}
	mask := uint64(1)<<n - 1
	v := uint64(p[0]) & mask
	p = p[1:]
	if v < mask {
		return v, p, true
	}
	for shift := uint(0); shift < 28; shift += 7 {
		if len(p) == 0 {
			return 0, nil, false
		}
		b := p[0]
		p = p[1:]
		v += uint64(b&0x7f) << shift
		if b&0x80 == 0 {
			return v, p, true
		}
	}
	return 0, nil, false
}

// skipString skips a string literal (RFC 7541 §5.2).
func skipString(p []byte) ([]byte, bool) {
	n, p, ok := readInt(7, p)
	if !ok || n > uint64(len(p)) {
		return nil, false
	}
	return p[n:], true
}
