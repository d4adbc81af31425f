package render

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// writeOpenLoop prints, for an open-loop result, the block Vegeta users
// know, once per stage: requests, durations, latencies, bytes, success,
// status codes and the error set, plus the uncorrected latencies and the
// schedule lag that only an open-loop run has.
func writeOpenLoop(ew *Printer, r stats.Result) {
	stages := r.Stages
	if len(stages) == 0 {
		if r.TargetRate == 0 {
			return
		}
		stages = []stats.Result{r}
	}
	for i, st := range stages {
		ew.Printf("\nStage %d of %d: %s requests/s for %s\n", i+1, len(stages), st.TargetName(), seconds(r.Config.DurationS))
		writeVegetaBlock(ew, st)
	}
}

// vegetaRow prints one "Name [fields] values" line, aligned as Vegeta does.
func vegetaRow(ew *Printer, name, fields, values string) {
	ew.Printf("%-13s %-34s %s\n", name, "["+fields+"]", values)
}

func writeVegetaBlock(ew *Printer, r stats.Result) {
	sent := r.Requests + r.Errors.Socket()
	ok := r.Requests - r.Errors.Status - r.Errors.Validation
	total := r.AttackS + r.WaitS
	throughput := 0.0
	if total > 0 {
		throughput = float64(ok) / total
	}
	vegetaRow(ew, "Requests", "total, rate, throughput", fmt.Sprintf("%d, %.2f, %.2f", sent, r.AchievedRate, throughput))
	vegetaRow(ew, "Duration", "total, attack, wait", strings.Join([]string{seconds(total), seconds(r.AttackS), seconds(r.WaitS)}, ", "))
	vegetaRow(ew, "Latencies", "min, mean, 50, 90, 95, 99, max", latencyList(r.Latency))
	if u := r.LatencyUncorrected; u != nil {
		vegetaRow(ew, "Uncorrected", "min, mean, 50, 90, 95, 99, max", latencyList(u))
	}
	if l := r.ScheduleLag; l != nil {
		vegetaRow(ew, "Schedule lag", "50, 99, max, sends > 2ms late", fmt.Sprintf("%s, %s, %s, %d",
			micros(l.P50), micros(l.P99), micros(l.Max), l.LateSends))
	}
	vegetaRow(ew, "Bytes In", "total, mean", byteMean(r.BytesRead, sent))
	vegetaRow(ew, "Bytes Out", "total, mean", byteMean(r.BytesWritten, sent))
	ratio := 0.0
	if sent > 0 {
		ratio = 100 * float64(ok) / float64(sent)
	}
	vegetaRow(ew, "Success", "ratio", fmt.Sprintf("%.2f%%", ratio))
	vegetaRow(ew, "Status Codes", "code:count", statusCounts(r.Status))
	ew.Printf("Error Set:\n")
	for _, e := range errorSet(r) {
		ew.Printf("%s\n", e)
	}
}

// latencyList is Vegeta's list of latencies, or absent without any.
func latencyList(l *stats.Latency) string {
	if l == nil {
		return absent
	}
	vals := []float64{l.Min, l.Mean, l.P50, l.P90, l.P95, l.P99, l.Max}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = micros(v)
	}
	return strings.Join(parts, ", ")
}

// seconds prints a time in seconds as Vegeta prints a duration.
func seconds(s float64) string {
	return FormatDuration(time.Duration(s * float64(time.Second)).Round(time.Microsecond))
}

// micros prints a time in microseconds as Vegeta prints a duration.
func micros(us float64) string { return FormatDuration(stats.Micros(us)) }

func byteMean(total, n int64) string {
	mean := 0.0
	if n > 0 {
		mean = float64(total) / float64(n)
	}
	return fmt.Sprintf("%d, %.2f", total, mean)
}

func statusCounts(status map[string]int64) string {
	codes := sortedCodes(status)
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%s:%d", c, status[c])
	}
	return strings.Join(parts, "  ")
}

// errorSet lists each distinct error with its count, as Vegeta's Error Set
// lists each distinct error.
func errorSet(r stats.Result) []string {
	var set []string
	for class, causes := range r.ErrorCauses {
		for cause, n := range causes {
			set = append(set, fmt.Sprintf("%s: %s (%d)", class, cause, n))
		}
	}
	for _, code := range sortedCodes(r.Status) {
		if len(code) == 3 && code >= "400" {
			set = append(set, fmt.Sprintf("status %s (%d)", code, r.Status[code]))
		}
	}
	sort.Strings(set)
	return set
}
