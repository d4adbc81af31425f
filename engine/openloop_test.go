package engine

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/fixture"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/stats"
)

func TestOpenLoopSendsRateTimesDuration(t *testing.T) {
	tests := []struct {
		name      string
		rates     []float64
		d         time.Duration
		c, thr    int
		delay     time.Duration
		wantTotal int64
	}{
		{"fewer requests than connections", []float64{10}, time.Second, 64, 2, 0, 10},
		{"a known delay", []float64{500}, time.Second, 16, 2, 5 * time.Millisecond, 500},
		// A schedule that ends after 250 ms leaves the client until 1.25 s
		// (the slack is a quarter of runLoad's 5 s timeout, at most 1 s)
		// to send all 1,250, 1,000 a second: after 500 ms it needed 1,667,
		// which a busy machine under -race might not keep up.
		{"a high rate", []float64{5000}, 250 * time.Millisecond, 32, 2, 0, 1250},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{Delay: tt.delay})
			res := runLoad(t, srv, Config{Rates: tt.rates, Duration: tt.d, Connections: tt.c, Threads: tt.thr})
			if res.Requests != tt.wantTotal || srv.Requests() != tt.wantTotal || res.Errors != (stats.Errors{}) {
				t.Errorf("responses %d, server %d, errors %+v; want exactly %d", res.Requests, srv.Requests(), res.Errors, tt.wantTotal)
			}
			if res.TargetRate != tt.rates[0] || res.LatencyUncorrected == nil || res.ScheduleLag == nil {
				t.Fatalf("open-loop fields missing: %+v", res)
			}
			if res.Latency.Min < float64(tt.delay.Microseconds()) || res.Latency.P50 < res.LatencyUncorrected.P50 {
				t.Errorf("latency %+v, uncorrected %+v: corrected latency cannot be below the uncorrected one or the delay", res.Latency, *res.LatencyUncorrected)
			}
		})
	}
}

