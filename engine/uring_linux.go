package engine

import (
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/pummel-dev/pummel/internal/uring"
	"golang.org/x/sys/unix"
)

// The io_uring loop (--engine uring) is the event loop with io_uring in
// the place of epoll and of the sockets' reads and writes; everything else,
// the connections' states, deadlines, tickets and the counting, is the
// loop's. A request is a send queued on the ring, and its responses come
// from one multishot receive per socket into a ring of provided buffers:
// every send a wake-up queues, and the wait for the next completions, are
// one io_uring_enter, where epoll costs a write and a read per request and
// an epoll_wait per wake-up.
//
// A send queued is the batch being written (state writing) until its
// completion says how much went: a send waits for room in the socket
// (MSG_WAITALL) as epoll waits for an output event, so a deadline that
// passes before it completes is a write error in both. Bytes or a close
// received while a send is out are kept until it completes. A socket
// is closed only after its receive, send or poll is cancelled and the
// cancel submitted: a request left in the ring would otherwise act on the
// next socket given the same number.
//
// Pipelined batches are read as they come: a multishot receive has no use
// for the low-water mark the epoll loop sets.

// ringIO is a loop's ring and its receive buffers.
type ringIO struct {
	r    *uring.Ring
	bufs *uring.BufRing
}

// The operation in a request's user data, below the connection's index
// and above its socket's generation: gen<<32 | index<<8 | op.
const (
	ringRecv uint64 = 1 << iota
	ringSend
	ringConnect
	ringWake
	ringCancel
)

// ringBufSize is the size of each receive buffer: a small response takes
// one; a large body takes one per ringBufSize bytes, each a completion.
const ringBufSize = 4 << 10

// ringBufs is how many receive buffers a loop of conns connections has: one
// each up to 4096; a wake-up whose responses need more leaves the rest to
// the next one (the receives that found none are re-armed).
func ringBufs(conns int) int { return pow2(conns, 64, 4096) }

// pow2 is the least power of two ≥ n, within [lo, hi].
func pow2(n, lo, hi int) int {
	p := lo
	for p < n && p < hi {
		p <<= 1
	}
	return p
}

// uringAvailable reports why io_uring cannot serve here, or nil: it makes
// a ring, with a buffer ring, once per process.
var uringAvailable = sync.OnceValue(func() error {
	errc := make(chan error, 1)
	go func() { // a locked thread, as a loop's: the ring is single-issuer
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		r, err := uring.New(8)
		if err == nil {
			var b *uring.BufRing
			if b, err = uring.NewBufRing(r, 8, 64, 0); err == nil {
				r.Close()
				b.Close()
			} else {
				r.Close()
			}
		}
		errc <- err
	}()
	return <-errc
})

// ringUp makes the loop's ring if it runs over io_uring, on the loop's
// thread; it watches the wake-up eventfd.
func (l *loop) ringUp() error {
	if !l.wantRing {
		return nil
	}
	n := len(l.conns)
	r, err := uring.New(uint32(pow2(2*n+2, 64, uring.MaxEntries)))
	if err != nil {
		return err
	}
	bufs, err := uring.NewBufRing(r, ringBufs(n), ringBufSize, 0)
	if err != nil {
		r.Close()
		return err
	}
	l.ring = &ringIO{r: r, bufs: bufs}
	return r.PollAdd(l.wakefd, unix.POLLIN, ringWake)
}

// ringDown closes the ring, which cancels what it had under way, and then
// unmaps the buffers it received into.
func (l *loop) ringDown() {
	if l.ring != nil {
		l.ring.r.Close()
		l.ring.bufs.Close()
		l.ring = nil
	}
}

// ringWait submits what the loop queued, waits at most d (-1: for ever)
// for completions and hands them to their connections.
func (l *loop) ringWait(d time.Duration) {
	if err := l.ring.r.Wait(d); err != nil {
		l.done = true
		return
	}
	l.reap()
	l.sendReady()
}

// reap handles every completion there is, including those that the
// handling itself brings (a cancel is submitted at once).
func (l *loop) reap() {
	r := l.ring.r
	for {
		head, tail := r.Completions()
		if head == tail {
			break
		}
		for ; head != tail; head++ {
			e := *r.CQE(head)
			l.completed(&e)
		}
		r.Done(head)
	}
	l.ring.bufs.Publish()
}

// completed hands one completion to its connection; one for a socket
// closed since (another generation) only gives its buffer back.
func (l *loop) completed(e *uring.CQE) {
	op := e.UserData & 0xff
	bid, filled := e.Buffer()
	if filled {
		defer l.ring.bufs.Give(bid)
	}
	if op == ringWake {
		l.done = true
		return
	}
	c := l.conns[e.UserData>>8&0xffffff]
	if c.gen != int32(e.UserData>>32) || c.fd < 0 {
		return
	}
	switch op {
	case ringConnect:
		c.ringOps &^= ringConnect
		if c.state == connecting {
			c.connectDone()
		}
	case ringSend:
		c.ringOps &^= ringSend
		c.ringSent(e.Res)
	case ringRecv:
		if !e.More() {
			c.ringOps &^= ringRecv
		}
		var data []byte
		if filled {
			data = l.ring.bufs.Buf(bid, int(max(e.Res, 0)))
		}
		c.ringReceived(e.Res, data)
		if c.fd >= 0 && c.ringOps&ringRecv == 0 {
			c.ringRecv() // the multishot receive ended (out of buffers): another
		}
	}
}

