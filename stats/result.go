package stats

import (
	"fmt"
	"time"

	"github.com/pummel-dev/pummel/stats/record"
)

// Result is the outcome of one load run: plain data, the JSON schema of
// `pummel -o result.json` field by field. Renderers read only this type.
type Result struct {
	// Requests is the number of completed responses, whatever their status
	// (wrk's count). Requests that failed at the socket are in Errors.
	Requests int64 `json:"requests"`
	// DurationS is the measured time in seconds, from the first request
	// to the end of the run.
	DurationS float64 `json:"duration_s"`
	// RequestsPerS is Requests / DurationS.
	RequestsPerS float64 `json:"requests_per_s"`
	// BytesRead and BytesWritten count bytes on the wire (headers and bodies).
	BytesRead    int64 `json:"bytes_read"`
	BytesWritten int64 `json:"bytes_written"`
	// Status maps each HTTP status code received (as a string) to its count.
	Status map[string]int64 `json:"status"`
	// Errors counts failed requests by class.
	Errors Errors `json:"errors"`
	// ErrorCauses breaks each class down by cause ("refused", "reset", …).
	ErrorCauses map[string]map[string]int64 `json:"error_causes,omitempty"`
	// Reconnects counts connections the server closed cleanly between
	// responses; pummel reopened them without counting an error.
	Reconnects int64 `json:"reconnects"`
	// QUIC is what HTTP/3's connections sent and received, as QUIC
	// counts it; nil for other protocols.
	QUIC *QUIC `json:"quic,omitempty"`
	// Latency summarises the response times, in microseconds, from the
	// start of writing a request to the end of reading its response, over
	// every response whatever its status (wrk's count). It is nil (null in
	// JSON) when no response was received: a latency of nothing is absent,
	// not zero.
	Latency *Latency `json:"latency_us"`
	// LatencyHistogram is the full latency histogram in nanoseconds,
	// HdrHistogram V2 compressed and base64-encoded, so that saved results
	// merge exactly.
	LatencyHistogram string `json:"latency_histogram"`
	// Open loop only (-R). Latency above then runs from each request's
	// intended send time on the schedule, so that a stall of the server
	// shows in it (coordinated-omission correction, as wrk2).
	//
	// LatencyUncorrected runs from the actual send instead, and
	// LatencyUncorrectedHistogram is its histogram, encoded as above.
	LatencyUncorrected          *Latency `json:"latency_uncorrected_us,omitempty"`
	LatencyUncorrectedHistogram string   `json:"latency_uncorrected_histogram,omitempty"`
	// TargetRate is the requested total rate (-R), in requests/s.
	TargetRate float64 `json:"target_rate,omitempty"`
	// Ramp is set for a ramp stage (-R 100..2000): its starting and final
	// rates. TargetRate is then its mean rate.
	Ramp *Ramp `json:"ramp,omitempty"`
	// AchievedRate is the rate requests were actually sent at: sends
	// after the first over the time from the first send to the last.
	AchievedRate float64 `json:"achieved_rate,omitempty"`
	// ScheduleLag is how late sends were against their intended times.
	ScheduleLag *ScheduleLag `json:"schedule_lag_us,omitempty"`
	// AttackS is the time from the first send to the last, WaitS from the
	// last send to the last response (Vegeta's attack and wait).
	AttackS float64 `json:"attack_s,omitempty"`
	WaitS   float64 `json:"wait_s,omitempty"`
	// Stages holds one result per rate stage (-R 10,50,250), in order;
	// the enclosing result covers them all.
	Stages []Result `json:"stages,omitempty"`
	// Targets holds one entry per target of a list of targets
	// (--targets), in the list's order; absent otherwise.
	Targets []Target `json:"targets,omitempty"`
	// Start is when the measurement began (RFC 3339, UTC).
	Start string `json:"start,omitempty"`
	// StartAt is the planned start (--start-at, RFC 3339, UTC): the clock
	// started at it, or as soon after it as the run could.
	StartAt string `json:"start_at,omitempty"`
	// Shard says that this result is one part of a load carried out by
	// several processes together (--shard i/N).
	Shard *Shard `json:"shard,omitempty"`
	// Shards describes the parts merged into this result, when it is a
	// sharded load merged by pummel report --parallel.
	Shards *Shards `json:"shards,omitempty"`
	// Timeline has one entry per second of the measurement.
	Timeline []Second `json:"timeline,omitempty"`
	// Runs holds one result per fresh server process (--exec --runs N);
	// the enclosing result merges them.
	Runs []Result `json:"runs,omitempty"`
	// ThreadRate summarises each worker's requests per second, sampled
	// every 100 ms (wrk's "Req/Sec" row).
	ThreadRate Spread `json:"thread_requests_per_s"`
	// Connect summarises the time taken to open connections, in
	// microseconds; it is never part of Latency.
	Connect ConnectTime `json:"connect_us"`
	// Client is pummel's own CPU use during the measured time.
	Client ClientUsage `json:"client"`
	// Server lists the watched server processes (with --pid or --exec).
	Server []ServerUsage `json:"server,omitempty"`
	// Warnings are things the reader of the figures should know.
	Warnings []string `json:"warnings,omitempty"`
	// RequestLog says what --log-requests wrote (absent without it).
	RequestLog *RequestLog `json:"request_log,omitempty"`
	// Export says what --export pushed (absent without it).
	Export *Export `json:"export,omitempty"`
	// Thresholds holds the outcome of every --threshold condition, in
	// the order given.
	Thresholds []Threshold `json:"thresholds,omitempty"`
	// Capacity is the answer of `pummel capacity`; the result around it
	// is then its confirmation run (or its last step).
	Capacity *Capacity `json:"capacity,omitempty"`
	// Steps holds one result per step of a capacity search, in the order
	// run, the closed-loop probe first (its target_rate absent). They are
	// separate loads: they need not add up to the enclosing result.
	Steps []Result `json:"steps,omitempty"`
	// StepResult is what a capacity search judged of a step (its fields
	// inline in JSON); nil elsewhere.
	*StepResult
	// Interrupted is true when the run was stopped early (Ctrl-C).
	Interrupted bool `json:"interrupted,omitempty"`
	// Config is the load shape, with secrets redacted.
	Config Config `json:"config"`
	// Environment describes the machine and the pummel build.
	Environment Environment `json:"environment"`
}

