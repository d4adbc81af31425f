package stats

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/internal/english"
)

// Shard identifies one part of a load that several processes, usually on
// several machines, carry out together (--shard i/N): each sends its share
// of the connections, requests and open-loop schedule of the whole load,
// which its Config describes.
type Shard struct {
	// Index is the part's number, from 0 to Count-1.
	Index int `json:"index"`
	// Count is how many parts the load was split into.
	Count int `json:"count"`
}

// MaxShards is the most parts a load may be split into (--shard i/N) or
// a result may say it is one of: far more machines than one load needs,
// and few enough that the table of a merge's parts, and its missing ones,
// stays small whatever a file claims.
const MaxShards = 10000

// Shards describes the parts of a sharded load merged into one result.
type Shards struct {
	// Count is how many parts the load was split into.
	Count int `json:"count"`
	// Missing lists the indexes of the parts that were not merged: the
	// figures are then those of the parts that were.
	Missing []int `json:"missing,omitempty"`
	// StartSkewS is the time between the earliest and the latest actual
	// start of the parts, in seconds.
	StartSkewS float64 `json:"start_skew_s"`
	// Parts has one entry per part merged, by index.
	Parts []ShardPart `json:"parts"`
}

// ShardPart is one part of a sharded load, as its own result says it.
type ShardPart struct {
	Index int `json:"index"`
	// Start is the part's actual start; StartOffsetS how many seconds
	// after the earliest part's it was.
	Start        string  `json:"start,omitempty"`
	StartOffsetS float64 `json:"start_offset_s"`
	Requests     int64   `json:"requests"`
	RequestsPerS float64 `json:"requests_per_s"`
	Errors       Errors  `json:"errors"`
	// LatencyP99 is the part's 99th percentile in microseconds, null when
	// it received no response.
	LatencyP99 *float64 `json:"latency_p99_us"`
	// ScheduleLagP99 is the part's open-loop schedule lag p99, in
	// microseconds.
	ScheduleLagP99 *float64 `json:"schedule_lag_p99_us,omitempty"`
	// Client is the part's own CPU use: a part at 90% or more may have
	// measured its own limit rather than the server's.
	Client ClientUsage `json:"client"`
}

// shardSettings are the settings every part of one sharded load shares:
// what loadSettings name, and how long the load ran.
var shardSettings = append(slices.Clone(loadSettings), []setting{
	{"duration_s", func(c Config) string { return fmt.Sprint(c.DurationS) }},
	{"requests", func(c Config) string { return fmt.Sprint(c.Requests) }},
	{"warmup_s", func(c Config) string { return fmt.Sprint(c.WarmupS) }},
	{"warmup_requests", func(c Config) string { return fmt.Sprint(c.WarmupRequests) }},
	{"timeout_s", func(c Config) string { return fmt.Sprint(c.TimeoutS) }},
}...)

// sharded reports whether any of rs is a part of a sharded load.
func sharded(rs []Result) bool {
	return slices.ContainsFunc(rs, func(r Result) bool { return r.Shard != nil })
}

// combineShards merges the parts of one sharded load into the result of
// the whole load, as one machine running it would have measured it, with
// the table of its parts (Shards). Parts ran side by side: merged one
// after another they would describe nothing. It refuses parts of
// different loads and a part given twice, and names the missing ones.
func combineShards(rs []Result, how Combination) (Result, error) {
	if how != Parallel {
		return Result{}, fmt.Errorf("the results are parts of a sharded load (shard %d/%d), which ran side by side: merge them with --parallel", rs[0].Shard.Index, rs[0].Shard.Count)
	}
	parts, err := orderParts(rs)
	if err != nil {
		return Result{}, err
	}
	if err := sameLoad(parts); err != nil {
		return Result{}, err
	}
	for i := range parts {
		parts[i].Config.Command = anyShard(parts[i].Config.Command)
	}
	out, err := combineWhole(parts)
	if err != nil {
		return Result{}, err
	}
	stages, stageWarnings, err := combineStages(parts)
	if err != nil {
		return Result{}, err
	}
	out.Stages = stages
	out.Shards = shardTable(parts)
	out.Warnings = append(stageWarnings, partWarnings(parts)...)
	if w := out.Shards.MissingWarning(); w != "" {
		out.Warnings = append([]string{w}, out.Warnings...)
	}
	return out, nil
}

