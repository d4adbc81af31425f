//go:build linux

package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		in      []string // successive reads of one connection
		n, last int      // terminators in all, partial match after the last
	}{
		{[]string{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"}, 1, 0},
		{[]string{"a\r\n\r\nb\r\n\r\n"}, 2, 0},
		{[]string{"a\r\n", "\r\n"}, 1, 0},
		{[]string{"a\r", "\n\r", "\n"}, 1, 0},
		{[]string{"a\r\n\r", "\nb\r\n\r\n"}, 2, 0},
		{[]string{"a\r\n", "x\r\n"}, 0, 2},
		{[]string{"a\r\r\n\r\n"}, 1, 0},
		{[]string{"a\r\n", "\r\r\n\r\n"}, 1, 0},
		{[]string{"\r\n\n\r\n"}, 0, 2},
		{[]string{"a\r\n\r"}, 0, 3},
	} {
		n, m := 0, 0
		for _, in := range tc.in {
			k, next := count([]byte(in), m)
			n, m = n+k, next
		}
		if n != tc.n || m != tc.last {
			t.Errorf("count(%q) = %d, partial %d; want %d, %d", tc.in, n, m, tc.n, tc.last)
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-mode", "kqueue", "http://127.0.0.1:1/"},
		{"-c", "0", "http://127.0.0.1:1/"},
		{"-d", "0s", "http://127.0.0.1:1/"},
		{"http://localhost:1/"},
		{"https://127.0.0.1:1/"},
		{},
	} {
		var stderr bytes.Buffer
		if code := cli(args, io.Discard, &stderr); code != 2 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line", args, code, stderr.String())
		}
	}
}

// TestCountsMatchServer runs each transport for 300 ms against a loopback
// server that answers every request with an empty 200 and checks that the
// client counted every response the server sent: the grace period after
// the stop lets each connection's last response in.
func TestCountsMatchServer(t *testing.T) {
	for _, mode := range []string{"epoll", "uring"} {
		t.Run(mode, func(t *testing.T) {
			addr, served := emptyServer(t)
			cfg, err := parse([]string{"-mode", mode, "-c", "4", "-d", "300ms", "-grace", "5s", "http://" + addr + "/"})
			if err != nil {
				t.Fatal(err)
			}
			fds, err := dialAll(cfg)
			if err != nil {
				t.Fatal(err)
			}
			res, err := run(cfg, fds)
			if errors.Is(err, errUnavailable) {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := res.responses, served.Load(); got != want || got == 0 || res.sent != got || res.closed != 0 {
				t.Errorf("client counted %d responses of %d requests sent, closed %d; the server answered %d",
					got, res.sent, res.closed, want)
			}
		})
	}
}

// emptyServer serves "HTTP/1.1 200 OK" with no body per request on a
// loopback port until the test ends, counting the responses it sends.
func emptyServer(t *testing.T) (string, *atomic.Int64) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := new(atomic.Int64)
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { answer(c, served) })
		}
	})
	return ln.Addr().String(), served
}

func answer(c net.Conn, served *atomic.Int64) {
	defer c.Close()
	const resp = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
	buf := make([]byte, 4096)
	m := 0
	for {
		c.SetReadDeadline(time.Now().Add(10 * time.Second)) //nolint:errcheck // bounds a stuck test
		n, err := c.Read(buf)
		if err != nil {
			return
		}
		var k int
		k, m = count(buf[:n], m)
		served.Add(int64(k))
		if _, err := c.Write([]byte(strings.Repeat(resp, k))); err != nil {
			return
		}
	}
}
