//go:build linux

package main

import (
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// maxEvents bounds the events of one epoll_wait, as in pummel's loop.
const maxEvents = 512

// readBuffer is the size of the one buffer every connection reads into.
const readBuffer = 64 << 10

// runEpoll is the epoll client.
func runEpoll(cfg config, fds []int) (result, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return result{}, err
	}
	defer unix.Close(epfd)
	for i, fd := range fds {
		if err := unix.SetNonblock(fd, true); err != nil {
			return result{}, err
		}
		ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP | unix.EPOLLET, Fd: int32(i)}
		if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
			return result{}, err
		}
	}
	cl := newClosedLoop(fds)
	events := make([]unix.EpollEvent, min(maxEvents, len(fds)))
	buf := make([]byte, readBuffer)
	start := time.Now()
	deadline, graceEnd := start.Add(cfg.dur), time.Time{}
	for i := range cl.conns {
		send(cl, i, cfg.req)
	}
	for now := start; !cl.over(now, graceEnd); now = time.Now() {
		if !cl.stopping && !now.Before(deadline) {
			cl.stopping, graceEnd = true, now.Add(cfg.grace)
		}
		until := deadline
		if cl.stopping {
			until = graceEnd
		}
		ms := int((until.Sub(now) + time.Millisecond - 1) / time.Millisecond)
		n, err := unix.EpollWait(epfd, events, max(ms, 0))
		if err != nil && err != unix.EINTR {
			return result{}, err
		}
		for _, ev := range events[:max(n, 0)] {
			if readReady(cl, int(ev.Fd), buf) {
				send(cl, int(ev.Fd), cfg.req)
			}
		}
	}
	return cl.result("edge-triggered epoll_wait, read(2) into one shared buffer, write(2)", time.Since(start)), nil
}

// readReady reads what connection i has, once unless the read fills the
// buffer, and tells whether it should send its next request.
func readReady(cl *closedLoop, i int, buf []byte) bool {
	c := &cl.conns[i]
	next := false
	for !c.dead {
		n, err := rawIO(unix.SYS_READ, c.fd, buf)
		if err == unix.EAGAIN {
			break
		}
		if err != 0 || n == 0 {
			cl.fail(i)
			return false
		}
		next = cl.got(i, buf[:n]) || next
		if n < len(buf) {
			break
		}
	}
	return next && !c.dead
}

// send writes connection i's next request.
func send(cl *closedLoop, i int, req []byte) {
	if n, err := rawIO(unix.SYS_WRITE, cl.conns[i].fd, req); err != 0 || n != len(req) {
		cl.fail(i)
		return
	}
	cl.sending(i)
}

// rawIO reads or writes (trap SYS_READ or SYS_WRITE) a non-blocking
// socket with one raw system call, without telling the scheduler, as
// pummel's own loop does (engine/wire_linux.go): a call that cannot block
// needs no handoff, and the baseline must not pay for one pummel skips.
func rawIO(trap uintptr, fd int, p []byte) (int, unix.Errno) {
	n, _, err := unix.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	return int(n), err
}
