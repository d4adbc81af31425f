package record

// Merge returns a new Recorder holding everything recs hold: histograms
// merged, counters summed. The recorders are left untouched.
func Merge(recs []*Recorder) *Recorder {
	all := New()
	for _, r := range recs {
		all.merge(r)
	}
	return all
}

func (r *Recorder) merge(other *Recorder) {
	t, o := &r.t, &other.t
	t.Dropped += o.Dropped + t.Latency.Merge(o.Latency)
	t.MinNs = min(t.MinNs, o.MinNs)
	t.MaxNs = max(t.MaxNs, o.MaxNs)
	t.Requests += o.Requests
	t.BytesRead += o.BytesRead
	t.BytesWritten += o.BytesWritten
	for code, n := range o.Status {
		t.Status[code] += n
	}
	for i, n := range o.Errors {
		t.Errors[i] += n
	}
	for c, n := range o.Causes {
		t.Causes[c] += n
	}
	if o.Uncorrected != nil {
		if t.Uncorrected == nil {
			t.Uncorrected, t.Lag = NewHistogram(), NewHistogram()
		}
		t.Dropped += t.Uncorrected.Merge(o.Uncorrected)
		t.Lag.Merge(o.Lag)
		t.LateSends += o.LateSends
	}
	if o.AnySent {
		if !t.AnySent || o.FirstSend < t.FirstSend {
			t.FirstSend, t.AnySent = o.FirstSend, true
		}
		t.LastSend = max(t.LastSend, o.LastSend)
		t.LastDone = max(t.LastDone, o.LastDone)
	}
	t.Reconnects += o.Reconnects
	t.Connects += o.Connects
	t.ConnectSum += o.ConnectSum
	t.ConnectMax = max(t.ConnectMax, o.ConnectMax)
	r.mergeTargets(other)
}
