//go:build linux

package main

import (
	"runtime"
	"time"

	"github.com/pummel-dev/pummel/internal/uring"
	"golang.org/x/sys/unix"
)

// bufSize is the size of each provided buffer: nginx's empty response is
// about 150 bytes; a longer read takes more than one buffer.
const bufSize = 1024

// bufGroup is the buffer group id of the ring's one buffer ring.
const bufGroup = 0

// A completion's user data: the connection's index << 8 | the operation.
const (
	tagRecv = iota + 1
	tagSend
)

// uringClient is the io_uring client.
type uringClient struct {
	*closedLoop
	r    *uring.Ring
	bufs *uring.BufRing
	req  []byte
}

// pow2 is the least power of two ≥ n, within [lo, hi].
func pow2(n, lo, hi int) int {
	p := lo
	for p < n && p < hi {
		p <<= 1
	}
	return p
}

// runUring is the io_uring client, on internal/uring (the ring pummel's
// --engine uring uses): each connection's sends as IORING_OP_SEND, their
// completions skipped on success; its receives as one multishot
// IORING_OP_RECV into a provided buffer ring, re-armed when it ends; every
// wake-up's SQEs submitted with the same io_uring_enter that waits for the
// next completions, until the stop.
func runUring(cfg config, fds []int) (result, error) {
	runtime.LockOSThread() // the ring is single-issuer: this thread's
	defer runtime.UnlockOSThread()
	r, err := uring.New(uint32(pow2(2*len(fds)+2, 64, uring.MaxEntries)))
	if err != nil {
		return result{}, err
	}
	defer r.Close()
	bufs, err := uring.NewBufRing(r, pow2(len(fds), 64, uring.MaxEntries), bufSize, bufGroup)
	if err != nil {
		return result{}, err
	}
	defer bufs.Close()
	u := &uringClient{closedLoop: newClosedLoop(fds), r: r, bufs: bufs, req: cfg.req}
	start := time.Now()
	deadline, graceEnd := start.Add(cfg.dur), time.Time{}
	err = u.arm()
	for now := start; err == nil && !u.over(now, graceEnd); now = time.Now() {
		if !u.stopping && !now.Before(deadline) {
			u.stopping, graceEnd = true, now.Add(cfg.grace)
		}
		until := deadline
		if u.stopping {
			until = graceEnd
		}
		if err = r.Wait(max(until.Sub(now), time.Nanosecond)); err == nil {
			err = u.reap()
		}
	}
	runtime.KeepAlive(u.req)
	if err != nil {
		return result{}, err
	}
	return u.result("single issuer, deferred task running, multishot recv into a provided buffer ring, "+
		"one io_uring_enter per wake-up, send completions skipped on success", time.Since(start)), nil
}

// arm queues every connection's receive and first request.
func (u *uringClient) arm() error {
	for i := range u.conns {
		if err := u.recv(i); err != nil {
			return err
		}
		if err := u.send(i); err != nil {
			return err
		}
	}
	return nil
}

// reap handles the completions there are.
func (u *uringClient) reap() error {
	head, tail := u.r.Completions()
	for ; head != tail; head++ {
		e := u.r.CQE(head)
		i := int(e.UserData >> 8)
		var err error
		switch e.UserData & 0xff {
		case tagRecv:
			err = u.received(i, e)
		case tagSend: // only failures complete
			u.fail(i)
		}
		if err != nil {
			return err
		}
	}
	u.r.Done(head)
	u.bufs.Publish()
	return nil
}

// received handles a receive's completion on connection i.
func (u *uringClient) received(i int, e *uring.CQE) error {
	if bid, ok := e.Buffer(); ok && e.Res > 0 {
		next := u.got(i, u.bufs.Buf(bid, int(e.Res)))
		u.bufs.Give(bid)
		if next && !u.conns[i].dead {
			if err := u.send(i); err != nil {
				return err
			}
		}
	} else if e.Res != -int32(unix.ENOBUFS) {
		u.fail(i) // the server closed (0) or the receive failed
	}
	if !e.More() && !u.conns[i].dead {
		return u.recv(i) // the multishot receive ended: arm another
	}
	return nil
}

// recv queues connection i's multishot receive.
func (u *uringClient) recv(i int) error {
	return u.r.RecvMultishot(u.conns[i].fd, bufGroup, uint64(i)<<8|tagRecv)
}

// send queues connection i's next request.
func (u *uringClient) send(i int) error {
	if err := u.r.Send(u.conns[i].fd, u.req, unix.MSG_NOSIGNAL, uint64(i)<<8|tagSend, true); err != nil {
		return err
	}
	u.sending(i)
	return nil
}
