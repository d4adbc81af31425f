package stats_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
	"github.com/pummel-dev/pummel/stats/record"
)

// TestValidateNamesTheField pins that a result that contradicts itself,
// or is not pummel's at all, is refused with the JSON field at fault.
func TestValidateNamesTheField(t *testing.T) {
	valid := func() stats.Result {
		r := stats.Merge([]*record.Recorder{statstest.Recorded(statstest.Spread(100, 10, time.Microsecond)...)}, time.Second, nil)
		r.Config = stats.Config{URL: "http://h/", Method: "GET", Connections: 1, Threads: 1, DurationS: 1}
		return r
	}
	other := stats.Merge([]*record.Recorder{statstest.Recorded(statstest.Spread(100, 7, time.Microsecond)...)}, time.Second, nil)
	for _, tt := range []struct {
		name   string
		change func(r *stats.Result)
		field  string // "" when r is valid
	}{
		{"valid", func(*stats.Result) {}, ""},
		{"no response, no latency", func(r *stats.Result) { *r = stats.Result{Config: r.Config, Status: map[string]int64{}} }, ""},
		{"latencies left out and said so", func(r *stats.Result) {
			r.Requests, r.Status["200"] = 12, 12
			r.Warnings = []string{"2 latencies beyond the histogram's range of 1h0m0s were left out of the percentiles"}
		}, ""},
		{"empty object", func(r *stats.Result) { *r = stats.Result{} }, "config.url"},
		{"negative requests", func(r *stats.Result) { r.Requests = -10 }, "requests"},
		{"negative duration", func(r *stats.Result) { r.DurationS = -1 }, "duration_s"},
		{"negative error count", func(r *stats.Result) { r.Errors.Timeout = -1 }, "errors.timeout"},
		{"negative cause", func(r *stats.Result) { r.ErrorCauses = map[string]map[string]int64{"read": {"reset": -2}} }, "error_causes.read"},
		{"negative status count", func(r *stats.Result) { r.Status["500"] = -1 }, "status.500"},
		{"status counts over requests", func(r *stats.Result) { r.Status["503"] = 5 }, "status"},
		{"histogram disagrees with requests", func(r *stats.Result) { r.LatencyHistogram = other.LatencyHistogram }, "latency_histogram"},
		{"histogram missing", func(r *stats.Result) { r.LatencyHistogram = "" }, "latency_histogram"},
		{"histogram garbled", func(r *stats.Result) { r.LatencyHistogram = "not base64" }, "latency_histogram"},
		{"latency null with responses", func(r *stats.Result) { r.Latency = nil }, "latency_us"},
		{"negative connections", func(r *stats.Result) { r.Config.Connections = -4 }, "config.connections"},
		{"stage at fault", func(r *stats.Result) { r.Stages = []stats.Result{valid(), valid()}; r.Stages[1].BytesRead = -1 }, "stages[1].bytes_read"},
		{"stages over the whole", func(r *stats.Result) { r.Stages = []stats.Result{valid(), valid()} }, "stages"},
		{"runs over the whole", func(r *stats.Result) { r.Runs = []stats.Result{valid(), other} }, "runs"},
		{"a part started at a planned time", func(r *stats.Result) { *r = statstest.Part(t, 2, time.Millisecond, time.Millisecond) }, ""},
		{"shard index past the count", func(r *stats.Result) { r.Shard = &stats.Shard{Index: 3, Count: 3} }, "shard"},
		{"negative shard index", func(r *stats.Result) { r.Shard = &stats.Shard{Index: -1, Count: 3} }, "shard"},
		{"start not a time", func(r *stats.Result) { r.Start = "at noon" }, "start"},
		{"planned start not a time", func(r *stats.Result) { r.StartAt = "+30s" }, "start_at"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := valid()
			tt.change(&r)
			err := r.Validate()
			switch {
			case tt.field == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.field != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.field+":")):
				t.Errorf("Validate() = %v, want an error naming %q", err, tt.field)
			}
		})
	}
}

func TestReadJSONRefusesNull(t *testing.T) {
	if _, err := stats.ReadJSON(strings.NewReader("null")); err == nil {
		t.Error("ReadJSON(null) succeeded, want an error")
	}
}
