package engine

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/engine/http1"
	"github.com/pummel-dev/pummel/internal/fixture"
)

// TestResponseOnlyScriptSplitsTheRequestOnce: a script with response()
// but no request() sends the load's one request, which a connection
// splits into requests the first time only, not for every request.
func TestResponseOnlyScriptSplitsTheRequestOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "response.lua")
	if err := os.WriteFile(path, []byte("response = function(status, headers, body) end\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := fixture.New(t, fixture.Behaviour{})
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{URL: u, Connections: 1, Threads: 1, Requests: 1, Timeout: 5 * time.Second}
	withScript(t, &cfg, path)
	r, err := newRun(t.Context(), &cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.cancel()
	w := NewWorker(r.phases(), false)
	if err := r.setupScript([]*Worker{w}); err != nil {
		t.Fatal(err)
	}
	var c Conn
	c.Init(r, w, new(Outbox), new(http1.LastHeader))
	tk := Ticket{count: 1, Phase: MeasuredPhase}
	req, k, _ := c.prepare(tk)
	if k != 1 || !slices.Equal(req, r.request) {
		t.Fatalf("prepare = %q, %d requests; want the load's one request", req, k)
	}
	c.scriptBufs.ends[0]-- // a mark a second split would overwrite
	req, _, _ = c.prepare(tk)
	if len(req) != len(r.request)-1 {
		t.Errorf("the request was split again for the second request")
	}
}
