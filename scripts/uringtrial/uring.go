//go:build linux

package main

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// bufRing is a provided buffer ring (IORING_REGISTER_PBUF_RING): the
// buffers multishot receives pick from, handed back after each completion.
type bufRing struct {
	slots []pbuf
	mem   []byte // the buffers, size bytes each
	size  int
	mask  uint16
	tail  uint16 // the tail to publish
	bid0  uint16 // the bid in slot 0, published with the tail
	maps  [][]byte
}

// bufSize is the size of each provided buffer: nginx's empty response is
// about 150 bytes; a longer read takes more than one buffer.
const bufSize = 1024

// bufGroup is the buffer group id of the ring's one buffer ring.
const bufGroup = 0

// newBufRing maps entries (a power of two, at most 32768) buffers and
// registers them with r as group bufGroup.
func newBufRing(r *ring, entries int) (*bufRing, error) {
	anon := func(size int) ([]byte, error) {
		return unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_POPULATE)
	}
	slots, err := anon(entries * int(unsafe.Sizeof(pbuf{})))
	if err != nil {
		return nil, err
	}
	b := &bufRing{maps: [][]byte{slots}, size: bufSize, mask: uint16(entries - 1)}
	if b.mem, err = anon(entries * bufSize); err != nil {
		b.close()
		return nil, err
	}
	b.maps = append(b.maps, b.mem)
	b.slots = unsafe.Slice((*pbuf)(unsafe.Pointer(&slots[0])), entries)
	reg := bufReg{ringAddr: uint64(uintptr(unsafe.Pointer(&slots[0]))), ringEntries: uint32(entries), bgid: bufGroup}
	if _, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), registerPbufRing,
		uintptr(unsafe.Pointer(&reg)), 1, 0, 0); errno != 0 {
		b.close()
		return nil, fmt.Errorf("IORING_REGISTER_PBUF_RING: %v", errno)
	}
	for i := range entries {
		b.give(uint16(i))
	}
	b.publish()
	return b, nil
}

// buf is buffer bid's first n bytes.
func (b *bufRing) buf(bid uint16, n int) []byte {
	off := int(bid) * b.size
	return b.mem[off : off+n]
}

// give puts buffer bid back at the tail; publish makes it the kernel's.
func (b *bufRing) give(bid uint16) {
	slot := b.tail & b.mask
	b.slots[slot] = pbuf{addr: uint64(uintptr(unsafe.Pointer(&b.mem[int(bid)*b.size]))), len: uint32(b.size), bid: bid}
	if slot == 0 {
		b.bid0 = bid
	}
	b.tail++
}

// publish stores the tail, a u16 that shares a 32-bit word with slot 0's
// bid: sync/atomic has no 16-bit store, so the word is stored whole, with
// the bid this side last wrote there (only this side writes either).
func (b *bufRing) publish() {
	word := (*uint32)(unsafe.Pointer(&b.slots[0].bid))
	atomic.StoreUint32(word, uint32(b.bid0)|uint32(b.tail)<<16)
}

func (b *bufRing) close() {
	for _, m := range b.maps {
		unix.Munmap(m) //nolint:errcheck // the process ends soon
	}
}

// A completion's user data: the connection's index << 8 | the operation.
const (
	tagRecv = iota + 1
	tagSend
	tagTimeout
)

// uringClient is the io_uring client.
type uringClient struct {
	*closedLoop
	r       *ring
	bufs    *bufRing
	req     []byte
	timeout unix.Timespec // the pending timeout's, read by the kernel at submission
	over    bool          // the grace period after the stop is over
}

// pow2 is the least power of two ≥ n, within [lo, hi].
func pow2(n, lo, hi int) int {
	p := lo
	for p < n && p < hi {
		p <<= 1
	}
	return p
}