// orderParts returns the parts by index, refusing a result that is not a
// part and a part given twice.
func orderParts(rs []Result) ([]Result, error) {
	seen := map[int]int{}
	for i, r := range rs {
		if r.Shard == nil {
			return nil, fmt.Errorf("result %d is not a part of a sharded load (it has no shard), unlike the others: merge the parts of one load only", i+1)
		}
		if j, ok := seen[r.Shard.Index]; ok {
			return nil, fmt.Errorf("shard %d/%d is given twice (results %d and %d): merge each part once", r.Shard.Index, r.Shard.Count, j+1, i+1)
		}
		seen[r.Shard.Index] = i
	}
	parts := slices.Clone(rs)
	slices.SortStableFunc(parts, func(a, b Result) int { return cmp.Compare(a.Shard.Index, b.Shard.Index) })
	return parts, nil
}

// MaxStartSkew is how late a part of a sharded load may start after its
// planned start (StartAt) and still measure with the others: the engine
// refuses a start time further in the past, and parts whose planned starts
// lie further apart are not one load.
const MaxStartSkew = time.Second

// sameLoad refuses parts that do not make up one load: another shard
// count, another setting of partSettings, another request (sameRequest),
// or planned starts further apart than MaxStartSkew.
func sameLoad(parts []Result) error {
	if err := samePlannedStart(parts); err != nil {
		return err
	}
	first := parts[0]
	for _, p := range parts[1:] {
		if p.Shard.Count != first.Shard.Count {
			return fmt.Errorf("shard %d/%d and shard %d/%d split their loads into different numbers of parts: merge the parts of one load only",
				first.Shard.Index, first.Shard.Count, p.Shard.Index, p.Shard.Count)
		}
		for _, s := range partSettings(first, p) {
			if a, b := s.value(first.Config), s.value(p.Config); a != b {
				return fmt.Errorf("shard %d and shard %d ran different loads (config.%s: %s, %s): merge the parts of one load only",
					first.Shard.Index, p.Shard.Index, s.name, a, b)
			}
		}
		if err := sameRequest(first, p); err != nil {
			return err
		}
	}
	return nil
}

// samePlannedStart refuses parts whose planned starts (StartAt) are more
// than MaxStartSkew apart, naming the earliest and the latest: parts
// run an hour or a day apart are not one load. A part without a planned
// start is not compared.
func samePlannedStart(parts []Result) error {
	var first, last int
	var early, late time.Time
	found := false
	for i, p := range parts {
		at, ok := parseStart(p.StartAt)
		if !ok {
			continue
		}
		if !found || at.Before(early) {
			first, early = i, at
		}
		if !found || at.After(late) {
			last, late = i, at
		}
		found = true
	}
	if found && late.Sub(early) > MaxStartSkew {
		return fmt.Errorf("shard %d and shard %d were planned to start %s apart (start_at: %s, %s), more than %s: merge the parts of one load only",
			parts[first].Shard.Index, parts[last].Shard.Index, late.Sub(early), parts[first].StartAt, parts[last].StartAt, MaxStartSkew)
	}
	return nil
}

// shardValue is a --shard value in a recorded command line.
var shardValue = regexp.MustCompile(`(^|\s)(--?shard[= ])\d+/`)

// anyShard writes the part's index in a command line as i, so that the
// parts' commands read as the one command every machine ran.
func anyShard(command string) string {
	return shardValue.ReplaceAllString(command, "${1}${2}i/")
}

// combineWhole merges parts that ran side by side into the result of the
// whole load: threads and CPUs add up, as do the open-loop rates of the
// parts' shares of one schedule.
func combineWhole(parts []Result) (Result, error) {
	out, err := combine(parts, Parallel)
	if err != nil {
		return Result{}, err
	}
	out.Config.Threads, out.Client.CPUs = 0, 0
	for _, p := range parts {
		out.Config.Threads += p.Config.Threads
		out.Client.CPUs += p.Client.CPUs
	}
	for _, p := range parts { // 0 in closed loop and across stages
		out.TargetRate += p.TargetRate
		out.AchievedRate += p.AchievedRate
		if p.Ramp != nil { // the parts' shares of one ramp
			if out.Ramp == nil {
				out.Ramp = &Ramp{}
			}
			out.Ramp.From += p.Ramp.From
			out.Ramp.To += p.Ramp.To
		}
	}
	out.AttackS, out.WaitS = scheduleSpan(parts)
	return out, nil
}

