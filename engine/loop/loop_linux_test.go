package loop

import (
	"net"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"golang.org/x/sys/unix"
)

// Both ways the loop waits, epoll_pwait2 and the epoll_wait of kernels
// before 5.11, time out and are woken.
func TestLoopWaits(t *testing.T) {
	for _, old := range []bool{false, true} {
		l, err := newLoop(&engine.Load{Config: &engine.Config{}}, engine.NewWorker(2, false), 1)
		if err != nil {
			t.Fatal(err)
		}
		l.noPwait2 = old
		if n, err := l.epollWait(time.Millisecond); n != 0 || err != nil {
			t.Errorf("epoll_wait (old kernel %v) timing out: %d events, %v", old, n, err)
		}
		l.wake()
		if n, err := l.epollWait(-1); n != 1 || err != nil {
			t.Errorf("epoll_wait (old kernel %v) woken: %d events, %v", old, n, err)
		}
		l.close()
		l.wake() // after close: does nothing
	}
}

// A batch that waited out its low-water grace took as long as the grace,
// which was twice the loop's batch time: learnt, it would double the next
// graces, and connections whose responses shrink would each wait longer
// than the last, up to the timeout. Only batches that waited no grace
// teach the loop how long batches take.
func TestGracedBatchesTeachNothing(t *testing.T) {
	const batch = 200 * time.Microsecond
	l := &loop{batchTime: batch}
	for i := range 64 { // each connection's first batch of smaller responses
		c := &loopConn{l: l}
		c.id, c.Requests = i, 8
		c.grace = 2*l.batchTime + time.Millisecond // as armLowWater sets it
		c.graced = true                            // as lowWaterGrace notes it
		c.batchTimed(c.grace)
	}
	if l.batchTime != batch {
		t.Errorf("batch time %v after graced batches, want %v", l.batchTime, batch)
	}
	c := &loopConn{l: l}
	c.Requests = 8
	c.batchTimed(2 * batch)
	if l.batchTime <= batch {
		t.Errorf("batch time %v after a batch of %v, want it learnt", l.batchTime, 2*batch)
	}
}

// loopConnTo returns the one connection of a new event loop, connected
// over loopback to a server whose end of it comes second.
func loopConnTo(t *testing.T) (*loopConn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	l, err := newLoop(&engine.Load{Config: &engine.Config{Timeout: time.Second}}, engine.NewWorker(2, false), 1)
	if err != nil {
		t.Fatal(err)
	}
	l.transport = &loops{family: unix.AF_INET}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := unix.Connect(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	srv, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	unix.SetNonblock(fd, true) //nolint:errcheck // a blocking read would hang the test, not pass it
	c := l.conns[0]
	c.fd, c.state, c.lowWater = fd, awaiting, 1
	t.Cleanup(func() { c.shut(); l.close(); srv.Close() })
	return c, srv
}

// A deadline that passes while a pipelined batch sits in the socket under
// its low-water mark (a grace that would come later still) reads the
// batch: responses that all arrived are answered, not timed out.
func TestDeadlineReadsWhatArrivedUnderTheMark(t *testing.T) {
	c, srv := loopConnTo(t)
	c.Requests, c.Inflight, c.Sent = 2, 2, time.Now()
	c.setLowWater(1 << 14) // a guess above what comes: 2 responses of 38 bytes
	c.l.wakes.set(&c.timed, time.Now().Add(time.Hour))
	const response = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
	if _, err := srv.Write([]byte(response + response)); err != nil {
		t.Fatal(err)
	}
	awaitBytes(t, c.fd, 2*len(response))
	c.expired()
	if c.state != idle || c.Inflight != 0 || c.Served != 2 {
		t.Errorf("after the deadline: state %d, in flight %d, answered %d; want idle, 0, 2", c.state, c.Inflight, c.Served)
	}
}

// awaitBytes waits until n bytes wait in the socket fd: at once on
// loopback, unless a busy machine delays them (a fixed 50 ms sleep
// once stood in for this).
func awaitBytes(t *testing.T, fd, n int) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if k, err := unix.IoctlGetInt(fd, unix.SIOCINQ); err == nil && k >= n {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%d bytes never reached the socket", n)
		}
	}
}

// The last response of a batch, once its header is read, is waited for by
// its own length, not by the smallest response seen before: smaller, it
// still ends its batch when it ends.
func TestLowWaterWaitsForTheLastResponseByItsLength(t *testing.T) {
	c, _ := loopConnTo(t)
	head := []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
	c.Requests, c.Inflight, c.Smallest = 8, 1, 4000 // seven answered; the estimate: 4,000 bytes each
	n, nx := c.Received(head, time.Now(), &c.l.hp)
	if n != len(head) || nx != engine.AwaitMore {
		t.Fatalf("received %d of the header, next %d", n, nx)
	}
	c.armLowWater()
	if c.lowWater != 10 {
		t.Errorf("low-water mark %d, want the body's 10 bytes", c.lowWater)
	}
}
