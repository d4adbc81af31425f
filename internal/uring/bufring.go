//go:build linux

package uring

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BufRing is a provided buffer ring (IORING_REGISTER_PBUF_RING): the
// buffers multishot receives of its group pick from, each handed back
// with Give once its bytes are read.
type BufRing struct {
	slots []pbuf
	mem   []byte // the buffers, size bytes each
	size  int
	mask  uint16
	tail  uint16 // the tail to publish
	bid0  uint16 // the bid in slot 0, published with the tail
	maps  [][]byte
}

// NewBufRing maps entries buffers (a power of two, at most 32768) of size
// bytes each and registers them with r as group.
func NewBufRing(r *Ring, entries, size int, group uint16) (*BufRing, error) {
	anon := func(n int) ([]byte, error) {
		return unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	}
	slots, err := anon(entries * int(unsafe.Sizeof(pbuf{})))
	if err != nil {
		return nil, err
	}
	b := &BufRing{maps: [][]byte{slots}, size: size, mask: uint16(entries - 1)}
	if b.mem, err = anon(entries * size); err != nil {
		b.Close()
		return nil, err
	}
	b.maps = append(b.maps, b.mem)
	b.slots = unsafe.Slice((*pbuf)(unsafe.Pointer(&slots[0])), entries)
	reg := bufReg{ringAddr: uint64(uintptr(unsafe.Pointer(&slots[0]))), ringEntries: uint32(entries), bgid: group}
	if _, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), registerPbufRing,
		uintptr(unsafe.Pointer(&reg)), 1, 0, 0); errno != 0 {
		b.Close()
		if errno == unix.EINVAL {
			return nil, fmt.Errorf("%w: IORING_REGISTER_PBUF_RING: %v", ErrUnavailable, errno)
		}
		return nil, fmt.Errorf("IORING_REGISTER_PBUF_RING: %w", errno)
	}
	for i := range entries {
		b.Give(uint16(i))
	}
	b.Publish()
	return b, nil
}

// Buf is buffer bid's first n bytes.
func (b *BufRing) Buf(bid uint16, n int) []byte {
	off := int(bid) * b.size
	return b.mem[off : off+n : off+b.size]
}

// Give puts buffer bid back at the tail; Publish makes it the kernel's.
func (b *BufRing) Give(bid uint16) {
	slot := b.tail & b.mask
	s := &b.slots[slot] // field by field: slot 0's tail is the ring's
	s.addr, s.len, s.bid = uint64(uintptr(unsafe.Pointer(&b.mem[int(bid)*b.size]))), uint32(b.size), bid
	if slot == 0 {
		b.bid0 = bid
	}
	b.tail++
}

// Publish stores the tail, a u16 that shares a 32-bit word with slot 0's
// bid: sync/atomic has no 16-bit store, so the word is stored whole, with
// the bid this side last wrote there (only this side writes either).
func (b *BufRing) Publish() {
	word := (*uint32)(unsafe.Pointer(&b.slots[0].bid))
	atomic.StoreUint32(word, uint32(b.bid0)|uint32(b.tail)<<16)
}

// Close unmaps the buffers; the ring they were registered with must be
// closed first.
func (b *BufRing) Close() {
	for _, m := range b.maps {
		unix.Munmap(m) //nolint:errcheck // nothing to do about it
	}
	b.maps = nil
}
