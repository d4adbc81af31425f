package goroutine

import (
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/engine/sock"
)

// tcpPair returns the two ends of a loopback TCP connection.
func tcpPair(t *testing.T) (client, server *net.TCPConn) {
	t.Helper()
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan *net.TCPConn, 1)
	go func() {
		c, _ := ln.AcceptTCP()
		accepted <- c
	}()
	client, err = net.DialTCP("tcp", nil, ln.Addr().(*net.TCPAddr))
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

func TestWireRawIO(t *testing.T) {
	tests := []struct {
		name string
		// peer acts on the server's end once the request has arrived.
		peer    func(*net.TCPConn)
		wantN   int
		wantErr func(error) bool
		// wait is the read's deadline: long where the peer's bytes, FIN
		// or RST end the read, however late a busy machine delivers them.
		wait time.Duration
	}{
		{"response there", func(s *net.TCPConn) { s.Write([]byte("hello")) }, 5, nil, 5 * time.Second},
		{"closed", func(s *net.TCPConn) { s.Close() }, 0, func(err error) bool { return errors.Is(err, io.EOF) }, 5 * time.Second},
		{"reset", func(s *net.TCPConn) { s.SetLinger(0); s.Close() }, 0, func(err error) bool { return errors.Is(err, syscall.ECONNRESET) }, 5 * time.Second},
		{"nothing: waits until the deadline", func(*net.TCPConn) {}, 0, engine.IsTimeout, 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !sock.Direct {
				t.Skip("no raw system calls on this platform")
			}
			client, server := tcpPair(t)
			w := newWire()
			w.attach(client)
			if w.fd < 0 || w.raw == nil {
				t.Fatal("a TCP connection got no socket for raw calls")
			}
			w.conn = netConnUnused{client} // proves that the raw path carries the bytes
			if err := w.send([]byte("ping")); err != nil || w.written != 4 {
				t.Fatalf("send: %v, %d bytes counted", err, w.written)
			}
			got := make([]byte, 4)
			if _, err := io.ReadFull(server, got); err != nil || string(got) != "ping" {
				t.Fatalf("server read %q, %v", got, err)
			}
			tt.peer(server)
			time.Sleep(20 * time.Millisecond) // let the peer's bytes or FIN or RST land
			client.SetReadDeadline(time.Now().Add(tt.wait))
			n, err := w.Read(make([]byte, 16))
			if n != tt.wantN || int64(n) != w.read {
				t.Errorf("read %d bytes (%d counted), want %d", n, w.read, tt.wantN)
			}
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !tt.wantErr(err) {
				t.Errorf("read error %v", err)
			}
		})
	}
}

// netConnUnused fails every read and write made through net.Conn.
type netConnUnused struct{ net.Conn }

func (netConnUnused) Read([]byte) (int, error)  { return 0, errors.New("read through net.Conn") }
func (netConnUnused) Write([]byte) (int, error) { return 0, errors.New("write through net.Conn") }

func TestWireWithoutADescriptorUsesTheConn(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	w := newWire()
	w.attach(a)
	if w.fd != -1 || w.raw != nil {
		t.Fatalf("a pipe got descriptor %d", w.fd)
	}
	go func() {
		buf := make([]byte, 4)
		io.ReadFull(b, buf)
		b.Write([]byte("pong"))
	}()
	if err := w.send([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	if n, err := io.ReadFull(w, make([]byte, 4)); n != 4 || err != nil || w.read != 4 || w.written != 4 {
		t.Errorf("read %d, %v; counted %d read, %d written", n, err, w.read, w.written)
	}
}

func TestWireDeadlineHoldsForEveryReadButAResponsesFirst(t *testing.T) {
	if !sock.Direct {
		t.Skip("no raw system calls on this platform")
	}
	client, server := tcpPair(t)
	w := newWire()
	w.attach(client)
	w.conn = netConnUnused{client}
	server.Write([]byte("first part, second part"))
	client.SetReadDeadline(time.Unix(1, 0))
	// Until the bytes land (at once on loopback, unless the machine is
	// busy) the read finds nothing and meets the deadline; once they are
	// there it must take them despite it.
	var n int
	var err error
	for end := time.Now().Add(5 * time.Second); n == 0 && time.Now().Before(end); time.Sleep(time.Millisecond) {
		w.direct = true // the start of a response
		n, err = w.Read(make([]byte, 11))
	}
	if n != 11 || err != nil {
		t.Fatalf("first read of a response: %d, %v; want 11 bytes despite the past deadline", n, err)
	}
	if n, err := w.Read(make([]byte, 16)); n != 0 || !engine.IsTimeout(err) {
		t.Errorf("later read: %d, %v; want the deadline's timeout", n, err)
	}
}
