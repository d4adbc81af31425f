package stats_test

import (
	"math"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
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
			r.Requests, r.Status["200"], r.RequestsPerS = 12, 12, 12
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
		{"negative pushes", func(r *stats.Result) {
			r.Export = &stats.Export{Sinks: []stats.ExportSink{{Sink: "prometheus", Pushed: -1}}}
		}, "export.sinks[0]"},
		{"dropped not the sinks'", func(r *stats.Result) {
			r.Export = &stats.Export{Sinks: []stats.ExportSink{{Sink: "prometheus", Dropped: 2}}, Dropped: 1}
		}, "export.dropped"},
		{"stage at fault", func(r *stats.Result) { r.Stages = []stats.Result{valid(), valid()}; r.Stages[1].BytesRead = -1 }, "stages[1].bytes_read"},
		{"stages over the whole", func(r *stats.Result) { r.Stages = []stats.Result{valid(), valid()} }, "stages"},
		{"runs over the whole", func(r *stats.Result) { r.Runs = []stats.Result{valid(), other} }, "runs"},
		{"a part started at a planned time", func(r *stats.Result) { *r = statstest.Part(t, 2, time.Millisecond, time.Millisecond) }, ""},
		{"shard index past the count", func(r *stats.Result) { r.Shard = &stats.Shard{Index: 3, Count: 3} }, "shard"},
		{"negative shard index", func(r *stats.Result) { r.Shard = &stats.Shard{Index: -1, Count: 3} }, "shard"},
		{"start not a time", func(r *stats.Result) { r.Start = "at noon" }, "start"},
		{"negative latency max", func(r *stats.Result) { r.Latency.Max = -1 }, "latency_us.max"},
		{"p50 above the max", func(r *stats.Result) { r.Latency.P50 = 2 * r.Latency.Max }, "latency_us"},
		{"p99 below p50", func(r *stats.Result) { r.Latency.P99 = r.Latency.P50 / 2 }, "latency_us"},
		{"mean beyond the max", func(r *stats.Result) { r.Latency.Mean = r.Latency.Max + 1 }, "latency_us.mean"},
		{"negative stdev", func(r *stats.Result) { r.Latency.Stdev = -1 }, "latency_us.stdev"},
		{"uncorrected latency out of order", func(r *stats.Result) {
			r.LatencyUncorrected = &stats.Latency{Min: 1, P50: 9, P75: 9, P90: 9, P95: 9, P99: 9, P999: 9, P9999: 9, Max: 5, Mean: 3}
		}, "latency_uncorrected_us"},
		{"schedule lag out of order", func(r *stats.Result) { r.ScheduleLag = &stats.ScheduleLag{P50: 10, P99: 5, Max: 20} }, "schedule_lag_us"},
		{"rate far above requests / duration", func(r *stats.Result) { r.RequestsPerS *= 10 }, "requests_per_s"},
		{"rate far below requests / duration", func(r *stats.Result) { r.RequestsPerS /= 2 }, "requests_per_s"},
		{"rate rounded to two decimals", func(r *stats.Result) { r.DurationS = 3; r.RequestsPerS = math.Round(float64(r.Requests)/3*100) / 100 }, ""},
		{"rate without a duration", func(r *stats.Result) { r.DurationS = 0 }, "requests_per_s"},
		{"rates of results side by side add up", func(r *stats.Result) { r.Config.Parallel = 2; r.RequestsPerS *= 1.5 }, ""},
		{"rates side by side never fall below", func(r *stats.Result) { r.Config.Parallel = 2; r.RequestsPerS /= 2 }, "requests_per_s"},
		{"timeline backwards", func(r *stats.Result) { r.Timeline = []stats.Second{{At: 2}, {At: 1}} }, "timeline[1]"},
		{"two billion parts", func(r *stats.Result) { r.Shard = &stats.Shard{Index: 0, Count: 2_000_000_000} }, "shard"},
		{"a part past MaxShards", func(r *stats.Result) { r.Shard = &stats.Shard{Index: 0, Count: stats.MaxShards + 1} }, "shard"},
		{"a part at MaxShards", func(r *stats.Result) { r.Shard = &stats.Shard{Index: stats.MaxShards - 1, Count: stats.MaxShards} }, ""},
		{"a merge of two billion parts", func(r *stats.Result) { r.Shards = &stats.Shards{Count: 2_000_000_000} }, "shards"},
		{"histogram finer than pummel's", func(r *stats.Result) {
			h := hdrhistogram.New(1, int64(time.Hour), 5) // decoding allocates 50 MB
			for range r.Requests {
				h.RecordValue(int64(time.Millisecond)) //nolint:errcheck // in range
			}
			r.LatencyHistogram, _ = stats.EncodeHistogram(h)
		}, "latency_histogram"},
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
