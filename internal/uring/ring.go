//go:build linux

// Package uring is the little of io_uring that pummel's io_uring
// transport uses, over golang.org/x/sys/unix without cgo: a ring set up
// for one thread (single issuer, deferred task running), sends, multishot
// receives into a provided buffer ring, polls and cancels, and one
// io_uring_enter that submits what is queued and waits for completions
// with a nanosecond timeout. Nothing here allocates once a ring is made.
//
// A Ring is used from the one locked OS thread that made it: the kernel
// ties a single-issuer ring to that thread.
package uring

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ErrUnavailable is returned where io_uring is refused (a seccomp profile,
// kernel.io_uring_disabled) or the kernel lacks what a Ring needs (Linux
// 6.1: single issuer, deferred task running, multishot receives, buffer
// rings).
var ErrUnavailable = errors.New("io_uring is unavailable here")

// Ring is one io_uring.
type Ring struct {
	fd         int
	enterFd    uintptr // the registered ring's index, or fd
	enterFlags uintptr

	sqHead, sqTail *uint32
	sqMask         uint32
	sqes           []sqe
	tail           uint32 // the SQ tail, published at enter
	pending        uint32 // SQEs queued and not yet submitted

	cqHead, cqTail *uint32
	cqMask         uint32
	cqes           []CQE

	wait geteventsArg  // Wait's argument, kept here so that it does not escape
	ts   unix.Timespec // its timeout

	maps [][]byte
}

// New sets up a ring of entries SQEs (a power of two, at most MaxEntries)
// for the calling thread, which must be locked to its goroutine and be
// the only one to use the ring.
func New(entries uint32) (*Ring, error) {
	if b, err := os.ReadFile("/proc/sys/kernel/io_uring_disabled"); err == nil && strings.TrimSpace(string(b)) != "0" {
		return nil, fmt.Errorf("%w: kernel.io_uring_disabled is %s", ErrUnavailable, strings.TrimSpace(string(b)))
	}
	p := params{flags: setupSingleIssuer | setupDeferTaskrun | setupSubmitAll}
	fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(&p)), 0)
	switch errno {
	case 0:
	case unix.ENOSYS, unix.EPERM, unix.EACCES:
		return nil, fmt.Errorf("%w: io_uring_setup: %v", ErrUnavailable, errno)
	case unix.EINVAL:
		return nil, fmt.Errorf("%w: io_uring_setup: %v (the kernel predates Linux 6.1)", ErrUnavailable, errno)
	default:
		return nil, fmt.Errorf("io_uring_setup: %w", errno)
	}
	r := &Ring{fd: int(fd), enterFd: fd}
	if p.features&featExtArg == 0 || p.features&featNoDrop == 0 {
		r.Close()
		return nil, fmt.Errorf("%w: the kernel lacks IORING_FEAT_EXT_ARG or NODROP", ErrUnavailable)
	}
	if err := r.mapRings(&p); err != nil {
		r.Close()
		return nil, err
	}
	r.registerFd()
	return r, nil
}

// mapRings maps the SQ and CQ rings and the SQE array.
func (r *Ring) mapRings(p *params) error {
	sqSize := int(p.sqOff.array + p.sqEntries*4)
	cqSize := int(p.cqOff.cqes + p.cqEntries*uint32(unsafe.Sizeof(CQE{})))
	single := p.features&featSingleMmap != 0
	if single {
		sqSize = max(sqSize, cqSize)
	}
	sq, err := r.mmap(offSQRing, sqSize)
	if err != nil {
		return err
	}
	cq := sq
	if !single {
		if cq, err = r.mmap(offCQRing, cqSize); err != nil {
			return err
		}
	}
	sqeMem, err := r.mmap(offSQEs, int(p.sqEntries)*int(unsafe.Sizeof(sqe{})))
	if err != nil {
		return err
	}
	r.sqHead = (*uint32)(unsafe.Pointer(&sq[p.sqOff.head]))
	r.sqTail = (*uint32)(unsafe.Pointer(&sq[p.sqOff.tail]))
	r.sqMask = *(*uint32)(unsafe.Pointer(&sq[p.sqOff.ringMask]))
	r.tail = atomic.LoadUint32(r.sqTail)
	array := unsafe.Slice((*uint32)(unsafe.Pointer(&sq[p.sqOff.array])), p.sqEntries)
	for i := range array { // SQE i always sits in slot i
		array[i] = uint32(i)
	}
	r.sqes = unsafe.Slice((*sqe)(unsafe.Pointer(&sqeMem[0])), p.sqEntries)
	r.cqHead = (*uint32)(unsafe.Pointer(&cq[p.cqOff.head]))
	r.cqTail = (*uint32)(unsafe.Pointer(&cq[p.cqOff.tail]))
	r.cqMask = *(*uint32)(unsafe.Pointer(&cq[p.cqOff.ringMask]))
	r.cqes = unsafe.Slice((*CQE)(unsafe.Pointer(&cq[p.cqOff.cqes])), p.cqEntries)
	return nil
}

func (r *Ring) mmap(off int64, size int) ([]byte, error) {
	b, err := unix.Mmap(r.fd, off, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("mmap of the ring at %#x: %w", off, err)
	}
	r.maps = append(r.maps, b)
	return b, nil
}