// RequestLog counts the lines of a per-request log: those written, and
// those dropped because its writer fell behind the load (the load never
// waits for it).
type RequestLog struct {
	Lines   int64 `json:"lines"`
	Dropped int64 `json:"dropped"`
}

// Export says what --export pushed: the run id every series carries, and
// what each sink delivered, counted in pushes (one a push interval, and
// one at each load's end).
type Export struct {
	// Run is the run label of every series exported.
	Run string `json:"run"`
	// Sinks has one entry per --export, in the order given.
	Sinks []ExportSink `json:"sinks"`
	// Dropped counts the pushes not delivered, summed over the sinks (a
	// warning says so too).
	Dropped int64 `json:"dropped"`
}

// ExportSink is what one --export delivered.
type ExportSink struct {
	// Sink is its kind ("prometheus"), URL where it pushed (secrets
	// redacted).
	Sink string `json:"sink"`
	URL  string `json:"url"`
	// Pushed and Dropped count the pushes delivered and not; Failures
	// the attempts that failed, retried or not; LastError the last one's
	// reason.
	Pushed    int64  `json:"pushed"`
	Dropped   int64  `json:"dropped"`
	Failures  int64  `json:"failures"`
	LastError string `json:"last_error,omitempty"`
	// Short is set when the last push of a load was not delivered: the
	// figures the sink holds fall short of this result's. Other pushes
	// dropped cost only resolution, as every figure is cumulative.
	Short bool `json:"short,omitempty"`
}

// Ramp is an open-loop stage whose rate grows (or falls) linearly, in
// requests/s.
type Ramp struct {
	From float64 `json:"from"`
	To   float64 `json:"to"`
}

// ScheduleLag summarises how late sends were against the schedule, in
// microseconds. LateSends counts sends more than record.LateSend (2 ms) late: the client held
// them back, because every connection was busy or its CPU was saturated.
type ScheduleLag struct {
	P50       float64 `json:"p50"`
	P99       float64 `json:"p99"`
	Max       float64 `json:"max"`
	LateSends int64   `json:"late_sends"`
}

