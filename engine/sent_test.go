package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

// TestRunRecordsWhatWasSent runs scripts that change the request and checks
// that the result's config says what the server received, not what the
// command line asked for, and names the script by its base name and digest.
func TestRunRecordsWhatWasSent(t *testing.T) {
	fields := "wrk.method = 'POST'\nwrk.path = '/other?q=1'\nwrk.body = '0123456789abcdef'\nwrk.headers['X-Test'] = '1'\n"
	tests := []struct {
		name   string
		src    string
		seen   seen         // method, path and body the server received
		config stats.Config // with at most one header, the one wanted among the script's
	}{
		{"wrk fields", fields, seen{method: "POST", path: "/other", body: "0123456789abcdef"},
			stats.Config{Method: "POST", URL: "/other?q=1", BodyBytes: 16, Headers: []string{"X-Test: 1"}}},
		{"wrk fields and a response()", fields + "function response(status, headers, body) end\n",
			seen{method: "POST", path: "/other", body: "0123456789abcdef"},
			stats.Config{Method: "POST", URL: "/other?q=1", BodyBytes: 16, Headers: []string{"X-Test: 1"}}},
		{"request()", "function request() return wrk.format('PUT', '/made') end\n", seen{method: "PUT", path: "/made"},
			stats.Config{URL: "/from-flags", Request: RequestFromScript}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, got := recordingServer(t)
			u.Path = "/from-flags"
			cfg := Config{URL: u, Requests: 3, Connections: 1, Threads: 1, Timeout: 5 * time.Second}
			withScript(t, &cfg, luaFile(t, "wire.lua", tt.src))
			res, err := Run(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if s := got(); len(s) == 0 || s[0].method != tt.seen.method || s[0].path != tt.seen.path || s[0].body != tt.seen.body {
				t.Fatalf("server saw %+v, want %+v", s, tt.seen)
			}
			c, want := res.Config, tt.config
			sum := sha256.Sum256([]byte(tt.src))
			if c.Method != want.Method || !strings.HasSuffix(c.URL, want.URL) || c.BodyBytes != want.BodyBytes || c.Request != want.Request ||
				!hasHeaders(c.Headers, want.Headers) || c.RequestSHA256 == "" ||
				c.Script != "wire.lua" || c.ScriptSHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("config %+v, want %+v with the request's digest and the script wire.lua, sha256 %x", c, want, sum)
			}
		})
	}
}

// hasHeaders reports whether got holds the one header of want, or is
// empty when want is.
func hasHeaders(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	return slices.Contains(got, want[0])
}

// TestRequestDigestTellsRequestsApart checks config.request_sha256: equal
// for the parts of one sharded load, whether the script's request() makes
// the requests or not, and different for bodies of the same length.
func TestRequestDigestTellsRequestsApart(t *testing.T) {
	u, _ := recordingServer(t)
	digest := func(body, src string, shard Shard) string {
		t.Helper()
		cfg := Config{URL: u, Body: []byte(body), Requests: 4, Connections: 2, Threads: 1, Timeout: 5 * time.Second, Shard: shard}
		if src != "" {
			withScript(t, &cfg, luaFile(t, "s.lua", src))
		}
		res, err := Run(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res.Config.RequestSHA256
	}
	request := "function request() return wrk.format(nil, '/' .. wrk.shard.index) end\n"
	if a, b := digest("aaaa", "", Shard{}), digest("bbbb", "", Shard{}); a == b {
		t.Errorf("bodies aaaa and bbbb: one digest %s", a)
	}
	for _, src := range []string{"", "wrk.path = '/' .. wrk.shard.index\n", request} {
		if a, b := digest("aaaa", src, Shard{0, 2}), digest("aaaa", src, Shard{1, 2}); a != b || a == "" {
			t.Errorf("script %q: shards 0/2 and 1/2 have digests %q and %q, want one", src, a, b)
		}
	}
	if a, b := digest("", request, Shard{}), digest("", request+"-- another script\n", Shard{}); a == b {
		t.Errorf("two request() scripts: one digest %s", a)
	}
}
