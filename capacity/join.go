package capacity

import (
	"slices"

	"github.com/pummel-dev/pummel/stats"
)

// joinParts makes the parts of one step, measured one after another at
// one rate (the step, then the loads that measured on while its evidence
// did not tell), one result: counters summed and histograms merged
// exactly (stats.Combine), and what Combine leaves out of separate
// schedules and servers put back, as one schedule and one server seen
// over the whole: the target rate, the achieved rate over all the
// sending time, the late sends summed and the worst lag, and each
// watched process's peak (the highest), CPU (summed) and RSS before and
// after (the first part's and the last's).
func joinParts(parts []stats.Result) (stats.Result, error) {
	if len(parts) == 1 {
		return parts[0], nil
	}
	out, err := stats.Combine(parts, stats.Sequential)
	if err != nil {
		return stats.Result{}, err
	}
	first, last := parts[0], parts[len(parts)-1]
	out.Config, out.Start = first.Config, first.Start
	out.Warnings = nil
	for _, p := range parts {
		for _, w := range p.Warnings {
			if !slices.Contains(out.Warnings, w) {
				out.Warnings = append(out.Warnings, w)
			}
		}
	}
	out.TargetRate, out.WaitS = first.TargetRate, last.WaitS
	var sent float64
	for _, p := range parts {
		out.AttackS += p.AttackS
		sent += p.AchievedRate * p.AttackS
		out.ScheduleLag = worseLag(out.ScheduleLag, p.ScheduleLag)
	}
	if out.AttackS > 0 {
		out.AchievedRate = sent / out.AttackS
	}
	out.Server = joinServers(parts, out.Requests)
	return out, nil
}

// worseLag adds b's late sends to a's and keeps the worse of each
// percentile: one schedule's lag over both.
func worseLag(a, b *stats.ScheduleLag) *stats.ScheduleLag {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		c := *b
		return &c
	case b == nil:
		return a
	}
	return &stats.ScheduleLag{P50: max(a.P50, b.P50), P99: max(a.P99, b.P99), Max: max(a.Max, b.Max), LateSends: a.LateSends + b.LateSends}
}

// joinServers joins the watched processes of the parts, the same ones
// in the same order in each: requests is the whole step's, for the CPU
// per request.
func joinServers(parts []stats.Result, requests int64) []stats.ServerUsage {
	out := slices.Clone(parts[0].Server)
	for i := range out {
		s := &out[i]
		s.RSSSeries = slices.Clone(s.RSSSeries)
		for _, p := range parts[1:] {
			if i >= len(p.Server) || p.Server[i].PID != s.PID {
				continue
			}
			next := p.Server[i]
			s.RSSBytes.Peak = max(s.RSSBytes.Peak, next.RSSBytes.Peak)
			s.RSSBytes.After = next.RSSBytes.After
			s.CPUSeconds += next.CPUSeconds
			s.ExitedDuringLoad = s.ExitedDuringLoad || next.ExitedDuringLoad
			var offset float64
			if n := len(s.RSSSeries); n > 0 {
				offset = s.RSSSeries[n-1].T
			}
			for _, pt := range next.RSSSeries {
				s.RSSSeries = append(s.RSSSeries, stats.RSSSample{T: offset + pt.T, Bytes: pt.Bytes})
			}
		}
		if requests > 0 {
			s.CPUUsPerRequest = s.CPUSeconds * 1e6 / float64(requests)
		}
	}
	return out
}