// registerFd registers the ring's own fd, so that io_uring_enter skips
// looking it up; where that is refused the ring keeps using its fd.
func (r *Ring) registerFd() {
	up := rsrcUpdate{offset: ^uint32(0), data: uint64(r.fd)} // offset -1: any free slot
	n, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), registerRingFDs,
		uintptr(unsafe.Pointer(&up)), 1, 0, 0)
	if errno == 0 && n == 1 {
		r.enterFd, r.enterFlags = uintptr(up.offset), enterRegisteredRing
	}
}

// get returns the next free SQE, zeroed, submitting what is queued first
// when the SQ is full.
func (r *Ring) get() (*sqe, error) {
	if r.tail-atomic.LoadUint32(r.sqHead) > r.sqMask {
		if err := r.enter(0, 0, nil); err != nil {
			return nil, err
		}
		if r.tail-atomic.LoadUint32(r.sqHead) > r.sqMask {
			return nil, fmt.Errorf("io_uring: the submission queue stays full")
		}
	}
	s := &r.sqes[r.tail&r.sqMask]
	*s = sqe{}
	r.tail++
	r.pending++
	return s, nil
}

// Send queues a send of p on fd with the given MSG_ flags. p must stay as
// it is until the send completes. With skipSuccess a send that succeeds
// posts no completion (IOSQE_CQE_SKIP_SUCCESS).
func (r *Ring) Send(fd int, p []byte, msgFlags uint32, userData uint64, skipSuccess bool) error {
	s, err := r.get()
	if err != nil {
		return err
	}
	s.opcode, s.fd, s.opFlags, s.userData = opSend, int32(fd), msgFlags, userData
	s.addr, s.len = uint64(uintptr(unsafe.Pointer(unsafe.SliceData(p)))), uint32(len(p))
	if skipSuccess {
		s.flags = sqeCQESkipSuccess
	}
	return nil
}

// RecvMultishot queues a multishot receive on fd into buffers of group: a
// completion for every buffer filled, until one comes without More.
func (r *Ring) RecvMultishot(fd int, group uint16, userData uint64) error {
	s, err := r.get()
	if err != nil {
		return err
	}
	s.opcode, s.fd, s.flags, s.ioprio = opRecv, int32(fd), sqeBufferSelect, recvMultishot
	s.bufGroup, s.userData = group, userData
	return nil
}

// PollAdd queues a one-shot poll of fd for events (POLLIN, POLLOUT…).
func (r *Ring) PollAdd(fd int, events uint32, userData uint64) error {
	s, err := r.get()
	if err != nil {
		return err
	}
	s.opcode, s.fd, s.opFlags, s.userData = opPollAdd, int32(fd), events, userData
	return nil
}

// Cancel queues the cancellation of every request with user data target.
// It posts a completion (with userData) only when it fails, as when
// nothing matched.
func (r *Ring) Cancel(target, userData uint64) error {
	s, err := r.get()
	if err != nil {
		return err
	}
	s.opcode, s.fd, s.addr, s.opFlags = opAsyncCancel, -1, target, cancelAll
	s.flags, s.userData = sqeCQESkipSuccess, userData
	return nil
}

// Wait submits what is queued and waits until there is a completion or d
// has passed (d < 0: for ever; 0: not at all), in one io_uring_enter. An
// interrupted or timed-out wait is no error: the completions tell what
// happened.
func (r *Ring) Wait(d time.Duration) error {
	if d == 0 {
		return r.enter(0, enterGetEvents, nil)
	}
	var arg *geteventsArg
	if d > 0 {
		r.ts = unix.NsecToTimespec(int64(d))
		r.wait = geteventsArg{ts: uint64(uintptr(unsafe.Pointer(&r.ts)))}
		arg = &r.wait
	}
	return r.enter(1, enterGetEvents, arg)
}

// enter submits every queued SQE and, with enterGetEvents, waits for at
// least minComplete completions, in one io_uring_enter.
func (r *Ring) enter(minComplete, flags uintptr, arg *geteventsArg) error {
	atomic.StoreUint32(r.sqTail, r.tail)
	var argp, argSize uintptr
	if arg != nil {
		argp, argSize, flags = uintptr(unsafe.Pointer(arg)), unsafe.Sizeof(*arg), flags|enterExtArg
	}
	n, _, errno := unix.Syscall6(unix.SYS_IO_URING_ENTER, r.enterFd, uintptr(r.pending), minComplete,
		flags|r.enterFlags, argp, argSize)
	switch errno {
	case 0:
		r.pending -= min(uint32(n), r.pending)
	case unix.EINTR, unix.ETIME, unix.EAGAIN, unix.EBUSY:
	default:
		return fmt.Errorf("io_uring_enter: %w", errno)
	}
	return nil
}

// Completions returns the CQ's head and tail: the entries from head up to
// tail are there to be read with CQE, then handed back with Done.
func (r *Ring) Completions() (head, tail uint32) {
	return *r.cqHead, atomic.LoadUint32(r.cqTail)
}

// CQE is completion i, between Completions' head and tail.
func (r *Ring) CQE(i uint32) *CQE { return &r.cqes[i&r.cqMask] }

// Done hands the completions before head back to the kernel.
func (r *Ring) Done(head uint32) { atomic.StoreUint32(r.cqHead, head) }

// Close closes the ring, which cancels what is under way.
func (r *Ring) Close() {
	for _, b := range r.maps {
		unix.Munmap(b) //nolint:errcheck // nothing to do about it
	}
	r.maps = nil
	if r.fd >= 0 {
		unix.Close(r.fd)
		r.fd = -1
	}
}
