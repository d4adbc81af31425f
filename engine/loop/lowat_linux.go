package loop

import (
	"time"

	"golang.org/x/sys/unix"
)

// A pipelined batch is read once, when it has arrived: the connection's
// receive low-water mark (SO_RCVLOWAT) is set to the bytes the responses
// still due will take at least, the smallest response seen on it times
// their number, so the kernel wakes the loop once per batch rather than
// once per segment or response. A response smaller than any seen before
// would leave the batch below the mark and asleep: a grace timer, twice the
// time the loop's batches take (plus 1 ms), then reads what is there, and
// the connection, whose responses vary in size, goes without a mark from
// then on. A batch that is merely slow finds its grace doubled each time
// it passes, so it costs a few reads at most; the time of a batch that
// waited out a grace is not learnt. A deadline that passes reads what
// arrived under the mark before it counts timeouts. The latency of a
// pipelined response is taken when its batch is read (README).

// armLowWater sets the low-water mark for the responses in flight, with
// its grace timer; without pipelining, or before a response was seen, it
// leaves the mark at one byte. A Unix socket takes the mark but epoll
// ignores it (it reports 10 bytes readable under a mark of 100), so there
// it is never set: it would cost a system call and a timer per read.
func (c *loopConn) armLowWater() {
	need := 1
	if c.Requests > 1 && c.Smallest > 0 && !c.Shrank && c.l.transport.family != unix.AF_UNIX {
		// The response being read brings at least the rest of the
		// smallest, or once its header gave its length, exactly what
		// that leaves: a last response smaller than the estimate then
		// ends its batch when it ends. Each one behind it brings at
		// least the smallest.
		rest := int64(c.Smallest - c.Partial - len(c.carry))
		if left, ok := c.Parser.BodyLeft(); ok {
			rest = left
		}
		need = int(min(max(1, int64(c.Inflight-1)*int64(c.Smallest)+rest), maxLowWater))
	}
	c.setLowWater(need)
	if need > 1 {
		if c.grace == 0 {
			c.grace = 2*c.l.batchTime + time.Millisecond
		}
		c.l.wakes.set(&c.timed, time.Now().Add(c.grace))
	}
}

// maxLowWater bounds the mark, an int32 to the kernel (which bounds it
// further, to half the socket's receive buffer).
const maxLowWater = 1 << 30

// setLowWater sets SO_RCVLOWAT, when it changes.
func (c *loopConn) setLowWater(n int) {
	if n != c.lowWater && c.fd >= 0 {
		if unix.SetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_RCVLOWAT, n) == nil {
			c.lowWater = n
		}
	}
}

// lowWaterGrace reads a batch that stayed below its low-water mark for
// longer than its grace: what arrived is read, and the mark lowered to
// what is still due.
func (c *loopConn) lowWaterGrace() {
	c.grace *= 2
	c.graced = true
	c.setLowWater(1)
	c.read()
}

// batchTimed notes how long a pipelined batch took, for the loop's
// estimate of the next ones' (a moving average), and ends its grace. A
// batch that waited out a grace says how long the grace was, not how long
// the server took: counted, it would lengthen the next graces, and
// batches whose responses shrink would wait longer and longer (as long as
// the timeout, and past it).
func (c *loopConn) batchTimed(d time.Duration) {
	if c.Requests > 1 && !c.graced {
		c.l.batchTime += (d - c.l.batchTime) / 8
	}
	c.grace = 0
}