// Errors counts failed requests by record.ErrorClass.
type Errors struct {
	Connect    int64 `json:"connect"`
	Read       int64 `json:"read"`
	Write      int64 `json:"write"`
	Timeout    int64 `json:"timeout"`
	Status     int64 `json:"status"`
	Validation int64 `json:"validation"`
}

// Plus is the sum of e's and o's counts, class by class.
func (e Errors) Plus(o Errors) Errors {
	return Errors{e.Connect + o.Connect, e.Read + o.Read, e.Write + o.Write, e.Timeout + o.Timeout, e.Status + o.Status, e.Validation + o.Validation}
}

// Socket returns the errors wrk calls socket errors: connect, read, write
// and timeout.
func (e Errors) Socket() int64 { return e.Connect + e.Read + e.Write + e.Timeout }

// Total returns every failed request: the socket errors, the responses
// with an error status and those that failed a check.
func (e Errors) Total() int64 { return e.Socket() + e.Status + e.Validation }

// ByClass returns the count of one class.
func (e Errors) ByClass(c record.ErrorClass) int64 {
	return [record.NumErrorClasses]int64{e.Connect, e.Read, e.Write, e.Timeout, e.Status, e.Validation}[c]
}

// Latency is a latency summary in microseconds.
type Latency struct {
	Min   float64 `json:"min"`
	Mean  float64 `json:"mean"`
	Stdev float64 `json:"stdev"`
	Max   float64 `json:"max"`
	P50   float64 `json:"p50"`
	P75   float64 `json:"p75"`
	P90   float64 `json:"p90"`
	P95   float64 `json:"p95"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p99_9"`
	P9999 float64 `json:"p99_99"`
	// WithinStdevPct is the share of samples within one standard
	// deviation of the mean, in percent (wrk's "+/- Stdev" column).
	WithinStdevPct float64 `json:"within_stdev_pct"`
}

// Spread summarises a series of samples the way wrk's Thread Stats do.
type Spread struct {
	Mean           float64 `json:"mean"`
	Stdev          float64 `json:"stdev"`
	Max            float64 `json:"max"`
	WithinStdevPct float64 `json:"within_stdev_pct"`
	Samples        int     `json:"samples"`
}

// ConnectTime summarises connection set-up times in microseconds.
type ConnectTime struct {
	Count int64   `json:"count"`
	Mean  float64 `json:"mean"`
	Max   float64 `json:"max"`
}

// ClientUsage is pummel's own CPU use while it measured.
type ClientUsage struct {
	// CPUSeconds is user + system CPU time of the pummel process.
	CPUSeconds float64 `json:"cpu_s"`
	// CPUPercent is CPUSeconds over the run's time (warm-up included, as
	// in CPUSeconds), as a share of the CPUs pummel may run on (100 = all
	// of them busy). It is 0 when no share was computed: a run shorter
	// than MinUsageSpan, results of separate clients combined, or a
	// platform where pummel cannot read its own CPU time.
	CPUPercent float64 `json:"cpu_pct"`
	// CPUs is how many CPUs pummel may run on.
	CPUs int `json:"cpus"`
	// Saturated is true when CPUPercent reached SaturatedPercent: the
	// figures may then reflect the client rather than the server.
	Saturated bool `json:"saturated"`
}

// ServerUsage is what was observed of one server process under test.
type ServerUsage struct {
	PID              int      `json:"pid"`
	RSSBytes         RSS      `json:"rss_bytes"`
	CPUSeconds       float64  `json:"cpu_s"`
	CPUUsPerRequest  float64  `json:"cpu_us_per_request"`
	StartupS         *float64 `json:"startup_s,omitempty"`
	ExitedDuringLoad bool     `json:"exited,omitempty"`
	// ExitS is when the process was first found gone, in seconds from the
	// start of the measured load (negative: before the load; from the
	// start of watching if the load never started). Set only with
	// ExitedDuringLoad; the exit happened within one sample interval
	// before it.
	ExitS *float64 `json:"exit_s,omitempty"`
	// ExitReason says how the process ended, when that is known: "exit
	// status 3" or "signal: killed" for a server pummel started,
	// "no longer running" or "zombie" for one it only watched.
	ExitReason string `json:"exit_reason,omitempty"`
	// RSSSeries is the RSS over the load, oldest first, for charts: the
	// samples taken from the start of the load to its end (one every
	// --sample-interval), thinned evenly to at most 2,000 points.
	RSSSeries []RSSSample `json:"rss_series,omitempty"`
}

