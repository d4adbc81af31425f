package suite

import (
	"fmt"
	"io"

	"github.com/pummel-dev/pummel/stats"
)

// Result is everything a suite measured: plain data, the JSON schema of
// `pummel suite` field by field. The renderers read only this type.
type Result struct {
	// Name titles the results (the plan's name).
	Name string `json:"name"`
	// PlanFile is the plan's path as given.
	PlanFile string `json:"plan_file"`
	// Plan is the plan as written: placeholders and ${VAR} references are
	// kept, never their values; secret-looking header and environment
	// values are redacted.
	Plan Plan `json:"plan"`
	// Environment describes the machine, pummel and the server's binary.
	Environment stats.Environment `json:"environment"`
	// Modes are the modes' names, in plan order.
	Modes []string `json:"modes"`
	// RunsPerMode is how many fresh server processes each mode was to get.
	RunsPerMode int `json:"runs_per_mode"`
	// Operations describe the operations, in plan order.
	Operations []OperationInfo `json:"operations"`
	// Runs holds every run in the order it ran: modes interleaved.
	Runs []RunResult `json:"runs"`
	// Summary holds the figures of the tables, over the runs.
	Summary Summary `json:"summary"`
	// CheckFailures counts the responses that failed a check, in all runs.
	CheckFailures int64 `json:"check_failures"`
	// Error says why the suite stopped before its last run, if it did.
	Error string `json:"error,omitempty"`
	// Interrupted is true when the suite was stopped (Ctrl-C).
	Interrupted bool `json:"interrupted,omitempty"`
	// Export says what --export pushed (absent without it).
	Export *stats.Export `json:"export,omitempty"`
}

// OperationInfo describes one operation of the plan.
type OperationInfo struct {
	Name string `json:"name"`
	// Method and URL are the request; the URL keeps its placeholders.
	Method string `json:"method"`
	URL    string `json:"url"`
	// Load says how the load is applied, in words.
	Load string `json:"load"`
	// DependsOn names the operation this one depends on.
	DependsOn string `json:"depends_on,omitempty"`
	// Thresholds are the operation's pass/fail conditions, as written.
	Thresholds []string `json:"thresholds,omitempty"`
}

// RunResult is one run: one fresh server process of one mode.
type RunResult struct {
	Mode string `json:"mode"`
	// Run numbers the runs of a mode from 1.
	Run int `json:"run"`
	// PID is the server's process id.
	PID int `json:"pid,omitempty"`
	// Log is the file that holds the server's stdout and stderr.
	Log string `json:"log,omitempty"`
	// Tmpdir is the run's {tmpdir}, removed after the run.
	Tmpdir string `json:"tmpdir"`
	// StartupS is the time from spawn to the first good response on the
	// ready URL, in seconds.
	StartupS float64 `json:"startup_s"`
	// IdleRSSBytes is the median of the idle samples taken after the
	// settle time, before the first operation.
	IdleRSSBytes int64 `json:"idle_rss_bytes"`
	// RSSAfterBytes is sampled after the last operation.
	RSSAfterBytes int64 `json:"rss_after_bytes"`
	// Samples is every RSS (and CPU) sample taken of the server.
	Samples []Sample `json:"rss_samples"`
	// Operations holds each operation's outcome, in plan order.
	Operations []OperationResult `json:"operations"`
	// Warnings are things the reader should know (a server that would
	// not stop, a temporary directory left behind).
	Warnings []string `json:"warnings,omitempty"`
	// Error says why the run could not be completed.
	Error string `json:"error,omitempty"`
}

// Sample is one reading of the server's memory and CPU time.
type Sample struct {
	// Phase is what the run was doing: "idle", "operation NAME" or "after".
	Phase string `json:"phase"`
	// OffsetS is the time since the server was ready and settled.
	OffsetS  float64 `json:"offset_s"`
	RSSBytes int64   `json:"rss_bytes"`
	// CPUS is the server's user + system CPU time since it started.
	CPUS float64 `json:"cpu_s"`
}

// OperationResult is one operation in one run.
type OperationResult struct {
	Name string `json:"name"`
	// Skipped says why the operation did not run (its dependency failed
	// a check, or was skipped); Result is then empty.
	Skipped string `json:"skipped,omitempty"`
	// CheckFailures counts responses that failed a check, and
	// CheckCauses breaks them down by cause ("unexpected status 503").
	CheckFailures int64            `json:"check_failures"`
	CheckCauses   map[string]int64 `json:"check_causes,omitempty"`
	// Result is the engine's complete result, with the server's CPU time
	// and peak RSS during the operation under server, and its latency
	// histogram: `pummel report` reads it as a saved result.
	Result *stats.Result `json:"result,omitempty"`
}

// WriteJSON writes r as one indented JSON object followed by a newline.
func WriteJSON(w io.Writer, r *Result) error {
	if err := stats.EncodeJSON(w, r); err != nil {
		return fmt.Errorf("writing the suite's JSON: %w", err)
	}
	return nil
}
