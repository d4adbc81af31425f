package suite

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/internal/english"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/record"
	"github.com/pummel-dev/pummel/stats/render"
)

// failedChecks counts the responses of res that failed one of op's
// checks, by cause. The engine puts each response in one error class: a
// status of 400 or more is a `status` error (as wrk counts it) and is not
// checked further, while a response under 400 that fails a check is a
// `validation` error with its cause. So the refused statuses of 400 and
// more are read from the status counts, not from the `status` class,
// which would also count a status the plan accepts (checks: {status: 404}).
func (op *recordedConfig) failedChecks(res stats.Result) (int64, map[string]int64) {
	n := res.Errors.Validation
	causes := maps.Clone(res.ErrorCauses[record.Validation.String()])
	for text, count := range res.Status {
		code, err := strconv.Atoi(text)
		if err != nil || code < 400 || parse.StatusIn(op.checks.Status, code) {
			continue
		}
		if causes == nil {
			causes = map[string]int64{}
		}
		causes["unexpected status "+text] += count
		n += count
	}
	return n, causes
}

// maxCausesPerLine bounds the causes a failure line quotes.
const maxCausesPerLine = 3

// Failures describes each failed condition of the result in one line: an
// operation whose responses failed a check in a mode, with how many and
// the commonest causes; then each failed threshold. None means every
// check and threshold passed.
func (r *Result) Failures() []string {
	var lines []string
	for _, s := range r.Summary.Operations {
		if s.CheckFailures == 0 {
			continue
		}
		lines = append(lines, fmt.Sprintf("operation %s, mode %s: %s of %s failed a check (%s)", s.Operation, s.Mode,
			render.FormatCount(s.CheckFailures), english.Plural(int(s.Requests), "response"), causeList(s.CheckCauses)))
	}
	return append(lines, r.thresholdFailures()...)
}

// causeList names the commonest causes with their counts, most first.
func causeList(causes map[string]int64) string {
	names := slices.SortedFunc(maps.Keys(causes), func(a, b string) int {
		return cmp.Or(cmp.Compare(causes[b], causes[a]), cmp.Compare(a, b))
	})
	var parts []string
	for _, name := range names[:min(len(names), maxCausesPerLine)] {
		parts = append(parts, fmt.Sprintf("%s × %s", render.FormatCount(causes[name]), render.OneLine(name)))
	}
	if len(names) > maxCausesPerLine {
		parts = append(parts, "…")
	}
	return strings.Join(parts, ", ")
}
