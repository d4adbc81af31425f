//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The io_uring ABI, from the kernel's include/uapi/linux/io_uring.h
// (golang.org/x/sys/unix has only the system call numbers). Sizes and
// offsets were checked against the header with a C program: sqe 64 bytes,
// cqe 16, params 120 with sq_off at 40 and cq_off at 80.
const (
	setupSubmitAll    = 1 << 7  // IORING_SETUP_SUBMIT_ALL
	setupSingleIssuer = 1 << 12 // IORING_SETUP_SINGLE_ISSUER
	setupDeferTaskrun = 1 << 13 // IORING_SETUP_DEFER_TASKRUN

	featSingleMmap = 1 << 0  // IORING_FEAT_SINGLE_MMAP
	featCQESkip    = 1 << 11 // IORING_FEAT_CQE_SKIP

	offSQRing = 0          // IORING_OFF_SQ_RING
	offCQRing = 0x8000000  // IORING_OFF_CQ_RING
	offSQEs   = 0x10000000 // IORING_OFF_SQES

	enterGetEvents      = 1 << 0 // IORING_ENTER_GETEVENTS
	enterRegisteredRing = 1 << 4 // IORING_ENTER_REGISTERED_RING

	registerRingFDs  = 20 // IORING_REGISTER_RING_FDS
	registerPbufRing = 22 // IORING_REGISTER_PBUF_RING

	opTimeout = 11 // IORING_OP_TIMEOUT
	opSend    = 26 // IORING_OP_SEND
	opRecv    = 27 // IORING_OP_RECV

	sqeBufferSelect   = 1 << 5 // IOSQE_BUFFER_SELECT
	sqeCQESkipSuccess = 1 << 6 // IOSQE_CQE_SKIP_SUCCESS

	recvPollFirst = 1 << 0 // IORING_RECVSEND_POLL_FIRST, in sqe.ioprio
	recvMultishot = 1 << 1 // IORING_RECV_MULTISHOT, in sqe.ioprio

	cqeFBuffer     = 1 << 0 // IORING_CQE_F_BUFFER
	cqeFMore       = 1 << 1 // IORING_CQE_F_MORE
	cqeBufferShift = 16     // IORING_CQE_BUFFER_SHIFT

	maxEntries = 32768 // IORING_MAX_ENTRIES (io_uring/io_uring.h)
)

// sqe is struct io_uring_sqe.
type sqe struct {
	opcode      uint8
	flags       uint8
	ioprio      uint16
	fd          int32
	off         uint64
	addr        uint64
	len         uint32
	opFlags     uint32 // msg_flags, timeout_flags, …
	userData    uint64
	bufGroup    uint16
	personality uint16
	spliceFdIn  int32
	addr3       uint64
	_           uint64
}

// cqe is struct io_uring_cqe.
type cqe struct {
	userData uint64
	res      int32
	flags    uint32
}

type sqOffsets struct {
	head, tail, ringMask, ringEntries, flags, dropped, array, resv1 uint32
	resv2                                                           uint64
}

type cqOffsets struct {
	head, tail, ringMask, ringEntries, overflow, cqes, flags, resv1 uint32
	resv2                                                           uint64
}

// params is struct io_uring_params.
type params struct {
	sqEntries, cqEntries, flags, sqThreadCPU, sqThreadIdle, features, wqFd uint32
	resv                                                                   [3]uint32
	sqOff                                                                  sqOffsets
	cqOff                                                                  cqOffsets
}

// rsrcUpdate is struct io_uring_rsrc_update.
type rsrcUpdate struct {
	offset, resv uint32
	data         uint64
}

// bufReg is struct io_uring_buf_reg.
type bufReg struct {
	ringAddr    uint64
	ringEntries uint32
	bgid, pad   uint16
	resv        [3]uint64
}

// pbuf is struct io_uring_buf, one slot of a provided buffer ring.
type pbuf struct {
	addr uint64
	len  uint32
	bid  uint16
	tail uint16 // resv in every slot but the first, where it is the ring's tail
}

// The compiler checks the sizes the kernel expects.
var (
	_ [64]byte  = [unsafe.Sizeof(sqe{})]byte{}
	_ [16]byte  = [unsafe.Sizeof(cqe{})]byte{}
	_ [120]byte = [unsafe.Sizeof(params{})]byte{}
	_ [40]byte  = [unsafe.Sizeof(bufReg{})]byte{}
	_ [16]byte  = [unsafe.Sizeof(pbuf{})]byte{}
)

// ring is one io_uring, used from one locked OS thread.
type ring struct {
	fd         int
	enterFd    uintptr // the registered ring's index, or fd
	enterFlags uintptr
	features   []string // what was set up, in words

	sqHead, sqTail *uint32
	sqMask         uint32
	sqes           []sqe
	tail           uint32 // the SQ tail, published at enter
	pending        uint32 // SQEs queued and not yet submitted

	cqHead, cqTail *uint32
	cqMask         uint32
	cqes           []cqe

	maps    [][]byte
	cqeSkip bool
}