// RSSSample is one point of a server's RSS over time.
type RSSSample struct {
	// T is when the sample was taken, in seconds from the start of the
	// load (as pummel began opening connections, before any warm-up).
	T float64 `json:"t"`
	// Bytes is the resident set size.
	Bytes int64 `json:"bytes"`
}

// RSS holds resident set sizes in bytes at three moments of a run.
type RSS struct {
	Idle  int64 `json:"idle"`
	Peak  int64 `json:"peak"`
	After int64 `json:"after"`
}

// Config is the load shape, secrets redacted: the request as it was sent
// (a script may have changed the command line's), the rest as the user
// asked for it.
type Config struct {
	// URL, Method, Headers and BodyBytes are the request sent, when it was
	// one request for the whole run. Method is "" (absent), Headers nil
	// and BodyBytes 0 when a script's request() made each request
	// (Request); URL is then the command line's.
	URL       string   `json:"url"`
	Method    string   `json:"method,omitempty"`
	Headers   []string `json:"headers,omitempty"`
	BodyBytes int      `json:"body_bytes"`
	// Request is "from script" when a script's request() made each
	// request; "" otherwise.
	Request string `json:"request,omitempty"`
	// RequestSHA256 is the hex SHA-256 of what the requests were made
	// from: the command line's URL and request bytes, and a script's
	// source and arguments. It is equal for every part of one sharded
	// load (even when a script sends each part other requests, by
	// wrk.shard) and differs for another body, header value or script,
	// whatever its length. The digest reveals none of the secrets it
	// covers. "" in results of older versions.
	RequestSHA256 string `json:"request_sha256,omitempty"`
	// Script is the -s script's file name, without its directory, and
	// ScriptSHA256 the hex SHA-256 of its content.
	Script       string  `json:"script,omitempty"`
	ScriptSHA256 string  `json:"script_sha256,omitempty"`
	Connections  int     `json:"connections"`
	Threads      int     `json:"threads"`
	DurationS    float64 `json:"duration_s,omitempty"`
	Requests     int64   `json:"requests,omitempty"`
	TimeoutS     float64 `json:"timeout_s"`
	KeepAlive    bool    `json:"keepalive"`
	// Rates are the open-loop stage rates (-R), in requests/s: for a ramp
	// stage, its mean rate.
	Rates []float64 `json:"rates,omitempty"`
	// Ramps, when a stage ramps (-R 100..2000,2000), holds every stage's
	// starting and final rates, in the order of Rates: equal for a
	// constant stage.
	Ramps []Ramp `json:"ramps,omitempty"`
	// WarmupS is the warm-up time excluded from every figure.
	WarmupS float64 `json:"warmup_s,omitempty"`
	// WarmupRequests is the warm-up request count excluded from every figure.
	WarmupRequests int64 `json:"warmup_requests,omitempty"`
	// ConnectTo and Resolve are the --connect-to rules (HOST:PORT:ADDR:PORT)
	// and --resolve rules (HOST:PORT:ADDR) given, in order.
	ConnectTo []string `json:"connect_to,omitempty"`
	Resolve   []string `json:"resolve,omitempty"`
	// Pipeline is the HTTP/1.1 pipelining depth (1: none).
	Pipeline int `json:"pipeline,omitempty"`
	// Protocol is what the connections spoke: "http/1.1", "h2" (HTTP/2
	// over TLS), "h2c" (HTTP/2 in the clear) or "h3" (HTTP/3); empty in results from
	// before HTTP/2, which were HTTP/1.1.
	Protocol string `json:"protocol,omitempty"`
	// Streams is how many requests each HTTP/2 connection kept in flight
	// at most (--streams).
	Streams int `json:"streams,omitempty"`
	// Engine is the transport that ran the load: "loop" (the event loop)
	// or "goroutine".
	Engine string `json:"engine,omitempty"`
	// Runs is how many times the load ran, one after another: each on a
	// fresh server process with --exec --runs, or saved results merged by
	// pummel report. 0 or 1 means once.
	Runs int `json:"runs,omitempty"`
	// Parallel is how many results ran side by side, merged by pummel
	// report --parallel (the parts of a sharded load among them): their
	// rates add up over the longest duration. 0 or 1 means none.
	Parallel int `json:"parallel,omitempty"`
	// Command is the command line that produced the result, redacted.
	Command string `json:"command,omitempty"`
	// MergedCommands lists the command of every result merged into this
	// one (pummel report), in order, when they were not all the same.
	MergedCommands []string `json:"merged_commands,omitempty"`
}