// stallingServer answers at once, except that requests arriving during one
// window of the given length, starting after `after`, wait for its end.
func stallingServer(t *testing.T, after, stall time.Duration) *url.URL {
	t.Helper()
	var first atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		now := time.Now().UnixNano()
		first.CompareAndSwap(0, now)
		begin := first.Load() + int64(after)
		if now >= begin && now < begin+int64(stall) {
			time.Sleep(time.Duration(begin + int64(stall) - now))
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return u
}

func TestOpenLoopCorrectsForCoordinatedOmission(t *testing.T) {
	const stall = 400 * time.Millisecond
	u := stallingServer(t, 500*time.Millisecond, stall)
	res, err := Run(t.Context(), Config{URL: u, Rates: []float64{200}, Duration: 2 * time.Second,
		Connections: 1, Threads: 1, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// One connection: only the request in flight saw the stall from its
	// send, but about stall × rate requests were due during it.
	if res.Latency.P99 < float64(stall.Microseconds())/2 {
		t.Errorf("corrected p99 %.0fus does not show a %v stall", res.Latency.P99, stall)
	}
	if res.LatencyUncorrected.P99 >= float64(stall.Microseconds())/2 {
		t.Errorf("uncorrected p99 %.0fus shows the stall: it should hide it", res.LatencyUncorrected.P99)
	}
	if res.ScheduleLag.LateSends == 0 || len(res.Warnings) == 0 {
		t.Errorf("late sends %d, warnings %q: the held-back sends should be reported", res.ScheduleLag.LateSends, res.Warnings)
	}
}

func TestStagesKeepTheirConnections(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	res := runLoad(t, srv, Config{Rates: []float64{50, 100, 200}, Duration: 400 * time.Millisecond, Connections: 4, Threads: 2})
	if len(res.Stages) != 3 {
		t.Fatalf("%d stages, want 3", len(res.Stages))
	}
	for i, want := range []int64{20, 40, 80} {
		if st := res.Stages[i]; st.Requests != want || st.TargetRate != []float64{50, 100, 200}[i] {
			t.Errorf("stage %d: %d responses at target %g, want %d", i+1, st.Requests, st.TargetRate, want)
		}
	}
	if res.Requests != 140 || srv.Connections() != 4 {
		t.Errorf("responses %d, server connections %d; want 140 over the same 4", res.Requests, srv.Connections())
	}
}

func TestWarmupIsExcludedFromEveryFigure(t *testing.T) {
	tests := []struct {
		name       string
		cfg        Config
		measured   int64 // 0: only check that some were measured and some warmed up
		serverSeen int64
	}{
		{"open loop", Config{Rates: []float64{100}, Duration: 500 * time.Millisecond, Warmup: 300 * time.Millisecond}, 50, 80},
		{"open loop with its own warm-up rate", Config{Rates: []float64{100}, Duration: 500 * time.Millisecond,
			Warmup: 200 * time.Millisecond, WarmupRate: 50}, 50, 60},
		{"by count", Config{Requests: 100, WarmupRequests: 50, Pipeline: 8}, 100, 150},
		{"by time", Config{Duration: 300 * time.Millisecond, Warmup: 300 * time.Millisecond}, 0, 0},
		// A timed warm-up, then exactly the count: the warm-up takes none of it.
		{"by time, then a count", Config{Requests: 200, Warmup: 300 * time.Millisecond, Pipeline: 4}, 200, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{})
			tt.cfg.Connections = 4
			res := runLoad(t, srv, tt.cfg)
			if tt.serverSeen < 0 && (res.Requests != tt.measured || srv.Requests() <= tt.measured) {
				t.Errorf("measured %d of the %d the server saw; want %d after a warm-up", res.Requests, srv.Requests(), tt.measured)
			}
			if tt.measured > 0 && tt.serverSeen >= 0 && (res.Requests != tt.measured || srv.Requests() != tt.serverSeen) {
				t.Errorf("measured %d of the %d the server saw; want %d of %d", res.Requests, srv.Requests(), tt.measured, tt.serverSeen)
			}
			if tt.measured == 0 && (res.Requests == 0 || res.Requests >= srv.Requests()) {
				t.Errorf("measured %d of the %d the server saw: the warm-up should be left out", res.Requests, srv.Requests())
			}
			h, _ := stats.DecodeHistogram(res.LatencyHistogram)
			if h.TotalCount() != res.Requests {
				t.Errorf("histogram holds %d latencies for %d responses", h.TotalCount(), res.Requests)
			}
		})
	}
}

func TestOpenLoopValidation(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1:1/")
	base := Config{URL: u, Connections: 2, Threads: 1, Duration: time.Second, Timeout: time.Second, Rates: []float64{10}}
	for name, modify := range map[string]func(*Config){
		"zero rate":     func(c *Config) { c.Rates = []float64{0} },
		"with -n":       func(c *Config) { c.Requests = 5 },
		"pipelined":     func(c *Config) { c.Pipeline = 4 },
		"no duration":   func(c *Config) { c.Duration = 0 },
		"warm-up by -n": func(c *Config) { c.WarmupRequests = 5 },
	} {
		c := base
		modify(&c)
		if c.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestWarmupIsExcludedFromTheRequestRateSamples(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Delay: 10 * time.Millisecond})
	// One connection, 10 ms per request: 100 requests/s at most, however
	// fast the machine. A sample that took in the warm-up's responses
	// shows about 900/s under -race; 500/s leaves room for a sample that
	// a sampler 400 ms late counted over more than its 100 ms. (Max
	// against 3 × Mean judged the machine's steadiness as well, and after
	// a 500 ms warm-up caught such a sample in one run of three.)
	res := runLoad(t, srv, Config{Connections: 1, Duration: 500 * time.Millisecond, Warmup: time.Second})
	if res.ThreadRate.Samples == 0 || res.ThreadRate.Max > 500 {
		t.Errorf("Req/Sec %+v: a sample holds the warm-up", res.ThreadRate)
	}
	// One worker sampled every 100 ms over 0.5 s measured: about 5 samples,
	// not the 15 that taking in the 1 s warm-up would give.
	if res.ThreadRate.Samples > 7 {
		t.Errorf("Req/Sec has %d samples: the warm-up was sampled", res.ThreadRate.Samples)
	}
}

func TestWarmupByCountStartsTheClockAtTheFirstMeasuredRequest(t *testing.T) {
	const delay = 10 * time.Millisecond
	srv := fixture.New(t, fixture.Behaviour{Delay: delay})
	warmed := runLoad(t, srv, Config{Requests: 30, WarmupRequests: 30, Connections: 1})
	// The server holds each request 10 ms: a clock started with the
	// warm-up measures 60 of them, 600 ms at least; one started at the
	// first measured request, 30 and their overhead. (Compared with a run
	// without a warm-up, 1.5 times as long, the test could fail when a busy
	// machine slowed one run and not the other.)
	if most := 60 * delay; warmed.Requests != 30 || warmed.DurationS >= most.Seconds() {
		t.Errorf("%d requests in %.3fs after a warm-up of 30: want 30, in less than the %v of 60", warmed.Requests, warmed.DurationS, most)
	}
}

func TestOpenLoopLastsItsSchedule(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{})
	res := runLoad(t, srv, Config{Rates: []float64{4}, Duration: time.Second, Connections: 2})
	// The last of 4 requests is due at 0.75 s; the stage lasts 1 s.
	if res.Requests != 4 || res.DurationS < 1 || res.RequestsPerS > 4.01 {
		t.Errorf("%d requests in %.3fs, %.2f/s: want 4 over the whole second", res.Requests, res.DurationS, res.RequestsPerS)
	}
}

