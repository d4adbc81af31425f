package engine

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/internal/h3fixture"
)

// keptTick is what a test keeps of one Tick: its pointers are valid only
// during the call.
type keptTick struct {
	Tick
	latency, lag int64
}

// collectTicks returns an OnTick that keeps every tick, and the ticks.
func collectTicks() (func(Tick), func() []keptTick) {
	var mu sync.Mutex
	var ticks []keptTick
	on := func(t Tick) {
		s := keptTick{Tick: t}
		if t.Latency != nil {
			s.latency = t.Latency.TotalCount()
		}
		if t.Lag != nil {
			s.lag = t.Lag.TotalCount()
		}
		s.Latency, s.Lag = nil, nil
		mu.Lock()
		ticks = append(ticks, s)
		mu.Unlock()
	}
	return on, func() []keptTick { mu.Lock(); defer mu.Unlock(); return ticks }
}

// TestTicksAddUpToTheResult: what an exporter is handed second by second
// (Config.OnTick) ends with the result's figures exactly, warm-up left
// out: the last tick's totals are the result's, and the seconds'
// latencies add up to its responses.
func TestTicksAddUpToTheResult(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{Status: []int{200, 200, 404, 503}, Delay: time.Millisecond})
			on, ticks := collectTicks()
			res := runLoad(t, srv, Config{Engine: engine, Duration: 1500 * time.Millisecond, Warmup: 300 * time.Millisecond,
				Connections: 3, Threads: 2, OnTick: on})
			got := ticks()
			if len(got) < 2 {
				t.Fatalf("%d ticks for 1.5 s", len(got))
			}
			var latencies int64
			for i, tk := range got {
				latencies += tk.latency
				if tk.Final != (i == len(got)-1) || !tk.At.After(tk.From) || i > 0 && !tk.At.After(got[i-1].At) {
					t.Errorf("tick %d of %d: final %v, at %v, from %v", i, len(got), tk.Final, tk.At, tk.From)
				}
				want := int64(3)
				if tk.Final {
					want = 0 // every connection was closed as the run ended
				}
				if tk.Connections != want {
					t.Errorf("tick %d (final %v): %d connections open, want %d", i, tk.Final, tk.Connections, want)
				}
			}
			last := got[len(got)-1].Totals
			if latencies != res.Requests || last.Requests() != res.Requests || last.Errors != res.Errors {
				t.Errorf("ticks: %d latencies, %d responses, errors %+v; result: %d, %+v", latencies, last.Requests(), last.Errors, res.Requests, res.Errors)
			}
			if last.BytesRead != res.BytesRead || last.BytesWritten != res.BytesWritten {
				t.Errorf("ticks: %d bytes read, %d written; result: %d, %d", last.BytesRead, last.BytesWritten, res.BytesRead, res.BytesWritten)
			}
			if want := byClass(res.Status); last.Responses != want {
				t.Errorf("responses by class %v, want %v", last.Responses, want)
			}
		})
	}
}

// byClass sums a result's status counts by class.
func byClass(status map[string]int64) (out [StatusClasses]int64) {
	for code, n := range status {
		c, _ := strconv.Atoi(code)
		out[c/100] += n
	}
	return out
}

// TestTicksOfAnOpenLoop: the target rate, and the schedule's lag so far,
// whose last count is every measured send's.
func TestTicksOfAnOpenLoop(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	on, ticks := collectTicks()
	res := runLoad(t, srv, Config{Rates: []float64{200}, Duration: 1500 * time.Millisecond, Connections: 2, OnTick: on})
	got := ticks()
	if len(got) < 2 {
		t.Fatalf("%d ticks for 1.5 s", len(got))
	}
	if got[0].TargetRate != 200 {
		t.Errorf("target rate %v in the first second, want 200", got[0].TargetRate)
	}
	last := got[len(got)-1]
	if last.lag != res.Requests || res.ScheduleLag == nil || last.Totals.LateSends != res.ScheduleLag.LateSends {
		t.Errorf("lag of %d sends, %d late; result: %d responses, lag %+v", last.lag, last.Totals.LateSends, res.Requests, res.ScheduleLag)
	}
}

// TestNoTickWithoutOnTick: a run that does not export builds nothing
// for it.
func TestNoTickWithoutOnTick(t *testing.T) {
	r := &Load{Config: &Config{}}
	s := startSampler(r, nil)
	defer s.stop()
	if s.ticks != nil {
		t.Error("a ticker without OnTick")
	}
}

// TestTicksCountHTTP2Connections: an HTTP/2 connection counts as open
// on each transport (h2c on both, h2 over TLS on goroutines), and as
// closed once the run ends.
func TestTicksCountHTTP2Connections(t *testing.T) {
	ok := func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) } //nolint:errcheck // the test reads the counts
	for _, p := range h2Pairs() {
		t.Run(p.String(), func(t *testing.T) {
			on, ticks := collectTicks()
			cfg := Config{Engine: p.engine, Connections: 3, Threads: 1, Duration: 1200 * time.Millisecond, Timeout: 5 * time.Second,
				Protocol: HTTP2, Streams: 4, OnTick: on}
			if p.tls {
				cfg.URL, cfg.TLS = startH2TLS(t, true, ok)
			} else {
				cfg.URL, _ = startH2C(t, ok)
			}
			checkConnectionTicks(t, cfg, ticks)
		})
	}
}

// checkConnectionTicks runs cfg, whose 3 connections last 1.2 s and whose
// OnTick collects into ticks, and checks that the first tick counts 3
// connections open and the last none.
func checkConnectionTicks(t *testing.T, cfg Config, ticks func() []keptTick) {
	t.Helper()
	if _, err := Run(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	got := ticks()
	if len(got) < 2 {
		t.Fatalf("%d ticks for 1.2 s", len(got))
	}
	if got[0].Connections != 3 || got[len(got)-1].Connections != 0 {
		t.Errorf("%d ticks, connections %v first, %v last; want 3, then 0", len(got), got[0].Connections, got[len(got)-1].Connections)
	}
}

// TestTicksCountHTTP3Connections: each QUIC connection counts as open
// once, however many streams it carries, and as closed once the run ends.
func TestTicksCountHTTP3Connections(t *testing.T) {
	srv := h3fixture.Start(t, h3fixture.Behaviour{})
	on, ticks := collectTicks()
	cfg := h3Config(srv, 0, 4)
	cfg.Connections, cfg.Duration, cfg.OnTick = 3, 1200*time.Millisecond, on
	checkConnectionTicks(t, cfg, ticks)
}