// errUnavailable is returned where io_uring is refused or missing.
var errUnavailable = errors.New("io_uring is unavailable here")

// newRing sets up a ring of entries SQEs (a power of two) for the calling
// thread: single issuer with deferred task running where the kernel
// knows them, its fd registered where it can be.
func newRing(entries uint32) (*ring, error) {
	if b, err := os.ReadFile("/proc/sys/kernel/io_uring_disabled"); err == nil && strings.TrimSpace(string(b)) != "0" {
		return nil, fmt.Errorf("%w: /proc/sys/kernel/io_uring_disabled is %s", errUnavailable, strings.TrimSpace(string(b)))
	}
	p := params{flags: setupSingleIssuer | setupDeferTaskrun | setupSubmitAll}
	fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(&p)), 0)
	r := &ring{features: []string{"single issuer", "deferred task running"}}
	if errno == unix.EINVAL {
		p = params{}
		fd, _, errno = unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(&p)), 0)
		r.features = []string{"no single issuer nor deferred task running (EINVAL)"}
	}
	switch errno {
	case 0:
	case unix.ENOSYS, unix.EPERM, unix.EACCES:
		return nil, fmt.Errorf("%w: io_uring_setup: %v", errUnavailable, errno)
	default:
		return nil, fmt.Errorf("io_uring_setup: %v", errno)
	}
	r.fd, r.enterFd = int(fd), fd
	if err := r.mapRings(&p); err != nil {
		r.close()
		return nil, err
	}
	r.cqeSkip = p.features&featCQESkip != 0
	r.registerFd()
	return r, nil
}

// mapRings maps the SQ and CQ rings and the SQE array.
func (r *ring) mapRings(p *params) error {
	sqSize := int(p.sqOff.array + p.sqEntries*4)
	cqSize := int(p.cqOff.cqes + p.cqEntries*uint32(unsafe.Sizeof(cqe{})))
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
	r.cqes = unsafe.Slice((*cqe)(unsafe.Pointer(&cq[p.cqOff.cqes])), p.cqEntries)
	return nil
}

func (r *ring) mmap(off int64, size int) ([]byte, error) {
	b, err := unix.Mmap(r.fd, off, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("mmap of the ring at %#x: %v", off, err)
	}
	r.maps = append(r.maps, b)
	return b, nil
}

// registerFd registers the ring's own fd, so that io_uring_enter skips
// looking it up; a kernel without IORING_REGISTER_RING_FDS keeps the fd.
func (r *ring) registerFd() {
	up := rsrcUpdate{offset: ^uint32(0), data: uint64(r.fd)} // offset -1: any free slot
	n, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), registerRingFDs,
		uintptr(unsafe.Pointer(&up)), 1, 0, 0)
	if errno != 0 || n != 1 {
		r.features = append(r.features, fmt.Sprintf("ring fd not registered (%v)", errno))
		return
	}
	r.enterFd, r.enterFlags = uintptr(up.offset), enterRegisteredRing
	r.features = append(r.features, "registered ring fd")
}

// get returns the next free SQE, zeroed, submitting what is queued first
// if the SQ is full.
func (r *ring) get() (*sqe, error) {
	if r.tail-atomic.LoadUint32(r.sqHead) > r.sqMask {
		if err := r.enter(0, 0); err != nil {
			return nil, err
		}
	}
	s := &r.sqes[r.tail&r.sqMask]
	*s = sqe{}
	r.tail++
	r.pending++
	return s, nil
}

// enter submits every queued SQE and, with enterGetEvents, waits for at
// least minComplete completions, in one io_uring_enter.
func (r *ring) enter(minComplete, flags uintptr) error {
	atomic.StoreUint32(r.sqTail, r.tail)
	n, _, errno := unix.Syscall6(unix.SYS_IO_URING_ENTER, r.enterFd, uintptr(r.pending), minComplete,
		flags|r.enterFlags, 0, 0)
	if errno != 0 && errno != unix.EINTR && errno != unix.EAGAIN && errno != unix.EBUSY {
		return fmt.Errorf("io_uring_enter: %v", errno)
	}
	if errno == 0 {
		r.pending -= min(uint32(n), r.pending)
	}
	return nil
}

// completions returns the CQ's head and tail: the entries from head to
// tail are ready; done(tail) hands them back.
func (r *ring) completions() (head, tail uint32) {
	return *r.cqHead, atomic.LoadUint32(r.cqTail)
}

func (r *ring) cqe(i uint32) *cqe { return &r.cqes[i&r.cqMask] }

func (r *ring) done(head uint32) { atomic.StoreUint32(r.cqHead, head) }

func (r *ring) close() {
	for _, b := range r.maps {
		unix.Munmap(b) //nolint:errcheck // the process ends soon
	}
	r.maps = nil
	unix.Close(r.fd)
}
