//go:build linux

// Command uringtrial is the io_uring trial of issue 25: two bare
// closed-loop HTTP/1.1 clients in one program, the same in all but their
// transport, so that paired runs (scripts/bench-uring.sh) tell whether an
// io_uring transport would cost pummel less client CPU per request than
// its epoll loop.
//
//	uringtrial -mode epoll|uring -c 64 -d 8s http://127.0.0.1:18089/
//
// Both run on one locked OS thread, open their connections before the
// clock starts (blocking connects), send "GET / HTTP/1.1" with a Host
// header and keep one request in flight per connection. They parse
// nothing: a response is counted at each "\r\n\r\n", which is exact for a
// server that answers with no body (nginx's `return 200;`). At -d they stop
// sending, wait up to -grace for the responses in flight, and print the
// responses counted, the wall time and the process's user+system CPU.
//
// -mode epoll is pummel's event loop stripped bare: non-blocking sockets
// registered once, edge-triggered, in one epoll instance; per ready socket
// one read into a shared buffer and, per response, one write(2).
//
// -mode uring is one io_uring (see ring.go and uring.go).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// config is one run's settings.
type config struct {
	mode  string
	addr  unix.SockaddrInet4
	req   []byte // the request every connection sends, again and again
	conns int
	dur   time.Duration
	grace time.Duration // how long to wait for the responses in flight at -d
}

// result is what a run counted.
type result struct {
	responses int64 // complete responses read
	sent      int64 // requests written
	closed    int   // connections the server closed or that failed
	wall      time.Duration
	transport string // what the transport used, in words
}

// cli runs the program with args and returns its exit code.
func cli(args []string, stdout, stderr io.Writer) int {
	cfg, err := parse(args)
	if err != nil {
		fmt.Fprintln(stderr, "uringtrial:", err)
		return 2
	}
	fds, err := dialAll(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "uringtrial: connecting:", err)
		return 1
	}
	res, err := run(cfg, fds)
	if err != nil {
		fmt.Fprintln(stderr, "uringtrial:", err)
		return 1
	}
	report(stdout, cfg, res)
	return 0
}

func parse(args []string) (config, error) {
	fs := flag.NewFlagSet("uringtrial", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := config{}
	fs.StringVar(&cfg.mode, "mode", "epoll", "the transport: epoll or uring")
	fs.IntVar(&cfg.conns, "c", 64, "connections")
	fs.DurationVar(&cfg.dur, "d", 5*time.Second, "duration")
	fs.DurationVar(&cfg.grace, "grace", time.Second, "how long to wait for the responses in flight at -d")
	target := fs.String("url", "", "the target, http://IPv4:PORT/PATH (or the one argument)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if *target == "" && fs.NArg() == 1 {
		*target = fs.Arg(0)
	}
	switch {
	case cfg.mode != "epoll" && cfg.mode != "uring":
		return cfg, fmt.Errorf("-mode %q: want epoll or uring", cfg.mode)
	case cfg.conns < 1 || cfg.conns > 1<<16:
		return cfg, fmt.Errorf("-c %d: want 1 to 65536 connections", cfg.conns)
	case cfg.dur <= 0 || cfg.grace < 0:
		return cfg, errors.New("-d must be positive and -grace not negative")
	}
	addr, req, err := target2request(*target)
	if err != nil {
		return cfg, fmt.Errorf("-url %q: %v", *target, err)
	}
	cfg.addr, cfg.req = addr, req
	return cfg, nil
}

// target2request reads http://IPv4:PORT/PATH into an address and the
// request to send there.
func target2request(target string) (unix.SockaddrInet4, []byte, error) {
	var addr unix.SockaddrInet4
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "http" {
		return addr, nil, errors.New("want http://IPv4:PORT/PATH")
	}
	ip := net.ParseIP(u.Hostname()).To4()
	port, perr := strconv.Atoi(u.Port())
	if ip == nil || perr != nil || port < 1 || port > 65535 {
		return addr, nil, errors.New("want an IPv4 address and a port")
	}
	copy(addr.Addr[:], ip)
	addr.Port = port
	path := u.RequestURI()
	return addr, []byte("GET " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\n\r\n"), nil
}

// dialAll opens the run's connections, blocking, with TCP_NODELAY.
func dialAll(cfg config) ([]int, error) {
	fds := make([]int, 0, cfg.conns)
	for range cfg.conns {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err == nil {
			fds = append(fds, fd)
			err = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
		}
		if err == nil {
			err = unix.Connect(fd, &cfg.addr)
		}
		if err != nil {
			closeAll(fds)
			return nil, err
		}
	}
	return fds, nil
}

// closeAll shuts the connections down and closes them. Closing alone
// would leave a socket open while a ring's receive still holds it, until
// the ring's teardown gets to it.
func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Shutdown(fd, unix.SHUT_RDWR) //nolint:errcheck // a socket the server closed is closing anyway
		unix.Close(fd)
	}
}

// run carries out the load on fds with the chosen transport; it closes fds.
func run(cfg config, fds []int) (result, error) {
	defer closeAll(fds)
	if cfg.mode == "uring" {
		return runUring(cfg, fds)
	}
	return runEpoll(cfg, fds)
}

// terminator ends every response header; with no body, every response.
const terminator = "\r\n\r\n"

var term = []byte(terminator)

// count returns how many terminators end in b, continuing the partial
// match m (0–3 bytes of a terminator) left by the connection's previous
// read, and the partial match b leaves for the next.
func count(b []byte, m int) (int, int) {
	n := 0
	for m > 0 && len(b) > 0 { // finish a terminator split between reads
		if b[0] != terminator[m] {
			m = 0
			break
		}
		b, m = b[1:], m+1
		if m == len(terminator) {
			n, m = n+1, 0
		}
	}
	for {
		i := bytes.Index(b, term)
		if i < 0 {
			break
		}
		n, b = n+1, b[i+len(terminator):]
	}
	for k := len(terminator) - 1; k > 0 && m == 0; k-- {
		if len(b) >= k && string(b[len(b)-k:]) == terminator[:k] {
			m = k
		}
	}
	return n, m
}

// report prints a run's figures, with the process's CPU from getrusage.
func report(w io.Writer, cfg config, res result) {
	var ru unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &ru) //nolint:errcheck // cannot fail for RUSAGE_SELF
	user := time.Duration(ru.Utime.Nano())
	sys := time.Duration(ru.Stime.Nano())
	cpu := (user + sys).Seconds()
	fmt.Fprintf(w, "mode %s: %s\n", cfg.mode, res.transport)
	fmt.Fprintf(w, "connections %d, duration %s, closed or failed %d\n", cfg.conns, cfg.dur, res.closed)
	fmt.Fprintf(w, "requests %d sent, %d responses counted\n", res.sent, res.responses)
	fmt.Fprintf(w, "wall %.3f s, cpu %.3f s (user %.3f + sys %.3f, connecting included)\n",
		res.wall.Seconds(), cpu, user.Seconds(), sys.Seconds())
	if cpu > 0 {
		fmt.Fprintf(w, "responses per CPU-second %.0f, per wall second %.0f\n",
			float64(res.responses)/cpu, float64(res.responses)/res.wall.Seconds())
	}
}
