package stats

// Threshold is the outcome of one pass/fail condition on a result
// (`--threshold p99<20ms`), as the JSON's `thresholds` entries hold it.
type Threshold struct {
	// Expr is the condition as written.
	Expr string `json:"expr"`
	// Value is the measured figure as text in the expression's unit
	// ("23.4ms", "0.12%"), or "-" when the result lacks it (no response
	// answered, no server watched).
	Value string `json:"value"`
	// OK is true when the figure met the condition.
	OK bool `json:"ok"`
}

// Outcome is "ok" or "FAILED", as the text and markdown say it.
func (t Threshold) Outcome() string {
	if t.OK {
		return "ok"
	}
	return "FAILED"
}

// FailedThresholds returns the conditions of ts that failed, in order.
func FailedThresholds(ts []Threshold) []Threshold {
	var failed []Threshold
	for _, t := range ts {
		if !t.OK {
			failed = append(failed, t)
		}
	}
	return failed
}
