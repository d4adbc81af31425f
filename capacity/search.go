package capacity

import "strconv"

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
)

// Settings bound a search.
type Settings struct {
	// From is the lowest rate tried, To the highest (requests/s).
	From, To float64
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
	// Limited is true once a step was client-limited.
	Limited bool
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
			b.Limited = true
		}
	}
	for _, t := range tried {
		if t.Verdict == Pass && t.Rate > b.Pass && (b.Fail == 0 || t.Rate < b.Fail) {
			b.Pass = t.Rate
		}
	}
	return b
}

// Next returns the next rate to try, or ok false when the search is
// over: a step was client-limited, the first rate failed, the highest
// rate passed, the bracket is within Settings.Precision, or MaxSteps
// rates were tried. It climbs from From doubling the highest pass (capped
// at To) until a step fails, then bisects the bracket.
func Next(s Settings, tried []Tried) (rate float64, ok bool) {
	b := BracketOf(tried)
	switch {
	case b.Limited, len(tried) >= s.MaxSteps:
		return 0, false
	case len(tried) == 0:
		return s.From, true
	case b.Pass == 0:
		return 0, false // nothing passed, the lowest rate included
	case b.Fail == 0 && b.Pass >= s.To:
		return 0, false // the whole range passed
	case b.Fail == 0:
		return min(2*b.Pass, s.To), true
	case b.Fail <= b.Pass*(1+s.Precision):
		return 0, false
	}
	return midpoint(b.Pass, b.Fail), true
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
