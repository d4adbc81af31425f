package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestClients runs each library's client briefly against a loopback
// server whose responses have a body, and checks its count against the
// server's: every response it counts was served, and at most one request
// per connection was still in flight when it stopped.
func TestClients(t *testing.T) {
	for lib := range clients {
		t.Run(lib, func(t *testing.T) {
			var served atomic.Int64 // a server of its own: no request of another client counts
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				served.Add(1)
				fmt.Fprint(w, "a body to skip")
			}))
			defer srv.Close()
			var out, errOut strings.Builder
			args := []string{"-lib", lib, "-c", "4", "-t", "2", "-d", "0.2", srv.URL + "/path"}
			if code := run(t.Context(), args, &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			n, err := strconv.Atoi(strings.TrimSpace(out.String()))
			if err != nil || n < 1 {
				t.Fatalf("stdout %q, want a positive count", out.String())
			}
			if s := int(served.Load()); n > s || n < s-4 {
				t.Errorf("counted %d responses, the server served %d to 4 connections", n, s)
			}
			if !strings.Contains(errOut.String(), "(0 not 2xx)") || strings.Contains(errOut.String(), "closed") {
				t.Errorf("stderr %q, want no failed responses or closed connections", errOut.String())
			}
		})
	}
}
