package export

// The series pummel exports, named by Prometheus' conventions (a unit in
// the name, counters ending in _total). Every series also carries the
// exporter's labels (run; shard when sharded; --export-label) and the
// load's (step for a capacity search; operation, mode and run_index for
// a plan). Counters count from the start of the measurement, warm-up
// left out; at a load's end they are its result's figures exactly.
const (
	// MetricRequests counts the responses by status_class (1xx … 5xx,
	// other): their sum is the result's requests.
	MetricRequests = "pummel_requests_total"
	// MetricErrors counts the failed requests by class (connect, read,
	// write, timeout, status, validation), as the result's errors.
	MetricErrors = "pummel_errors_total"
	// MetricTargetRequests and MetricTargetErrors are MetricRequests and
	// MetricErrors of each row of --targets (label target: its name, or
	// its place from 1 when it has none).
	MetricTargetRequests = "pummel_target_requests_total"
	MetricTargetErrors   = "pummel_target_errors_total"
	// MetricSentBytes and MetricReceivedBytes count the bytes on the
	// wire, as the result's bytes_written and bytes_read.
	MetricSentBytes     = "pummel_sent_bytes_total"
	MetricReceivedBytes = "pummel_received_bytes_total"
	// MetricReconnects counts the connections the server closed cleanly
	// between responses.
	MetricReconnects = "pummel_reconnects_total"
	// MetricConnections is how many connections are open.
	MetricConnections = "pummel_open_connections"
	// MetricLatency is the latency of the responses (from the intended
	// send time in open loop), a native histogram of schema 8, or a
	// classic one (--export-histograms classic).
	MetricLatency = "pummel_request_duration_seconds"
	// Open loop only: the rate asked for (this process's share of -R) and
	// the one achieved over the last push interval (requests that ended,
	// as responses or socket errors), the schedule's lag as a histogram,
	// and the sends more than 2 ms late.
	MetricTargetRate   = "pummel_target_requests_per_second"
	MetricAchievedRate = "pummel_achieved_requests_per_second"
	MetricLag          = "pummel_schedule_lag_seconds"
	MetricLateSends    = "pummel_late_sends_total"
	// With --pid or --exec, each watched server process (label pid): its
	// resident memory, and its CPU time (user + system) since it started.
	MetricServerRSS = "pummel_server_resident_memory_bytes"
	MetricServerCPU = "pummel_server_cpu_seconds_total"
)

// statusClasses names Tick.Totals.Responses' entries.
var statusClasses = [...]string{"other", "1xx", "2xx", "3xx", "4xx", "5xx"}