// runUring is the io_uring client: one ring; each connection's sends as
// IORING_OP_SEND (their completions skipped on success where the kernel
// can), its receives as one multishot IORING_OP_RECV into a provided
// buffer ring, re-armed when it ends; every wake-up's SQEs submitted with
// the same io_uring_enter that waits for the next completions. The stop
// is an IORING_OP_TIMEOUT.
func runUring(cfg config, fds []int) (result, error) {
	runtime.LockOSThread() // the ring is single-issuer: this thread's
	defer runtime.UnlockOSThread()
	r, err := newRing(uint32(pow2(2*len(fds)+2, 64, maxEntries)))
	if err != nil {
		return result{}, err
	}
	defer r.close()
	bufs, err := newBufRing(r, pow2(len(fds), 64, maxEntries))
	if err != nil {
		return result{}, err
	}
	defer bufs.close()
	u := &uringClient{closedLoop: newClosedLoop(fds), r: r, bufs: bufs, req: cfg.req}
	start := time.Now()
	err = u.arm(start, cfg)
	for err == nil && !(u.stopping && (u.inFlight == 0 || u.over)) {
		if err = r.enter(1, enterGetEvents); err == nil {
			err = u.reap(cfg)
		}
	}
	runtime.KeepAlive(u.req)
	if err != nil {
		return result{}, err
	}
	features := append(r.features, "multishot recv into a provided buffer ring", "one io_uring_enter per wake-up")
	if r.cqeSkip {
		features = append(features, "send completions skipped on success")
	}
	return u.result(strings.Join(features, ", "), time.Since(start)), nil
}

// arm queues every connection's receive and first request, and the stop.
func (u *uringClient) arm(start time.Time, cfg config) error {
	for i := range u.conns {
		if err := u.recv(i); err != nil {
			return err
		}
		if err := u.send(i); err != nil {
			return err
		}
	}
	return u.stopAfter(cfg.dur)
}

// reap handles the completions there are.
func (u *uringClient) reap(cfg config) error {
	head, tail := u.r.completions()
	for ; head != tail; head++ {
		e := u.r.cqe(head)
		i := int(e.userData >> 8)
		var err error
		switch e.userData & 0xff {
		case tagRecv:
			err = u.received(i, e.res, e.flags)
		case tagSend:
			if e.res != int32(len(u.req)) { // only failures complete where skipped
				u.fail(i)
			}
		case tagTimeout:
			if u.stopping {
				u.over = true
			} else {
				u.stopping = true
				err = u.stopAfter(cfg.grace)
			}
		}
		if err != nil {
			return err
		}
	}
	u.r.done(head)
	u.bufs.publish()
	return nil
}

// received handles a receive's completion on connection i.
func (u *uringClient) received(i int, res int32, flags uint32) error {
	if res > 0 && flags&cqeFBuffer != 0 {
		bid := uint16(flags >> cqeBufferShift)
		next := u.got(i, u.bufs.buf(bid, int(res)))
		u.bufs.give(bid)
		if next && !u.conns[i].dead {
			if err := u.send(i); err != nil {
				return err
			}
		}
	} else if res != -int32(unix.ENOBUFS) {
		u.fail(i) // the server closed (0) or the receive failed
	}
	if flags&cqeFMore == 0 && !u.conns[i].dead {
		return u.recv(i) // the multishot receive ended: arm another
	}
	return nil
}

// recv queues connection i's multishot receive.
func (u *uringClient) recv(i int) error {
	s, err := u.r.get()
	if err != nil {
		return err
	}
	s.opcode, s.fd, s.flags = opRecv, int32(u.conns[i].fd), sqeBufferSelect
	s.ioprio = recvMultishot | recvPollFirst
	s.bufGroup = bufGroup
	s.userData = uint64(i)<<8 | tagRecv
	return nil
}

// send queues connection i's next request.
func (u *uringClient) send(i int) error {
	s, err := u.r.get()
	if err != nil {
		return err
	}
	s.opcode, s.fd = opSend, int32(u.conns[i].fd)
	s.addr, s.len = uint64(uintptr(unsafe.Pointer(&u.req[0]))), uint32(len(u.req))
	s.opFlags = unix.MSG_NOSIGNAL
	if u.r.cqeSkip {
		s.flags = sqeCQESkipSuccess
	}
	s.userData = uint64(i)<<8 | tagSend
	u.sending(i)
	return nil
}

// stopAfter queues a timeout that completes after d.
func (u *uringClient) stopAfter(d time.Duration) error {
	s, err := u.r.get()
	if err != nil {
		return err
	}
	u.timeout = unix.NsecToTimespec(max(int64(d), 1))
	s.opcode, s.fd = opTimeout, -1
	s.addr, s.len = uint64(uintptr(unsafe.Pointer(&u.timeout))), 1
	s.userData = tagTimeout
	return nil
}
