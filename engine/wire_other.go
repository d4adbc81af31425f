//go:build !linux

package engine

import "syscall"

// directIO tells whether wire may use direct system calls here: only on
// Linux, where they are raw system calls.
const directIO = false

func sysWrite(int, []byte) (int, syscall.Errno) { return 0, syscall.ENOTSUP }

func sysRead(int, []byte) (int, syscall.Errno) { return 0, syscall.ENOTSUP }

func sysPeek(int) (int, syscall.Errno) { return 0, syscall.ENOTSUP }
