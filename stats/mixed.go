package stats

import (
	"fmt"
	"slices"
	"strings"
)

// setting is one field of Config, named as in JSON, as text.
type setting struct {
	name  string
	value func(Config) string
}

// loadSettings are the settings that make two results' loads different
// ones: what is sent, where, and how the load is applied. How long a load
// ran (duration, requests, warm-up) does not: runs of one load merge.
var loadSettings = []setting{
	{"url", func(c Config) string { return c.URL }},
	{"method", func(c Config) string { return c.Method }},
	{"headers", func(c Config) string { return strings.Join(c.Headers, "\n") }},
	{"body_bytes", func(c Config) string { return fmt.Sprint(c.BodyBytes) }},
	{"connections", func(c Config) string { return fmt.Sprint(c.Connections) }},
	{"keepalive", func(c Config) string { return fmt.Sprint(c.KeepAlive) }},
	{"pipeline", func(c Config) string { return fmt.Sprint(max(c.Pipeline, 1)) }},
	{"rates", func(c Config) string { return fmt.Sprint(c.Rates) }},
}

// MixedLoads returns a warning naming the settings (config fields) in
// which the results' loads differ, or "" when they ran one load: merged,
// their figures would describe none of them.
func MixedLoads(rs []Result) string {
	differ := LoadDifferences(rs)
	if len(differ) == 0 {
		return ""
	}
	return fmt.Sprintf("the merged results ran different loads (%s differ): their figures describe none of them; the commands are listed",
		strings.Join(differ, ", "))
}

// LoadDifferences names the settings (config fields) in which the
// results' loads differ; none when they ran one load.
func LoadDifferences(rs []Result) []string {
	var differ []string
	for _, s := range loadSettings {
		for _, r := range rs[min(1, len(rs)):] {
			if s.value(r.Config) != s.value(rs[0].Config) {
				differ = append(differ, s.name)
				break
			}
		}
	}
	return differ
}

// mergedCommands lists the command of every result, in order (a result
// that was itself merged gives its own list), or nil when they are all
// the same.
func mergedCommands(rs []Result) []string {
	var all []string
	for _, r := range rs {
		if len(r.Config.MergedCommands) > 0 {
			all = append(all, r.Config.MergedCommands...)
		} else {
			all = append(all, r.Config.Command)
		}
	}
	if len(slices.Compact(slices.Clone(all))) <= 1 {
		return nil
	}
	return all
}
