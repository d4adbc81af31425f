package stats_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pummel-dev/pummel/internal/golden"
	"github.com/pummel-dev/pummel/stats"
	"github.com/pummel-dev/pummel/stats/internal/statstest"
)

// TestJSONGolden pins WriteJSON's output for every fixture: the schema
// that scripts reading pummel's JSON rely on (TestJSONSchema).
func TestJSONGolden(t *testing.T) {
	for _, f := range statstest.Fixtures(t) {
		t.Run(f.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := stats.WriteJSON(&b, f.Result); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, f.Name+".json.golden", b.Bytes())
		})
	}
}

// TestJSONSchema pins the field names docs/output.md promises, so that a
// renamed struct tag breaks a test rather than every script reading
// pummel's JSON.
func TestJSONSchema(t *testing.T) {
	required := map[string][]string{
		"":                   {"requests", "duration_s", "requests_per_s", "bytes_read", "bytes_written", "status", "errors", "latency_us", "latency_histogram", "config", "environment"},
		"errors":             {"connect", "read", "write", "timeout", "status", "validation"},
		"latency_us":         {"min", "mean", "stdev", "max", "p50", "p75", "p90", "p95", "p99", "p99_9", "p99_99"},
		"environment":        {"os", "arch", "cpu_model", "cpus", "memory_bytes", "kernel", "go_version", "pummel_version", "date"},
		"server.0":           {"pid", "rss_bytes", "cpu_s", "cpu_us_per_request", "startup_s"},
		"server.0.rss_bytes": {"idle", "peak", "after"},
	}
	for _, golden := range []string{"clean", "requests"} {
		t.Run(golden, func(t *testing.T) {
			doc := decodeGolden(t, golden)
			for path, keys := range required {
				if strings.HasPrefix(path, "server") && doc["server"] == nil {
					continue
				}
				obj := lookup(t, doc, path)
				for _, key := range keys {
					if _, ok := obj[key]; !ok {
						t.Errorf("%s.json.golden: %q lacks %q", golden, path, key)
					}
				}
			}
		})
	}
}

func decodeGolden(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".json.golden")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// lookup follows a dotted path of object keys and array indexes ("server.0").
func lookup(t *testing.T, doc map[string]any, path string) map[string]any {
	t.Helper()
	var v any = doc
	for _, step := range strings.Split(path, ".") {
		switch node := v.(type) {
		case map[string]any:
			if step != "" {
				v = node[step]
			}
		case []any:
			if len(node) == 0 || step != "0" {
				t.Fatalf("%s: no element %s", path, step)
			}
			v = node[0]
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%q is %T, not an object", path, v)
	}
	return obj
}

func TestJSONRoundTrip(t *testing.T) {
	for _, f := range statstest.Fixtures(t) {
		t.Run(f.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := stats.WriteJSON(&b, f.Result); err != nil {
				t.Fatal(err)
			}
			got, err := stats.ReadJSON(&b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, f.Result) {
				t.Errorf("ReadJSON(WriteJSON(r)) = %+v\nwant %+v", got, f.Result)
			}
			h, err := stats.DecodeHistogram(got.LatencyHistogram)
			if err != nil {
				t.Fatal(err)
			}
			if f.Result.LatencyHistogram != "" && h.TotalCount() != got.Requests {
				t.Errorf("histogram holds %d values, want %d", h.TotalCount(), got.Requests)
			}
		})
	}
}

func TestReadJSON(t *testing.T) {
	t.Run("fields from a newer pummel are ignored", func(t *testing.T) {
		r, err := stats.ReadJSON(strings.NewReader(`{"requests": 3, "timeline": [{"s": 1}], "errors": {"read": 2, "tls": 1}}`))
		if err != nil {
			t.Fatal(err)
		}
		if r.Requests != 3 || r.Errors.Read != 2 {
			t.Errorf("got requests %d, read errors %d; want 3 and 2", r.Requests, r.Errors.Read)
		}
	})
	for _, tt := range []struct{ name, in string }{
		{"empty input", ""},
		{"truncated object", `{"requests": 3`},
		{"wrong type", `{"requests": "many"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := stats.ReadJSON(strings.NewReader(tt.in)); err == nil {
				t.Errorf("ReadJSON(%q) succeeded, want an error", tt.in)
			}
		})
	}
}
