package proc

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// probeTimeout bounds one readiness probe, so a server that accepts
// connections but stalls is probed again rather than waited on.
const probeTimeout = time.Second

// awaitReady waits for the first good readiness response, then for the
// settle time; it sets p.startup.
func (p *Process) awaitReady(ctx context.Context, s Spec, spawned time.Time) error {
	client := readyClient(s)
	defer closeClient(client)
	deadline := spawned.Add(s.ReadyTimeout)
	expired := time.NewTimer(time.Until(deadline))
	defer expired.Stop()
	poll := time.NewTimer(0)
	defer poll.Stop()
	var last string // what the latest probe got
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the server to be ready: %w", ctx.Err())
		case <-p.done:
			return p.exitedError("before it was ready", spawned)
		case <-expired.C:
			return fmt.Errorf("%w within %s: GET %s over %s: last answer: %s", ErrNotReady, s.ReadyTimeout, s.ReadyURL,
				probeProtocol(s), cmp.Or(last, "none"))
		case <-poll.C:
		}
		status, at, err := probe(ctx, client, s.ReadyURL, deadline)
		client.CloseIdleConnections() // a fresh connection per probe, over QUIC too
		if err == nil && s.ReadyStatus(status) {
			p.startup = at.Sub(spawned)
			return p.settle(ctx, *s.Settle, spawned)
		}
		if last == "" || time.Now().Before(deadline) {
			// A probe cut short by the deadline says nothing new.
			last = describeProbe(status, err)
		}
		poll.Reset(ReadyPollInterval)
	}
}

// readyClient returns an HTTP client for s's readiness probes: a fresh
// connection per probe, to s.ReadyAddress unless it is "", no proxy,
// redirects returned rather than followed; in the protocol
// probeProtocol names, as a server that speaks nothing else needs; over
// TLS with s.ReadyTLS, unless nil.
func readyClient(s Spec) *http.Client {
	client := &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	if probeProtocol(s) == ReadyHTTP3 {
		client.Transport = h3Transport(s.ReadyAddress, s.ReadyTLS)
		return client
	}
	transport := &http.Transport{DisableKeepAlives: true, Proxy: nil}
	if s.ReadyTLS != nil {
		transport.TLSClientConfig = s.ReadyTLS.Clone()
	}
	if s.ReadyProtocol == ReadyHTTP2 {
		transport.Protocols = new(http.Protocols)
		transport.Protocols.SetHTTP2(true)
		transport.Protocols.SetUnencryptedHTTP2(true)
	}
	if s.ReadyAddress != "" {
		var d net.Dialer
		transport.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, s.ReadyAddress)
		}
	}
	client.Transport = transport
	return client
}

// closeClient closes what client keeps open: its idle connections, and
// an HTTP/3 transport's UDP socket.
func closeClient(client *http.Client) {
	client.CloseIdleConnections()
	if c, ok := client.Transport.(io.Closer); ok {
		c.Close() //nolint:errcheck // nothing to do about it
	}
}

// ReadyProtocol is the protocol of a Spec's readiness probes.
type ReadyProtocol int

// The probes' protocols.
const (
	// ReadyHTTP1 probes in HTTP/1.1 (TLS's ALPN may still pick HTTP/2).
	ReadyHTTP1 ReadyProtocol = iota
	// ReadyHTTP2 probes in HTTP/2 only: h2c with prior knowledge for an
	// http:// ReadyURL, h2 for https://.
	ReadyHTTP2
	// ReadyHTTP3 probes in HTTP/3 over QUIC an https:// ReadyURL; an
	// http:// one is probed in HTTP/1.1.
	ReadyHTTP3
)

// String names p as the not-ready error does.
func (p ReadyProtocol) String() string {
	switch p {
	case ReadyHTTP2:
		return "HTTP/2"
	case ReadyHTTP3:
		return "HTTP/3"
	}
	return "HTTP/1.1"
}

// probeProtocol returns the protocol s's probes speak: HTTP/3 falls back
// to HTTP/1.1 for an http:// ReadyURL.
func probeProtocol(s Spec) ReadyProtocol {
	if s.ReadyProtocol == ReadyHTTP3 && !strings.HasPrefix(s.ReadyURL, "https://") {
		return ReadyHTTP1
	}
	return s.ReadyProtocol
}

// h3ProbeHandshake bounds the silence a probe's QUIC handshake waits
// through (quic-go gives the whole handshake twice that). A port nobody
// listens on yet drops the first packet without a word, and quic-go
// resends it only after hundreds of milliseconds: with its default, a
// server listening 300 ms after its start was seen ready at 620 ms, where
// a probe over TCP saw it at 340. A server that answers at all answers
// within this on loopback; one slower is probed again at once.
const h3ProbeHandshake = 25 * time.Millisecond

// h3Transport is the probes' HTTP/3 transport: quic-go's, a readiness
// probe being no hot path, dialing address unless it is "".
func h3Transport(address string, tlsConf *tls.Config) *http3.Transport {
	t := &http3.Transport{TLSClientConfig: new(tls.Config), QUICConfig: &quic.Config{HandshakeIdleTimeout: h3ProbeHandshake}}
	if tlsConf != nil {
		t.TLSClientConfig = tlsConf.Clone()
	}
	if address != "" {
		t.Dial = func(ctx context.Context, _ string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error) {
			return quic.DialAddrEarly(ctx, address, tlsConf, conf)
		}
	}
	return t
}

// probe sends one GET and returns the status and when its header arrived.
func probe(ctx context.Context, client *http.Client, target string, deadline time.Time) (int, time.Time, error) {
	if limit := time.Now().Add(probeTimeout); limit.Before(deadline) {
		deadline = limit
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, time.Time{}, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, time.Time{}, err
	}
	at := time.Now()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, at, nil
}

// describeProbe says in a few words what a failed probe got.
func describeProbe(status int, err error) string {
	var uerr *url.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "no response in time"
	case errors.As(err, &uerr):
		return uerr.Err.Error() // the URL is already in the message
	case err != nil:
		return err.Error()
	default:
		return fmt.Sprintf("status %d", status)
	}
}

// settle waits d after ready; the server must still run at its end.
func (p *Process) settle(ctx context.Context, d time.Duration, spawned time.Time) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("waiting for the server to settle: %w", ctx.Err())
	case <-p.done:
		return p.exitedError("while settling after it was ready", spawned)
	case <-t.C:
	}
	if exited, _ := p.Exited(); exited {
		return p.exitedError("while settling after it was ready", spawned)
	}
	return nil
}

// exitedError describes a server that ended too early. p.done should be
// closed: else its exit status is not known yet.
func (p *Process) exitedError(when string, spawned time.Time) error {
	reason := p.ExitReason()
	if reason == "" {
		reason = "exit status not known yet"
	}
	return fmt.Errorf("server %w %s, %s after start (%s)",
		ErrExited, when, time.Since(spawned).Round(time.Millisecond), reason)
}
