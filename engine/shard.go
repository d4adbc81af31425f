package engine

import (
	"time"

	"github.com/pummel-dev/pummel/internal/wait"
	"github.com/pummel-dev/pummel/stats"
)

// Shard names one part of a load that several processes, usually on
// several machines, carry out together. Connections, Requests (and its
// warm-up) and the open-loop schedule are the whole load's, and each part
// takes its exact share: -c 1000 over 3 parts is 334, 333 and 333, and
// part i of N sends the schedule's requests i, i+N, i+2N…, so that the
// parts' schedules together are the whole one. Threads stays per part.
// The zero value is the whole load.
type Shard struct {
	Index, Count int
}

// whole reports whether s is the whole load.
func (s Shard) whole() bool { return s.Count <= 1 }

// Share is this part's exact share of total (of -c, -n or the warm-up
// count): the first total%Count parts take one more.
func (s Shard) Share(total int64) int64 {
	if s.whole() {
		return total
	}
	n := total / int64(s.Count)
	if int64(s.Index) < total%int64(s.Count) {
		n++
	}
	return n
}

// Rate is this part's share of a total rate (-R): every Count-th request
// of the whole schedule.
func (s Shard) Rate(total float64) float64 {
	if s.whole() {
		return total
	}
	return total / float64(s.Count)
}

// validate checks the shard and that every part gets a connection and,
// with -n, a request: a part with none of -n's requests would have no
// limit at all.
func (s Shard) validate(connections int, requests int64) error {
	switch {
	case s.Count < 0 || s.Count > 0 && (s.Index < 0 || s.Index >= s.Count):
		return invalid("shard", "%d/%d, want i/N with 0 ≤ i < N", s.Index, s.Count)
	case s.Count > stats.MaxShards:
		return invalid("shard", "%d/%d: a load splits into at most %d parts", s.Index, s.Count, stats.MaxShards)
	case !s.whole() && connections < s.Count:
		return invalid("shard", "%d connections cannot be shared by %d parts; raise {connections} to at least %d", connections, s.Count, s.Count)
	case !s.whole() && requests > 0 && requests < int64(s.Count):
		return invalid("shard", "%d requests cannot be shared by %d parts; raise {requests} to at least %d", requests, s.Count, s.Count)
	}
	return nil
}

// part returns the configuration of this part of the load: its share of
// the connections and requests; the schedule is shared by schedule.share.
func (c Config) part() Config {
	if c.Shard.whole() {
		return c
	}
	c.Connections = int(c.Shard.Share(int64(c.Connections)))
	c.Requests = c.Shard.Share(c.Requests)
	c.WarmupRequests = c.Shard.Share(c.WarmupRequests)
	return c
}

// maxStartSkew is how far in the past Config.StartAt may be: a part
// started that late still measures with the others, one later would not.
const maxStartSkew = stats.MaxStartSkew

// openLead is how long before Config.StartAt the connections are opened.
const openLead = time.Second

// waitUntil waits until lead before at, a Config.StartAt (the zero time:
// no wait); it returns ctx's error if the run is cancelled first.
func (r *Load) waitUntil(at time.Time, lead time.Duration) error {
	if at.IsZero() {
		return nil
	}
	if d := time.Until(at.Add(-lead)); d > 0 {
		return wait.For(r.Ctx, d)
	}
	return nil
}
