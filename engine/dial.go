package engine

import (
	"context"
	"crypto/tls"
	"net"
	"time"
)

// Dialer opens connections to the target, with TLS when the URL is https.
type Dialer struct {
	network, Address string
	dial             func(ctx context.Context, network, address string) (net.Conn, error)
	tls              *tls.Config // nil for plain http
	timeout          time.Duration
}

func newDialer(c *Config) *Dialer {
	address, _ := c.Address()
	d := &Dialer{network: "tcp", Address: address, dial: c.Dial, timeout: c.Timeout}
	if c.UnixSocket != "" {
		d.network, d.Address = "unix", c.UnixSocket
	}
	if d.dial == nil {
		// No TCP keep-alive probes: a load generator's connections are
		// busy, and the four setsockopt calls per dial that enable them
		// are a measurable share of opening 10,000 connections.
		d.dial = (&net.Dialer{KeepAlive: -1}).DialContext
	}
	if c.URL.Scheme == "https" {
		d.tls = &tls.Config{ServerName: c.URL.Hostname()}
		if c.TLS != nil {
			d.tls = c.TLS.Clone()
			if d.tls.ServerName == "" {
				d.tls.ServerName = c.URL.Hostname()
			}
		}
		if c.Protocol == HTTP2 {
			// http/1.1 too, as h2load offers it: a server without HTTP/2
			// then says so by choosing it, rather than with an alert.
			d.tls.NextProtos = []string{"h2", "http/1.1"}
		}
		if c.Protocol == HTTP3 {
			d.tls.NextProtos = []string{"h3"}
		}
	}
	return d
}

// TLS is the TLS configuration of an https target's connections; nil for
// plain http. It is shared: a caller that changes it clones it first.
func (d *Dialer) TLS() *tls.Config { return d.tls }

// Open dials one connection and, for https, completes the handshake
// before returning, so the handshake never counts as request latency.
func (d *Dialer) Open(ctx context.Context) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	nc, err := d.dial(ctx, d.network, d.Address)
	if err != nil || d.tls == nil {
		return nc, err
	}
	tc := tls.Client(nc, d.tls)
	if err := tc.HandshakeContext(ctx); err != nil {
		nc.Close()
		return nil, err
	}
	return tc, nil
}

// hostPort is the URL's host with the scheme's default port filled in.
func hostPort(c *Config) string {
	if port := c.URL.Port(); port != "" {
		return net.JoinHostPort(c.URL.Hostname(), port)
	}
	if c.URL.Scheme == "https" {
		return net.JoinHostPort(c.URL.Hostname(), "443")
	}
	return net.JoinHostPort(c.URL.Hostname(), "80")
}

// CloseNow closes nc at once. A TLS connection's own Close first sends a
// close_notify alert, and waits up to 5 s to write it to a server that may
// have stopped reading: a load generator owes it none, and its run must
// end on time.
func CloseNow(nc net.Conn) {
	if tc, ok := nc.(*tls.Conn); ok {
		tc.NetConn().Close()
		return
	}
	nc.Close()
}