// scheduleSpan is the attack and wait time of the whole schedule: from
// the earliest part's start to the last send of any, and from there to
// the last response of any; 0 and 0 in closed loop.
func scheduleSpan(parts []Result) (attack, wait float64) {
	if !slices.ContainsFunc(parts, func(p Result) bool { return p.AttackS > 0 }) {
		return 0, 0
	}
	offsets, _ := startOffsets(parts)
	var end float64
	for i, p := range parts {
		attack = max(attack, offsets[i]+p.AttackS)
		end = max(end, offsets[i]+p.AttackS+p.WaitS)
	}
	return attack, end - attack
}

// combineStages merges the parts' rate stages, stage by stage. Parts that
// ran different numbers of stages have none merged, and a warning for
// each part that ran fewer than the most says so.
func combineStages(parts []Result) (stages []Result, warnings []string, err error) {
	n := len(parts[0].Stages)
	for _, p := range parts {
		n = max(n, len(p.Stages))
	}
	for _, p := range parts {
		if k := len(p.Stages); k < n {
			warnings = append(warnings, fmt.Sprintf("shard %d ran %d of %d stages: stages not merged", p.Shard.Index, k, n))
		}
	}
	if n == 0 || warnings != nil {
		return nil, warnings, nil
	}
	stages = make([]Result, n)
	for k := range stages {
		same := make([]Result, len(parts))
		for i, p := range parts {
			same[i] = p.Stages[k]
			same[i].Shard = p.Shard // for its warnings
		}
		st, err := combineWhole(same)
		if err != nil {
			return nil, nil, fmt.Errorf("stage %d: %w", k+1, err)
		}
		st.Warnings = partWarnings(same)
		stages[k] = st
	}
	return stages, nil, nil
}

// shardTable lists the parts, their start skew and the missing ones.
func shardTable(parts []Result) *Shards {
	offsets, known := startOffsets(parts)
	t := &Shards{Count: parts[0].Shard.Count}
	present := map[int]bool{}
	for i, p := range parts {
		present[p.Shard.Index] = true
		row := ShardPart{Index: p.Shard.Index, Start: p.Start, StartOffsetS: offsets[i], Requests: p.Requests,
			RequestsPerS: p.RequestsPerS, Errors: p.Errors, Client: p.Client}
		if p.Latency != nil {
			row.LatencyP99 = ptr(p.Latency.P99)
		}
		if p.ScheduleLag != nil {
			row.ScheduleLagP99 = ptr(p.ScheduleLag.P99)
		}
		t.Parts = append(t.Parts, row)
		if known[i] {
			t.StartSkewS = max(t.StartSkewS, offsets[i])
		}
	}
	for i := range t.Count {
		if !present[i] {
			t.Missing = append(t.Missing, i)
		}
	}
	return t
}

// partWarnings says each part's warnings, its client's saturation among
// them, prefixed with the part: "shard 2: pummel used 97% of …".
func partWarnings(parts []Result) []string {
	var out []string
	for _, p := range parts {
		for _, w := range p.Warnings {
			out = append(out, fmt.Sprintf("shard %d: %s", p.Shard.Index, w))
		}
	}
	return out
}

// MissingWarning names the parts that were not merged, or is "" when
// none is missing (or t is nil).
func (t *Shards) MissingWarning() string {
	if t == nil || len(t.Missing) == 0 {
		return ""
	}
	return fmt.Sprintf("%s of %d missing (%s): the figures are those of %d of the %d parts of the load, not of the whole",
		english.Plural(len(t.Missing), "shard"), t.Count, t.MissingList(), len(t.Parts), t.Count)
}

// MissingList lists the indexes of the missing parts: "1, 3".
func (t *Shards) MissingList() string {
	items := make([]string, len(t.Missing))
	for i, n := range t.Missing {
		items[i] = fmt.Sprint(n)
	}
	return strings.Join(items, ", ")
}

// ptr returns a pointer to a copy of v.
func ptr(v float64) *float64 { return &v }
