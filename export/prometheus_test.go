package export

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/snappy"
)

// receiver is a remote-write endpoint for tests: it answers each push
// with the next of its statuses (then the last one) and keeps what it
// was sent.
type receiver struct {
	mu       sync.Mutex
	statuses []int
	pushes   [][]decodedSeries
	headers  []http.Header
	paths    []string
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	raw, err := snappy.Decode(nil, body)
	var series []decodedSeries
	if err == nil {
		series, err = decodeWriteRequest(raw)
	}
	r.mu.Lock()
	status := r.statuses[0]
	if len(r.statuses) > 1 {
		r.statuses = r.statuses[1:]
	}
	r.pushes = append(r.pushes, series)
	r.headers = append(r.headers, req.Header.Clone())
	r.paths = append(r.paths, req.URL.Path)
	r.mu.Unlock()
	if err != nil {
		http.Error(w, "cannot decode: "+err.Error(), http.StatusBadRequest)
		return
	}
	if status != http.StatusNoContent {
		http.Error(w, "refused on purpose", status)
		return
	}
	w.WriteHeader(status)
}

func startReceiver(t *testing.T, statuses ...int) (*receiver, string) {
	r := &receiver{statuses: statuses}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv.URL
}

func counterSnap(ms int64, v float64) *Snapshot {
	return &Snapshot{At: time.UnixMilli(ms), Series: []Series{{Name: MetricRequests, Labels: []Label{{"status_class", "2xx"}}}}, Points: []Point{{Value: v}}}
}

// TestPrometheusPush: a push is a snappy WriteRequest POSTed to
// /api/v1/write (a URL without a path gets it) with the headers the
// remote-write spec asks for.
func TestPrometheusPush(t *testing.T) {
	r, u := startReceiver(t, http.StatusNoContent)
	sink, err := ParseSink("prometheus="+u, SinkOptions{UserAgent: "pummel/test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sink.Push(t.Context(), []*Snapshot{counterSnap(1000, 5)}); err != nil {
		t.Fatal(err)
	}
	h := r.headers[0]
	if r.paths[0] != DefaultWritePath || h.Get("Content-Encoding") != "snappy" || h.Get("Content-Type") != "application/x-protobuf" ||
		h.Get("X-Prometheus-Remote-Write-Version") != "0.1.0" || h.Get("User-Agent") != "pummel/test" {
		t.Errorf("path %s, headers %v", r.paths[0], h)
	}
	if s := r.pushes[0]; len(s) != 1 || s[0].samples[0] != (decodedSample{5, 1000}) {
		t.Errorf("pushed %+v", s)
	}
}

// TestPrometheusStatuses: a 4xx is permanent (the remote-write spec: do
// not retry), a 5xx or a 429 may be retried, a redirect is permanent.
func TestPrometheusStatuses(t *testing.T) {
	for _, tc := range []struct {
		status    int
		permanent bool
	}{
		{http.StatusBadRequest, true}, {http.StatusUnsupportedMediaType, true}, {http.StatusTooManyRequests, false},
		{http.StatusInternalServerError, false}, {http.StatusServiceUnavailable, false}, {http.StatusFound, true},
	} {
		_, u := startReceiver(t, tc.status)
		sink, _ := ParseSink("prometheus="+u+"/api/v1/write", SinkOptions{})
		err := sink.Push(t.Context(), []*Snapshot{counterSnap(1, 1)})
		if err == nil || isPermanent(err) != tc.permanent || !strings.Contains(err.Error(), "HTTP ") {
			t.Errorf("HTTP %d: %v (permanent %v), want permanent %v", tc.status, err, isPermanent(err), tc.permanent)
		}
	}
}

// TestPrometheusErrorIsOneLine: a refused push's body (a proxy's HTML
// page, a hostile receiver's terminal escapes, bytes that are no UTF-8)
// becomes one line of printable text in the error, cut at errorBodyLimit;
// an empty one adds nothing to the status.
func TestPrometheusErrorIsOneLine(t *testing.T) {
	const page = "<html>\r\n  <h1>502 Bad Gateway</h1>\n\x1b[2J\x1b]0;owned\x07\xff\xfe"
	for _, tc := range []struct {
		body, want string
	}{
		{page + strings.Repeat("x", 2*errorBodyLimit),
			"HTTP 502: <html> <h1>502 Bad Gateway</h1> [2J ]0;owned \uFFFD\uFFFD" + strings.Repeat("x", errorBodyLimit-len(page))},
		{"", "HTTP 502"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, tc.body) //nolint:errcheck // the test reads what arrived
		}))
		sink, _ := ParseSink("prometheus="+srv.URL+"/api/v1/write", SinkOptions{})
		if err := sink.Push(t.Context(), []*Snapshot{counterSnap(1, 1)}); err == nil || err.Error() != tc.want {
			t.Errorf("refused with %.40q…: %v, want %q", tc.body, err, tc.want)
		}
		srv.Close()
	}
}

// TestPrometheusErrorsHoldNoCredentials: a push that fails says why, and
// never repeats the URL, whose user name and password are secrets.
func TestPrometheusErrorsHoldNoCredentials(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // refused from now on
	sink, err := ParseSink("prometheus=http://someone:hunter2@"+addr+"/api/v1/write", SinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = sink.Push(t.Context(), []*Snapshot{counterSnap(1, 1)})
	if err == nil || isPermanent(err) || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "someone") {
		t.Errorf("push to a closed port: %v", err)
	}
}

// TestPrometheusSendsBasicAuth: a URL's user name and password go as
// basic credentials.
func TestPrometheusSendsBasicAuth(t *testing.T) {
	r, u := startReceiver(t, http.StatusNoContent)
	sink, _ := ParseSink("prometheus="+strings.Replace(u, "http://", "http://someone:hunter2@", 1), SinkOptions{})
	if err := sink.Push(t.Context(), []*Snapshot{counterSnap(1, 1)}); err != nil {
		t.Fatal(err)
	}
	req := http.Request{Header: r.headers[0]}
	if user, pass, ok := req.BasicAuth(); !ok || user != "someone" || pass != "hunter2" {
		t.Errorf("credentials %q %q %v", user, pass, ok)
	}
}

func TestParseSinkRefuses(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"foo=http://x/", `"foo" is not KIND=URL: the kinds are prometheus`},
		{"http://x/", `is not KIND=URL`},
		{"prometheus=", "prometheus= needs a URL"},
		{"prometheus=ftp://x/", `the scheme is "ftp"`},
		{"prometheus=http://", "no host"},
		{"prometheus=http://a b/", "not a URL"},
		{"prometheus=localhost:9090", "scheme"},
	} {
		_, err := ParseSink(tc.in, SinkOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSink(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestPrometheusSlowServer: a push to a server that does not answer
// ends when its context does.
func TestPrometheusSlowServer(t *testing.T) {
	stall := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-stall }))
	defer srv.Close()
	defer close(stall)
	sink, _ := ParseSink("prometheus="+srv.URL, SinkOptions{})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := sink.Push(ctx, []*Snapshot{counterSnap(1, 1)})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("push to a stalled server: %v after %v", err, time.Since(start))
	}
}