func TestAResponseCountsInOneClassOnly(t *testing.T) {
	srv := fixture.New(t, fixture.Behaviour{Status: []int{500}})
	res := runLoad(t, srv, Config{Requests: 10, Checks: Checks{Status: []parse.StatusRange{{Lo: 200, Hi: 200}}}})
	if res.Errors.Status != 10 || res.Errors.Validation != 0 {
		t.Errorf("status errors %d, validation %d: a 500 is a status error, once", res.Errors.Status, res.Errors.Validation)
	}
}

// TestAnOverloadedOpenLoopEndsAtItsDurationAndSleeps runs far above what
// the connections can carry against a slow server: every connection is
// busy and a request is always due. The run must end at -d (give or take
// the grace its last responses get), not --timeout after it, and the
// client must sleep while no connection can send, not spin.
func TestAnOverloadedOpenLoopEndsAtItsDurationAndSleeps(t *testing.T) {
	const d, timeout, delay = 1500 * time.Millisecond, 4 * time.Second, 600 * time.Millisecond
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{Delay: delay})
			res := runLoad(t, srv, Config{Engine: engine, Rates: []float64{5000}, Duration: d, Timeout: timeout,
				Connections: 4, Threads: 1})
			// The run's own length, from the clock's start to its end: the
			// wall time around Run also holds building the result, slow
			// under the race detector.
			took := time.Duration(res.DurationS * float64(time.Second))
			// Waiting out the requests it could not send lasts until the
			// run's time limit, -d + --timeout + the slack, 6.5 s.
			if took > d+timeout {
				t.Errorf("a %v run took %v: it must end at -d, not wait out the requests it could not send", d, took)
			}
			// 4 connections answered every 600 ms send about 4 requests
			// per 600 ms: a client that sleeps until one frees spends
			// next to nothing; one that spins, a whole CPU. 30% of
			// one CPU leaves room for a noisy machine.
			if cpu := res.Client.CPUSeconds; cpu > 0.3*took.Seconds() {
				t.Errorf("the client used %.2fs of CPU in a %v run that sent %d requests: it spins while every connection is busy",
					cpu, took.Round(time.Millisecond), srv.Requests())
			}
			if res.Requests == 0 || res.ScheduleLag == nil || res.ScheduleLag.LateSends == 0 {
				t.Errorf("%d responses, lag %+v: the late sends should be measured", res.Requests, res.ScheduleLag)
			}
			// No backlog past -d (tooLate): what the server got is what
			// was counted, and the run ended once those were answered.
			if got, counted := srv.Requests(), res.Requests+res.Errors.Total(); got != counted {
				t.Errorf("the server got %d requests, the result counts %d", got, counted)
			}
			// A connection carries one request at a time, each answered
			// after delay at the earliest: by -d it can have sent at most
			// d/delay + 1, however slow the machine. A backlog sent past
			// -d makes more.
			if most := int64(4 * (d/delay + 1)); srv.Requests() > most {
				t.Errorf("the server got %d requests from 4 connections in a %v run, at most %d before -d: a backlog was sent past -d",
					srv.Requests(), d, most)
			}
		})
	}
}

// TestAStallAtTheEndOfAnOpenLoopIsCounted: a server that stops answering
// shortly before -d leaves requests in flight; each is counted once, a
// timeout, not abandoned as if it had never been sent.
func TestAStallAtTheEndOfAnOpenLoopIsCounted(t *testing.T) {
	for _, engine := range transports() {
		t.Run(engine, func(t *testing.T) {
			srv := fixture.New(t, fixture.Behaviour{StallAfter: 150})
			res := runLoad(t, srv, Config{Engine: engine, Rates: []float64{100}, Duration: 2 * time.Second, Timeout: 500 * time.Millisecond,
				Connections: 4, Threads: 1})
			if got, counted := srv.Requests(), res.Requests+res.Errors.Total(); got != counted || res.Errors.Timeout == 0 {
				t.Errorf("the server got %d requests, the result counts %d (%d timeouts): stalled requests must be counted", got, counted, res.Errors.Timeout)
			}
		})
	}
}

func TestTheScheduleWarningPrintsDurationsInTheToolsUnits(t *testing.T) {
	tests := []struct {
		p99  float64 // microseconds
		want string
	}{
		{3883926, "p99 lag 3.88s"},
		{12500, "p99 lag 12.50ms"},
		{500, "p99 lag 500.00us"},
	}
	for _, tt := range tests {
		st := stats.Result{Requests: 100, TargetRate: 1000, AchievedRate: 500,
			ScheduleLag: &stats.ScheduleLag{P99: tt.p99, LateSends: 90}}
		w := scheduleWarnings(st)
		if len(w) != 1 || !strings.Contains(w[0], tt.want) || !strings.Contains(w[0], "more than 2.00ms late") {
			t.Errorf("p99 lag %.0fus: warning %q, want %q and the late-send bound as text prints durations", tt.p99, w, tt.want)
		}
	}
}
