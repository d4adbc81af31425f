// Command eventlib is a minimal closed-loop HTTP/1.1 keep-alive load
// client built on an event-loop library, gnet v2 or nbio, so that
// scripts/bench-eventlib.sh can weigh each library against pummel's own
// event loop on the same work: one prebuilt GET per connection in flight,
// the response framed by Content-Length and skipped, one clock reading
// and a few counters per response.
//
//	eventlib -lib gnet|nbio [-c CONNS] [-t LOOPS] [-d SECONDS] http://HOST:PORT/PATH
//
// It opens every connection first, then runs for -d seconds and prints
// the number of responses on stdout (bytes, latency and unexpected closes
// on stderr).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config is one run's load.
type config struct {
	lib      string
	addr     string // host:port to dial
	request  []byte
	conns    int
	loops    int
	duration time.Duration
}

// clients maps -lib to its client: it opens cfg.conns connections, one
// session each, keeps them busy until hold returns, then stops.
var clients = map[string]func(cfg config, sessions []*session, hold func()) error{
	"gnet": runGnet,
	"nbio": runNbio,
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parse(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "eventlib:", err)
		}
		return 2
	}
	sessions := make([]*session, cfg.conns)
	for i := range sessions {
		sessions[i] = &session{}
	}
	hold := func() {
		select {
		case <-ctx.Done():
		case <-time.After(cfg.duration):
		}
	}
	if err := clients[cfg.lib](cfg, sessions, hold); err != nil {
		fmt.Fprintf(stderr, "eventlib: %s: %v\n", cfg.lib, err)
		return 1
	}
	report(sessions, stdout, stderr)
	return 0
}

// report prints the responses on stdout, the rest on stderr.
func report(sessions []*session, stdout, stderr io.Writer) {
	var total session
	for _, s := range sessions {
		total.responses += s.responses
		total.non2xx += s.non2xx
		total.bytes += s.bytes
		total.latency += s.latency
		total.slowest = max(total.slowest, s.slowest)
	}
	fmt.Fprintln(stdout, total.responses)
	mean := time.Duration(0)
	if total.responses > 0 {
		mean = total.latency / time.Duration(total.responses)
	}
	fmt.Fprintf(stderr, "%d responses (%d not 2xx), %d bytes read, latency mean %v, max %v\n",
		total.responses, total.non2xx, total.bytes, mean, total.slowest)
}

func parse(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var seconds float64
	fs := flag.NewFlagSet("eventlib", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.lib, "lib", "", "the event-loop library: gnet or nbio")
	fs.IntVar(&cfg.conns, "c", 64, "connections")
	fs.IntVar(&cfg.loops, "t", 1, "event loops (gnet: NumEventLoop, nbio: NPoller)")
	fs.Float64Var(&seconds, "d", 10, "seconds of load after every connection is open")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	switch {
	case clients[cfg.lib] == nil:
		return cfg, fmt.Errorf("-lib %q: want gnet or nbio", cfg.lib)
	case cfg.conns < 1:
		return cfg, fmt.Errorf("-c %d: want at least 1 connection", cfg.conns)
	case cfg.loops < 1:
		return cfg, fmt.Errorf("-t %d: want at least 1 event loop", cfg.loops)
	case seconds <= 0:
		return cfg, fmt.Errorf("-d %v: want a positive number of seconds", seconds)
	case fs.NArg() != 1:
		return cfg, errors.New("want one URL, http://HOST:PORT/PATH")
	}
	cfg.duration = time.Duration(seconds * float64(time.Second))
	var err error
	cfg.addr, cfg.request, err = target(fs.Arg(0))
	return cfg, err
}

// target turns the URL into the address to dial and the request to send.
func target(raw string) (addr string, request []byte, err error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return "", nil, fmt.Errorf("URL %q: want http://HOST:PORT/PATH", raw)
	}
	addr = u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	request = fmt.Appendf(nil, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", u.RequestURI(), u.Host)
	return addr, request, nil
}
