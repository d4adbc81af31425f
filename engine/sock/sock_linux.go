// Package sock makes the raw system calls both transports use on a
// non-blocking socket: one write, one read or one peek, each a single
// system call that cannot block, made without telling the scheduler.
package sock

import (
	"syscall"
	"unsafe"
)

// Direct tells whether the calls below work here: on Linux, where they
// are raw system calls.
const Direct = true

// Write writes p to the non-blocking socket fd with one raw system call.
// Raw (without telling the scheduler) is right for a call that cannot
// block; it returns the bytes written and the error number, 0 if none.
func Write(fd int, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	n, _, err := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if err != 0 {
		return 0, err
	}
	return int(n), 0
}

// Read reads into p from the non-blocking socket fd with one raw system
// call, as Write writes.
func Read(fd int, p []byte) (int, syscall.Errno) {
	n, _, err := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if err != 0 {
		return 0, err
	}
	return int(n), 0
}

// Peek looks at the first byte waiting on fd without taking it or
// waiting: 0 bytes and no error is the peer's close.
func Peek(fd int) (int, syscall.Errno) {
	var b [1]byte
	n, _, err := syscall.RawSyscall6(syscall.SYS_RECVFROM, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), 1,
		syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	if err != 0 {
		return 0, err
	}
	return int(n), 0
}
