package engine

import (
	"net/url"
	"reflect"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/stats"
)

func TestRecorded(t *testing.T) {
	mustURL := func(s string) *url.URL {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	base := Config{URL: mustURL("http://h:8080/x?q=1"), Body: []byte("{}"), Connections: 4, Threads: 2,
		Duration: 3 * time.Second, Timeout: time.Second, Headers: []Header{{Name: "X-A", Value: "1"}}, Pipeline: 2,
		Engine: EngineGoroutine}
	want := stats.Config{URL: "http://h:8080/x?q=1", Method: "POST", BodyBytes: 2, Headers: []string{"X-A: 1"},
		Connections: 4, Threads: 2, DurationS: 3, TimeoutS: 1, KeepAlive: true, Pipeline: 2,
		Protocol: "http/1.1", Engine: EngineGoroutine}
	tests := []struct {
		name   string
		change func(c *Config)
		want   func(rc *stats.Config)
	}{
		{"as configured", func(*Config) {}, func(*stats.Config) {}},
		{"HEAD without keep-alive", func(c *Config) { c.Method, c.NoKeepAlive = "head", true },
			func(rc *stats.Config) { rc.Method, rc.KeepAlive = "HEAD", false }},
		{"h2c records its streams", func(c *Config) { c.Protocol, c.Pipeline = HTTP2, 0 },
			func(rc *stats.Config) { rc.Protocol, rc.Streams, rc.Pipeline = "h2c", 1, 0 }},
		{"h2 over TLS", func(c *Config) { c.Protocol, c.Pipeline, c.Streams, c.URL = HTTP2, 0, 8, mustURL("https://h/") },
			func(rc *stats.Config) { rc.Protocol, rc.Streams, rc.Pipeline, rc.URL = "h2", 8, 0, "https://h/" }},
		{"HTTP/1.1 records no streams", func(c *Config) { c.Streams = 1 }, func(*stats.Config) {}},
		{"connect-to and resolve apart", func(c *Config) {
			c.ConnectTo = []ConnectTo{
				{Host: "h", Port: "80", ToHost: "127.0.0.1", ToPort: "8081"},
				{Host: "h", Port: "80", ToHost: "::1", Resolve: true},
				{ToPort: "9"},
			}
		}, func(rc *stats.Config) {
			rc.ConnectTo, rc.Resolve = []string{"h:80:127.0.0.1:8081", ":::9"}, []string{"h:80:[::1]"}
		}},
		{"a ramp records its mean rate", func(c *Config) { c.Rates, c.RampFrom = []float64{300}, []float64{100} },
			func(rc *stats.Config) { rc.Rates, rc.Ramps = []float64{200}, []stats.Ramp{{From: 100, To: 300}} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, w := base, want
			tt.change(&c)
			tt.want(&w)
			if got := c.Recorded(); !reflect.DeepEqual(got, w) {
				t.Errorf("Recorded() =\n%+v\nwant\n%+v", got, w)
			}
		})
	}
}

func TestWithSent(t *testing.T) {
	shape := stats.Config{URL: "http://h/", Method: "GET", Connections: 4, Script: "s.lua"}
	tests := []struct {
		name       string
		sent, want stats.Config
	}{
		{"no record", stats.Config{URL: "http://other/"}, shape},
		{"the request sent", stats.Config{URL: "http://h/made", Method: "PUT", Headers: []string{"X: 1"}, BodyBytes: 3, RequestSHA256: "ab"},
			stats.Config{URL: "http://h/made", Method: "PUT", Headers: []string{"X: 1"}, BodyBytes: 3, RequestSHA256: "ab", Connections: 4, Script: "s.lua"}},
		{"from script", stats.Config{URL: "http://h/", Request: RequestFromScript, RequestSHA256: "cd"},
			stats.Config{URL: "http://h/", Request: RequestFromScript, RequestSHA256: "cd", Connections: 4, Script: "s.lua"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WithSent(shape, tt.sent); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("WithSent() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestProtocolString(t *testing.T) {
	for p, want := range map[Protocol]string{HTTP1: "http/1.1", HTTP2: "h2", 7: "Protocol(7)"} {
		if got := p.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", uint8(p), got, want)
		}
	}
}
