package capacity

import (
	"strconv"

	"github.com/pummel-dev/pummel/stats"
)

// Verdict is what a step showed.
type Verdict int

const (
	// Pass: every threshold held and the schedule was kept.
	Pass Verdict = iota
	// Fail: the server did not meet the SLO at this rate.
	Fail
	// ClientLimited: pummel could not carry the rate; the step says
	// nothing of the server.
	ClientLimited
	// Undecided: the step's evidence does not tell yet (Judge); the
	// search measures it longer before it gives it a verdict.
	Undecided
	// Inconclusive: still undecided after the longest a step may take.
	// The search goes no higher than it, as it does above a fail, but it
	// says nothing of the server: the answer's bracket names it apart.
	Inconclusive
)

// Settings bound a search.
type Settings struct {
	// From is the lowest rate tried, To the highest (requests/s).
	From, To float64
	// Start is the first rate tried (0: From); the climb goes up from
	// it, and down by StartShare's inverse while nothing passed.
	Start float64
	// Precision ends the bisection when the lowest failing rate is
	// within this share (0.02 = 2%) above the highest passing one.
	Precision float64
	// MaxSteps bounds how many rates are tried (the probe not counted).
	MaxSteps int
}

// Tried is one step's rate and verdict.
type Tried struct {
	Rate    float64
	Verdict Verdict
}

// Bracket is where a search stands: the highest rate that passed below
// the lowest that failed (0 when there is none of either).
type Bracket struct {
	Pass, Fail float64
	// Inconclusive is true when Fail is the rate of an inconclusive step:
	// once a step failed, an inconclusive one between the highest pass and
	// that fail bounds the bisection as a fail does, as nothing above it
	// passed; the answer names it apart. Before any step failed,
	// inconclusive steps do not stop the climb: Unsure is the highest of
	// them above Pass, from which the climb goes on.
	Inconclusive bool
	Unsure       float64
	// Limited is true once a step was client-limited, LimitedAt the
	// lowest such rate.
	Limited   bool
	LimitedAt float64
}

// BracketOf reads the bracket from the steps so far. A pass above a fail
// (noise) does not count: the answer is the highest pass below the
// lowest fail.
func BracketOf(tried []Tried) Bracket {
	var b Bracket
	for _, t := range tried {
		switch t.Verdict {
		case Fail:
			if b.Fail == 0 || t.Rate < b.Fail {
				b.Fail = t.Rate
			}
		case ClientLimited:
			if !b.Limited || t.Rate < b.LimitedAt {
				b.LimitedAt = t.Rate
			}
			b.Limited = true
		}
	}
	for _, t := range tried {
		if t.Verdict == Pass && t.Rate > b.Pass && (b.Fail == 0 || t.Rate < b.Fail) {
			b.Pass = t.Rate
		}
	}
	for _, t := range tried {
		switch {
		case t.Verdict != Inconclusive || t.Rate <= b.Pass:
		case b.Fail == 0:
			b.Unsure = max(b.Unsure, t.Rate)
		case t.Rate < b.Fail:
			b.Fail, b.Inconclusive = t.Rate, true
		}
	}
	return b
}

// StartShare is the share of the probe's closed-loop throughput a search
// starts from when --from is not given: the probe ran every connection
// flat out, so the SLO's rate lies below it, and seldom far below.
const StartShare = 0.25

// Next returns the next rate to try, or ok false when the search is
// over: a step was client-limited, the lowest rate failed, the highest
// rate passed, the bracket is within Settings.Precision, or MaxSteps
// rates were tried. It starts at Start, goes down by a factor of
// 1/StartShare (to From at the lowest) while nothing passed (a
// client-limited step included: a rate below it may pass), climbs
// doubling the highest pass (or inconclusive step: see Bracket), capped
// at To, until a step fails, then bisects the bracket.
func Next(s Settings, tried []Tried) (rate float64, ok bool) {
	b := BracketOf(tried)
	lowest := b.Fail // the lowest rate that did not pass
	if b.Limited && (lowest == 0 || b.LimitedAt < lowest) {
		lowest = b.LimitedAt
	}
	top := max(b.Pass, b.Unsure) // where the climb stands
	switch {
	case len(tried) >= s.MaxSteps, b.Limited && b.Pass > 0:
		return 0, false
	case len(tried) == 0:
		return max(s.Start, s.From), true
	case lowest == 0 && top >= s.To:
		return 0, false // the whole range passed, or told nothing
	case lowest == 0:
		return min(2*top, s.To), true
	case b.Pass == 0 && lowest > s.From:
		return max(s.From, round3(lowest*StartShare)), true
	case b.Pass == 0, b.Limited:
		return 0, false // nothing passed, the lowest rate included
	case b.Fail <= b.Pass*(1+s.Precision):
		return 0, false
	}
	return midpoint(b.Pass, b.Fail), true
}

// Ending says what ended a search whose steps were tried (Next returned
// false): EndedPrecision, EndedMaxSteps, EndedTo, EndedClient or
// EndedFrom.
func Ending(s Settings, tried []Tried) string {
	b := BracketOf(tried)
	switch {
	case b.Limited:
		return stats.EndedClient
	case b.Fail == 0 && max(b.Pass, b.Unsure) >= s.To:
		return stats.EndedTo
	case b.Fail > 0 && b.Pass > 0 && b.Fail <= b.Pass*(1+s.Precision):
		return stats.EndedPrecision
	case b.Pass == 0 && len(tried) < s.MaxSteps:
		return stats.EndedFrom
	}
	return stats.EndedMaxSteps
}

// midpoint is the middle of the bracket (lo, hi), rounded to three
// significant digits so that rates read well, unless rounding would land
// on an edge.
func midpoint(lo, hi float64) float64 {
	mid := (lo + hi) / 2
	if r := round3(mid); r > lo && r < hi {
		return r
	}
	return mid
}

// round3 rounds v to three significant digits.
func round3(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	if err != nil {
		return v
	}
	return r
}
