package target

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New()
	go s.Serve(ln) //nolint:errcheck // ends with Shutdown
	t.Cleanup(func() { s.Shutdown() })
	return "http://" + ln.Addr().String()
}

func TestEndpoints(t *testing.T) {
	base := start(t)
	tests := []struct {
		path     string
		status   int
		bodyLen  int
		minDelay time.Duration
	}{
		{"/", 200, 0, 0},
		{"/delay/30", 200, 0, 30 * time.Millisecond},
		{"/status/503", 503, 0, 0},
		{"/status/204", 204, 0, 0},
		{"/bytes/0", 200, 0, 0},
		{"/bytes/100", 200, 100, 0},
		{"/bytes/200000", 200, 200000, 0},
		{"/status/99", 400, -1, 0},
		{"/status/abc", 400, -1, 0},
		{"/delay/-1", 400, -1, 0},
		{"/bytes/999999999", 400, -1, 0},
		{"/nope", 404, -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			began := time.Now()
			resp, err := http.Get(base + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.bodyLen >= 0 && len(body) != tt.bodyLen {
				t.Errorf("body of %d bytes, want %d", len(body), tt.bodyLen)
			}
			if tt.bodyLen > 0 && strings.Trim(string(body), "x") != "" {
				t.Error("body is not filler")
			}
			if took := time.Since(began); took < tt.minDelay {
				t.Errorf("answered after %v, want at least %v", took, tt.minDelay)
			}
		})
	}
}

// /requests answers how many requests the target answered, whatever their
// path or status, and leaves itself out: reading the count twice reads the
// same number.
func TestRequestsCountsEveryRequestButItself(t *testing.T) {
	base := start(t)
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(body)
	}
	if got := get("/requests"); got != "0" {
		t.Fatalf("/requests before any request = %q, want 0", got)
	}
	for _, path := range []string{"/", "/status/503", "/bytes/10", "/nope", "/"} {
		get(path)
	}
	for range 2 {
		if got := get("/requests"); got != "5" {
			t.Errorf("/requests = %q, want 5", got)
		}
	}
}