// ringData is the user data of the connection's op on its socket.
func (c *loopConn) ringData(op uint64) uint64 {
	return uint64(uint32(c.gen))<<32 | uint64(c.id)<<8 | op
}

// ringPoll queues the wait for a non-blocking connect to finish.
func (c *loopConn) ringPoll() error {
	c.ringOps |= ringConnect
	return c.l.ring.r.PollAdd(c.fd, unix.POLLOUT, c.ringData(ringConnect))
}

// ringRecv queues the socket's multishot receive.
func (c *loopConn) ringRecv() {
	if err := c.l.ring.r.RecvMultishot(c.fd, 0, c.ringData(ringRecv)); err == nil {
		c.ringOps |= ringRecv
	}
}

// ringWrite queues a send of p, the rest of the batch or of one copy of
// its request.
func (c *loopConn) ringWrite(p []byte) {
	if c.ringOps&ringSend != 0 {
		return // the send out says how far it got first
	}
	if err := c.l.ring.r.Send(c.fd, p, unix.MSG_NOSIGNAL|unix.MSG_WAITALL, c.ringData(ringSend), false); err != nil {
		c.writeFailed(unix.EIO)
		return
	}
	c.ringOps |= ringSend
}

// ringSent handles a send's completion: res bytes went, or it failed.
func (c *loopConn) ringSent(res int32) {
	switch {
	case res > 0:
		c.off += int(res)
		c.bytesOut += int64(res)
		c.write() // the rest, or the batch is written
	case res == 0:
		c.writeFailed(unix.EPIPE)
	default:
		c.writeFailed(syscall.Errno(-res))
	}
}

// ringReceived handles a receive's completion: data (res bytes), the
// peer's close (0) or an error.
func (c *loopConn) ringReceived(res int32, data []byte) {
	switch {
	case res > 0:
		c.bytesIn += int64(res)
		c.arrived(data)
	case res == -int32(unix.ENOBUFS): // the bytes wait in the socket for the next receive
	default:
		c.ended(syscall.Errno(-res)) // 0 for the peer's close
	}
}

// arrived takes bytes received: a response, or bytes nothing asked for.
func (c *loopConn) arrived(data []byte) {
	switch c.state {
	case awaiting:
		c.consume(data, time.Now())
	case writing: // read once the batch is written
		c.carry = append(c.carry, data...)
		c.readable = true
	case idle:
		if c.l.opening != nil {
			c.readable = true // looked at when the clock starts
			return
		}
		c.unsolicited()
		c.shut()
	}
}

// ended takes the peer's close (errno 0) or a receive's failure.
func (c *loopConn) ended(errno syscall.Errno) {
	switch c.state {
	case awaiting:
		if errno == 0 {
			c.peerClosed(false)
		} else {
			c.readFailed(errno)
		}
	case writing: // seen once the batch is written
		c.hangup, c.recvErr = true, errno
	case idle:
		if c.l.opening != nil {
			c.hangup, c.recvErr = true, errno // seen when the clock starts
			return
		}
		c.worker.addReconnect(c.t.phase)
		c.shut()
	}
}

// consume parses data after the bytes kept from before, and goes on as
// the responses in them say.
func (c *loopConn) consume(data []byte, now time.Time) {
	p := data
	if len(c.carry) > 0 {
		c.carry = append(c.carry, data...)
		p = c.carry
	}
	used, nx := c.received(p, now, &c.l.hp)
	if len(c.carry) > 0 {
		c.carry = c.carry[:copy(c.carry, p[used:])]
	} else {
		c.carry = append(c.carry, p[used:]...)
	}
	switch nx {
	case ready:
		c.batchDone(now)
	case reopen:
		c.reopen()
	}
}

// ringRead reads what was kept while the batch was written, then the
// close or failure seen then.
func (c *loopConn) ringRead() {
	if c.readable {
		c.readable = false
		if c.consume(nil, time.Now()); c.state != awaiting {
			return
		}
	}
	if c.hangup {
		c.ended(c.recvErr)
	}
}

// ringReadIdle takes what came while the connection sat idle before the
// clock: bytes nothing asked for, or the server's close.
func (c *loopConn) ringReadIdle() {
	if c.readable {
		c.unsolicited()
	} else {
		c.worker.addReconnect(c.t.phase)
	}
	c.shut()
}

// ringCancel cancels what the socket has under way and submits the
// cancels, before the socket is closed.
func (c *loopConn) ringCancel() {
	r := c.l.ring.r
	for op := ringRecv; op <= ringConnect; op <<= 1 {
		if c.ringOps&op != 0 {
			r.Cancel(c.ringData(op), c.ringData(ringCancel)) //nolint:errcheck // a full ring is submitted below
		}
	}
	if c.ringOps != 0 {
		r.Wait(0) //nolint:errcheck // a failed submission leaves them to the ring's close
	}
	c.ringOps, c.recvErr = 0, 0
}