// Environment describes where a result was measured.
type Environment struct {
	OS            string `json:"os"`
	Arch          string `json:"arch"`
	CPUModel      string `json:"cpu_model,omitempty"`
	CPUs          int    `json:"cpus"`
	MemoryBytes   uint64 `json:"memory_bytes,omitempty"`
	Kernel        string `json:"kernel,omitempty"`
	GoVersion     string `json:"go_version"`
	PummelVersion string `json:"pummel_version"`
	Date          string `json:"date"`
	// Binary identifies the server executable started with --exec.
	Binary *Binary `json:"binary,omitempty"`
}

// Binary identifies an executable: the server under test with --exec.
type Binary struct {
	// Path is the executable's absolute path, as found on $PATH.
	Path string `json:"path"`
	// SizeBytes is the file's size.
	SizeBytes int64 `json:"size_bytes"`
	// SHA256 is the hex SHA-256 of the file's content.
	SHA256 string `json:"sha256"`
	// GitRevision is HEAD of the git work tree holding the file, if any.
	GitRevision string `json:"git_revision,omitempty"`
	// GitDirty is true when that work tree has uncommitted changes to
	// tracked files.
	GitDirty bool `json:"git_dirty,omitempty"`
}

// MinUsageSpan is the shortest measured time over which the client's CPU
// share is computed. The kernel accounts a running thread's CPU time in
// scheduler ticks, so a process's CPU time is uncertain by some
// milliseconds per thread: over a shorter span the share would be noise
// (a one-request run would show well over 100%).
const MinUsageSpan = 250 * time.Millisecond

// Summary is the client's CPU use in words: "4.31s, 54% of 2 CPU(s)", or
// "0.02s on 2 CPU(s)" when no share was computed.
func (u ClientUsage) Summary() string {
	if u.CPUPercent == 0 {
		return fmt.Sprintf("%.2fs on %d CPU(s)", u.CPUSeconds, u.CPUs)
	}
	return fmt.Sprintf("%.2fs, %.0f%% of %d CPU(s)", u.CPUSeconds, u.CPUPercent, u.CPUs)
}

// SaturatedPercent is the share of its CPUs (ClientUsage.CPUPercent) from
// which the client counts as saturated: the figures may then measure
// pummel rather than the server.
const SaturatedPercent = 90

// saturationPrefix starts every SaturationWarning.
const saturationPrefix = "pummel used "

// SaturationWarning is the warning for a client that used SaturatedPercent
// or more of its CPUs: the figures may then reflect the client, not the server.
func SaturationWarning(u ClientUsage) string {
	return fmt.Sprintf(saturationPrefix+"%.0f%% of the %d CPU(s) it may run on: the figures may reflect the client rather than the server (use fewer connections, or give pummel more CPUs than the server)",
		u.CPUPercent, u.CPUs)
}

// QUIC counts the packets and bytes of a run's QUIC connections, over
// their whole lives: handshakes and any warm-up included, retransmissions
// included, UDP and IP headers not.
type QUIC struct {
	PacketsSent     int64 `json:"packets_sent"`
	PacketsReceived int64 `json:"packets_received"`
	PacketsLost     int64 `json:"packets_lost"`
	BytesSent       int64 `json:"bytes_sent"`
	BytesReceived   int64 `json:"bytes_received"`
}

// Add adds o's counts to q's.
func (q *QUIC) Add(o QUIC) {
	q.PacketsSent += o.PacketsSent
	q.PacketsReceived += o.PacketsReceived
	q.PacketsLost += o.PacketsLost
	q.BytesSent += o.BytesSent
	q.BytesReceived += o.BytesReceived
}

// addQUIC is the sum of a and b; nil when both are.
func addQUIC(a, b *QUIC) *QUIC {
	if a == nil && b == nil {
		return nil
	}
	var s QUIC
	for _, q := range []*QUIC{a, b} {
		if q != nil {
			s.Add(*q)
		}
	}
	return &s
}
