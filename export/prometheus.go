package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/klauspost/compress/snappy"
	"github.com/pummel-dev/pummel/stats/render"
)

// prometheus pushes to a Prometheus remote-write endpoint (protocol
// v1: a snappy-compressed protobuf WriteRequest per push), which
// Prometheus itself serves with --web.enable-remote-write-receiver (at
// /api/v1/write), as do Mimir, Thanos Receive, VictoriaMetrics, Grafana
// Cloud and others. Latency goes as native histograms (which Prometheus
// stores with --enable-feature=native-histograms before 3.0), or as
// classic _bucket series for a server without them.
type prometheus struct {
	url       string
	client    *http.Client
	userAgent string
	classic   bool
	body      []byte // the last request's protobuf, reused
}

// DefaultWritePath is the remote-write path a URL without one gets:
// Prometheus' own receiver's.
const DefaultWritePath = "/api/v1/write"

// errorBodyLimit bounds how much of a refused push's body is kept for
// its error message.
const errorBodyLimit = 512

func newPrometheus(target string, o SinkOptions) (Sink, error) {
	u, err := url.Parse(target)
	switch {
	case err != nil:
		return nil, errors.New("not a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("the scheme is %q: an http:// or https:// URL of a remote-write endpoint", u.Scheme)
	case u.Host == "":
		return nil, errors.New("no host: an http:// or https:// URL of a remote-write endpoint")
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = DefaultWritePath
	}
	client := &http.Client{
		// A redirect would turn the POST into a GET: say so instead.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &prometheus{url: u.String(), client: client, userAgent: o.UserAgent, classic: o.Classic}, nil
}

func (p *prometheus) Name() string { return "prometheus" }

// Push sends snaps in one WriteRequest, each series with its points in
// time order. Prometheus stores all or none of a request: a 4xx but 429
// (out-of-order or duplicate samples, a bad request) is Permanent, as
// the remote-write spec asks; a 5xx, a 429 or a network error may pass,
// and is retried.
func (p *prometheus) Push(ctx context.Context, snaps []*Snapshot) error {
	p.body = appendWriteRequest(p.body[:0], snaps, p.classic)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(snappy.Encode(nil, p.body)))
	if err != nil {
		return Permanent(err)
	}
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	req.Header.Set("User-Agent", p.userAgent)
	resp, err := p.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // its text holds the URL, which may hold credentials
			err = ue.Err
		}
		return err
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) //nolint:errcheck // drained for the connection's reuse
	if resp.StatusCode/100 == 2 {
		return nil
	}
	err = fmt.Errorf("HTTP %d", resp.StatusCode)
	if said := render.OneLine(string(text)); said != "" { // one line, whatever the page: it ends up in a warning
		err = fmt.Errorf("%w: %s", err, said)
	}
	if resp.StatusCode/100 == 4 && resp.StatusCode != http.StatusTooManyRequests || resp.StatusCode/100 == 3 {
		return Permanent(err)
	}
	return err
}

// pushTimeout bounds one push while the load runs.
const pushTimeout = 10 * time.Second

// appendWriteRequest appends the WriteRequest of snaps: the snapshots of
// one load share their series, so each series goes once, with its points
// from each of them.
func appendWriteRequest(b []byte, snaps []*Snapshot, classic bool) []byte {
	for start := 0; start < len(snaps); {
		end := start + 1
		for end < len(snaps) && sameSeries(snaps[start], snaps[end]) {
			end++
		}
		b = appendLoad(b, snaps[start:end], classic)
		start = end
	}
	return b
}

// appendLoad appends the series of snapshots of one load.
func appendLoad(b []byte, snaps []*Snapshot, classic bool) []byte {
	points := make([]point, 0, len(snaps))
	for i, s := range snaps[0].Series {
		points = points[:0]
		for _, snap := range snaps {
			if p := snap.Points[i]; !p.Absent {
				points = append(points, point{ms: snap.At.UnixMilli(), value: p.Value, hist: p.Hist})
			}
		}
		if len(points) == 0 {
			continue
		}
		if s.Kind == HistogramSeries && classic {
			b = appendClassic(b, s, points)
			continue
		}
		b = appendSeries(b, s.Name, s.Labels, points)
	}
	return b
}

// appendClassic appends a classic histogram's series: name_bucket with
// an le label for each bound and +Inf, name_sum and name_count.
func appendClassic(b []byte, s Series, points []point) []byte {
	floats := make([]point, len(points))
	for i := range len(ClassicBounds) + 1 {
		le := formatBound(inf)
		if i < len(ClassicBounds) {
			le = formatBound(ClassicBounds[i])
		}
		for k, p := range points {
			floats[k] = point{ms: p.ms, value: float64(p.hist.Count)}
			if i < len(ClassicBounds) {
				floats[k].value = float64(p.hist.Cumulative[i])
			}
		}
		b = appendSeries(b, s.Name+"_bucket", withLabels(s.Labels, Label{"le", le}), floats)
	}
	for k, p := range points {
		floats[k] = point{ms: p.ms, value: p.hist.Sum}
	}
	b = appendSeries(b, s.Name+"_sum", s.Labels, floats)
	for k, p := range points {
		floats[k] = point{ms: p.ms, value: float64(p.hist.Count)}
	}
	return appendSeries(b, s.Name+"_count", s.Labels, floats)
}
