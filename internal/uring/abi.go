//go:build linux

package uring

import "unsafe"

// The io_uring ABI, from the kernel's include/uapi/linux/io_uring.h
// (golang.org/x/sys/unix has only the system call numbers). The compiler
// checks the structures' sizes below: sqe 64 bytes, cqe 16, params 120.
const (
	setupSubmitAll    = 1 << 7  // IORING_SETUP_SUBMIT_ALL
	setupSingleIssuer = 1 << 12 // IORING_SETUP_SINGLE_ISSUER
	setupDeferTaskrun = 1 << 13 // IORING_SETUP_DEFER_TASKRUN

	featSingleMmap = 1 << 0 // IORING_FEAT_SINGLE_MMAP
	featNoDrop     = 1 << 1 // IORING_FEAT_NODROP
	featExtArg     = 1 << 8 // IORING_FEAT_EXT_ARG

	offSQRing = 0          // IORING_OFF_SQ_RING
	offCQRing = 0x8000000  // IORING_OFF_CQ_RING
	offSQEs   = 0x10000000 // IORING_OFF_SQES

	enterGetEvents      = 1 << 0 // IORING_ENTER_GETEVENTS
	enterExtArg         = 1 << 3 // IORING_ENTER_EXT_ARG
	enterRegisteredRing = 1 << 4 // IORING_ENTER_REGISTERED_RING

	registerRingFDs  = 20 // IORING_REGISTER_RING_FDS
	registerPbufRing = 22 // IORING_REGISTER_PBUF_RING

	opPollAdd     = 6  // IORING_OP_POLL_ADD
	opAsyncCancel = 14 // IORING_OP_ASYNC_CANCEL
	opSend        = 26 // IORING_OP_SEND
	opRecv        = 27 // IORING_OP_RECV

	sqeBufferSelect   = 1 << 5 // IOSQE_BUFFER_SELECT
	sqeCQESkipSuccess = 1 << 6 // IOSQE_CQE_SKIP_SUCCESS

	recvMultishot = 1 << 1 // IORING_RECV_MULTISHOT, in sqe.ioprio

	cancelAll = 1 << 0 // IORING_ASYNC_CANCEL_ALL

	cqeFBuffer     = 1 << 0 // IORING_CQE_F_BUFFER
	cqeFMore       = 1 << 1 // IORING_CQE_F_MORE
	cqeBufferShift = 16     // IORING_CQE_BUFFER_SHIFT

	// MaxEntries is IORING_MAX_ENTRIES (io_uring/io_uring.h): the most
	// SQEs a ring has.
	MaxEntries = 32768
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
	opFlags     uint32 // msg_flags, poll32_events, cancel_flags, …
	userData    uint64
	bufGroup    uint16
	personality uint16
	spliceFdIn  int32
	addr3       uint64
	_           uint64
}

// CQE is struct io_uring_cqe: a completion.
type CQE struct {
	UserData uint64
	Res      int32 // the result: a count, or a negated errno
	Flags    uint32
}

// More reports whether a multishot request goes on after this completion.
func (e *CQE) More() bool { return e.Flags&cqeFMore != 0 }

// Buffer returns the provided buffer this completion filled, if any.
func (e *CQE) Buffer() (bid uint16, ok bool) {
	return uint16(e.Flags >> cqeBufferShift), e.Flags&cqeFBuffer != 0
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

// geteventsArg is struct io_uring_getevents_arg, IORING_ENTER_EXT_ARG's.
type geteventsArg struct {
	sigmask     uint64
	sigmaskSize uint32
	minWaitUsec uint32
	ts          uint64
}

// The compiler checks the sizes the kernel expects.
var (
	_ [64]byte  = [unsafe.Sizeof(sqe{})]byte{}
	_ [16]byte  = [unsafe.Sizeof(CQE{})]byte{}
	_ [120]byte = [unsafe.Sizeof(params{})]byte{}
	_ [40]byte  = [unsafe.Sizeof(bufReg{})]byte{}
	_ [16]byte  = [unsafe.Sizeof(pbuf{})]byte{}
	_ [24]byte  = [unsafe.Sizeof(geteventsArg{})]byte{}
)
