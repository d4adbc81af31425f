package engine

import (
	"syscall"
	"unsafe"
)

// directIO tells whether wire may use direct system calls here.
const directIO = true

// sysWrite writes p to the non-blocking socket fd with one raw system call.
// Raw (without telling the scheduler) is right for a call that cannot
// block; it returns the bytes written and the error number, 0 if none.
func sysWrite(fd int, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	n, _, err := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if err != 0 {
		return 0, err
	}
	return int(n), 0
}

// sysRead reads into p from the non-blocking socket fd with one raw system
// call, as sysWrite writes.
func sysRead(fd int, p []byte) (int, syscall.Errno) {
	n, _, err := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if err != 0 {
		return 0, err
	}
	return int(n), 0
}

// sysPeek looks at the first byte waiting on fd without taking it or
// waiting: 0 bytes and no error is the peer's close.
func sysPeek(fd int) (int, syscall.Errno) {
	var b [1]byte
	n, _, err := syscall.RawSyscall6(syscall.SYS_RECVFROM, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), 1,
		syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	if err != 0 {
		return 0, err
	}
	return int(n), 0
}
