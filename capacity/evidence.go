package capacity

import (
	"math"

	"github.com/pummel-dev/pummel/threshold"
)

// Confidence is how sure a step's verdict on a share threshold is: a
// step passes "p99<5ms" when, had more than 1% of its responses been
// 5 ms or slower in truth, a count as low as the one it saw would come
// up less than 5% of the time; it fails when a count as high would come
// up less than 5% of the time had at most 1% been; otherwise it is not
// yet decided. The tests are exact one-sided binomial tests (the
// Clopper-Pearson bounds), so the confidence holds for any number of
// samples, small ones included.
const Confidence = 0.95

// decision is what the evidence of one threshold says.
type decision int

const (
	undecided decision = iota
	holds
	breaks
)

// decide judges ev at Confidence: holds when the share of outcomes
// against the threshold is confidently under the share it allows,
// breaks when confidently over.
func decide(ev threshold.Evidence) decision {
	n, k, p := ev.Outcomes, ev.Against, ev.Allowed
	if n <= 0 || p <= 0 || p >= 1 {
		return undecided
	}
	alpha := 1 - Confidence
	expected := float64(n) * p
	switch {
	case float64(k) < expected && binomialAtMost(k, n, p) <= alpha:
		return holds
	case float64(k) > expected && binomialAtLeast(k, n, p) <= alpha:
		return breaks
	}
	return undecided
}

// samplesToPass is the fewest outcomes on which a threshold that allows
// the share p can be judged to hold: all of them on its side
// (binomialAtMost(0, n, p) = (1 − p)^n ≤ 1 − Confidence): 299 for p99,
// 2,995 for p99.9 or errors<0.1%.
func samplesToPass(p float64) int64 {
	if p <= 0 || p >= 1 {
		return 0
	}
	return int64(math.Ceil(math.Log(1-Confidence) / math.Log1p(-p)))
}

// binomialAtMost is P(X ≤ k) for X ~ Binomial(n, p), k below the mean.
func binomialAtMost(k, n int64, p float64) float64 { return binomialTail(k, n, p, -1) }

// binomialAtLeast is P(X ≥ k) for X ~ Binomial(n, p), k above the mean.
func binomialAtLeast(k, n int64, p float64) float64 { return binomialTail(k, n, p, +1) }

// binomialTail sums P(X = i) from i = k away from the mean (step -1:
// down to 0; +1: up to n), where the terms fall, until they no longer
// count.
func binomialTail(k, n int64, p float64, step int64) float64 {
	var sum float64
	for i := k; i >= 0 && i <= n; i += step {
		t := math.Exp(logBinomial(i, n, p))
		sum += t
		if t < sum*1e-17 {
			break
		}
	}
	return sum
}

// logBinomial is the log of P(X = i) for X ~ Binomial(n, p).
func logBinomial(i, n int64, p float64) float64 {
	lg := func(x int64) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	return lg(n) - lg(i) - lg(n-i) + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p)
}
