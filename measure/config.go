package measure

import (
	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/stats"
)

// MaxRuns bounds how many fresh server processes one measurement starts
// one after another: --runs, and a plan's runs.
const MaxRuns = 1000

// ConfigOf is the load c describes as every output records it, with the
// URL and headers as configured (callers redact them, or show them as the
// user wrote them) and no command line.
func ConfigOf(c engine.Config) stats.Config {
	rc := stats.Config{
		Connections:    c.Connections,
		Threads:        c.Threads,
		DurationS:      c.Duration.Seconds(),
		Requests:       c.Requests,
		TimeoutS:       c.Timeout.Seconds(),
		KeepAlive:      !c.NoKeepAlive,
		Pipeline:       c.Pipeline,
		Rates:          c.Rates,
		WarmupS:        c.Warmup.Seconds(),
		WarmupRequests: c.WarmupRequests,
		Engine:         c.Transport(),
		Protocol:       c.Protocol(),
	}
	if c.HTTP2 {
		rc.Streams = max(c.Streams, 1)
	}
	for _, r := range c.ConnectTo {
		if r.Resolve {
			rc.Resolve = append(rc.Resolve, r.String())
		} else {
			rc.ConnectTo = append(rc.ConnectTo, r.String())
		}
	}
	if len(c.RampFrom) > 0 {
		rc.Rates, rc.Ramps = make([]float64, len(c.Rates)), make([]stats.Ramp, len(c.Rates))
		for i, r := range c.Rates {
			rc.Rates[i], rc.Ramps[i] = c.MeanRate(i), stats.Ramp{From: c.RampFrom[i], To: r}
		}
	}
	c.RecordRequest(&rc)
	return rc
}
