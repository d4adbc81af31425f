package engine

import (
	"testing"
	"time"
)

// Both ways the loop waits, epoll_pwait2 and the epoll_wait of kernels
// before 5.11, time out and are woken.
func TestLoopWaits(t *testing.T) {
	for _, old := range []bool{false, true} {
		l, err := newLoop(&load{cfg: &Config{}}, newWorker(2, false), 1)
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
