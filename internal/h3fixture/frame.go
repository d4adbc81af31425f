package h3fixture

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/quic-go/qpack"
	"github.com/quic-go/quic-go/quicvarint"
)

// maxHeaderBlock bounds a request's header block: a larger HEADERS frame
// is a client error (the server advertises no limit, but a test client
// never needs more).
const maxHeaderBlock = 64 << 10

// errFrameTooLarge reports a HEADERS or SETTINGS frame above maxHeaderBlock.
var errFrameTooLarge = errors.New("h3fixture: frame too large")

// appendFrame appends one frame: varint type, varint length, payload.
func appendFrame(b []byte, typ uint64, payload []byte) []byte {
	b = quicvarint.Append(b, typ)
	b = quicvarint.Append(b, uint64(len(payload)))
	return append(b, payload...)
}

// readFrameHeader reads a frame's type and payload length.
func readFrameHeader(br *bufio.Reader) (typ, length uint64, err error) {
	if typ, err = quicvarint.Read(br); err != nil {
		return 0, 0, err
	}
	if length, err = quicvarint.Read(br); err != nil {
		return 0, 0, noEOF(err)
	}
	return typ, length, nil
}

// readPayload reads a frame payload of length bytes, at most maxHeaderBlock.
func readPayload(br *bufio.Reader, length uint64) ([]byte, error) {
	if length > maxHeaderBlock {
		return nil, errFrameTooLarge
	}
	p := make([]byte, length)
	_, err := io.ReadFull(br, p)
	return p, noEOF(err)
}

// skip discards a frame payload of length bytes.
func skip(br *bufio.Reader, length uint64) error {
	_, err := io.CopyN(io.Discard, br, int64(length))
	return noEOF(err)
}

// noEOF turns an EOF inside a frame into io.ErrUnexpectedEOF: only an
// EOF between frames is a clean end.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// encodeFields returns a QPACK header block (static table and Huffman
// only: no dynamic table) of name, value pairs.
func encodeFields(pairs ...string) []byte {
	var buf bytes.Buffer
	enc := qpack.NewEncoder(&buf)
	for i := 0; i+1 < len(pairs); i += 2 {
		_ = enc.WriteField(qpack.HeaderField{Name: pairs[i], Value: pairs[i+1]})
	}
	_ = enc.Close()
	return buf.Bytes()
}

// decodeFields decodes a QPACK header block.
func decodeFields(block []byte) ([]qpack.HeaderField, error) {
	next := qpack.NewDecoder().Decode(block)
	var fields []qpack.HeaderField
	for {
		f, err := next()
		if err == io.EOF {
			return fields, nil
		}
		if err != nil {
			return nil, fmt.Errorf("h3fixture: QPACK: %w", err)
		}
		fields = append(fields, f)
	}
}
