//go:build !linux

package sock

import "syscall"

// Direct tells whether the calls below work here: only on Linux, where
// they are raw system calls.
const Direct = false

// Write is not made here: see Direct.
func Write(int, []byte) (int, syscall.Errno) { return 0, syscall.ENOTSUP }

// Read is not made here: see Direct.
func Read(int, []byte) (int, syscall.Errno) { return 0, syscall.ENOTSUP }

// Peek is not made here: see Direct.
func Peek(int) (int, syscall.Errno) { return 0, syscall.ENOTSUP }
