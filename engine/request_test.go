package engine

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pummel-dev/pummel/internal/parse"
)

func TestBuildRequest(t *testing.T) {
	tests := []struct {
		name    string
		url     string
		cfg     Config
		want    []string // lines that must appear
		notWant []string
	}{
		{name: "plain GET", url: "http://127.0.0.1:8080/a?b=1",
			want:    []string{"GET /a?b=1 HTTP/1.1\r\n", "Host: 127.0.0.1:8080\r\n", "User-Agent: pummel\r\n"},
			notWant: []string{"Content-Length", "Connection"}},
		{name: "default port left out of Host", url: "http://example.test:80/", want: []string{"Host: example.test\r\n"}},
		{name: "IPv6 host", url: "http://[::1]:9000/", want: []string{"Host: [::1]:9000\r\n"}},
		{name: "header names kept as given", url: "http://h/", cfg: Config{Headers: []Header{{"x-api-KEY", "v"}}},
			want: []string{"x-api-KEY: v\r\n"}},
		{name: "Host header overrides the URL", url: "http://127.0.0.1/", cfg: Config{Headers: []Header{{"host", "svc.test"}}},
			want: []string{"Host: svc.test\r\n"}, notWant: []string{"127.0.0.1"}},
		{name: "body implies POST", url: "http://h/", cfg: Config{Body: []byte(`{"a":1}`), Headers: []Header{{"Content-Type", "application/json"}}},
			want: []string{"POST / HTTP/1.1\r\n", "Content-Length: 7\r\n", "Content-Type: application/json\r\n", "\r\n\r\n{\"a\":1}"}},
		{name: "method set after headers", url: "http://h/", cfg: Config{Method: "put", Headers: []Header{{"Content-Type", "text/plain"}}, Body: []byte("x")},
			want: []string{"PUT / HTTP/1.1\r\n"}},
		{name: "no keep-alive", url: "http://h/", cfg: Config{NoKeepAlive: true}, want: []string{"Connection: close\r\n"}},
		{name: "URL credentials become Basic auth", url: "http://u:p@h/", want: []string{"Authorization: Basic dTpw\r\n"}},
		{name: "an Authorization header wins over URL credentials", url: "http://u:p@h/",
			cfg: Config{Headers: []Header{{"Authorization", "Bearer t"}}}, want: []string{"Authorization: Bearer t\r\n"}, notWant: []string{"Basic"}},
		{name: "User-Agent replaced", url: "http://h/", cfg: Config{Headers: []Header{{"User-Agent", "wrk"}}},
			want: []string{"User-Agent: wrk\r\n"}, notWant: []string{"pummel"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.URL, _ = url.Parse(tt.url)
			b, err := buildRequest(&tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			req := string(b)
			for _, w := range tt.want {
				if !strings.Contains(req, w) {
					t.Errorf("request lacks %q:\n%s", w, req)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(req, w) {
					t.Errorf("request has %q:\n%s", w, req)
				}
			}
			if !strings.Contains(req, "\r\n\r\n") {
				t.Errorf("request has no end of header: %q", req)
			}
		})
	}
}

func TestChecks(t *testing.T) {
	e := Checks{Status: []parse.StatusRange{{Lo: 200, Hi: 299}, {Lo: 301, Hi: 301}}, Body: []byte("ok")}
	tests := []struct {
		status int
		body   string
		fails  bool
	}{
		{200, "all ok", false},
		{204, "ok", false},
		{301, "ok", false},
		{302, "ok", true},
		{500, "ok", true},
		{200, "nope", true},
	}
	for _, tt := range tests {
		if why := e.check(tt.status, []byte(tt.body)); (why != "") != tt.fails {
			t.Errorf("check(%d, %q) = %q, want failure %v", tt.status, tt.body, why, tt.fails)
		}
	}
}

func TestValidate(t *testing.T) {
	u, _ := url.Parse("http://127.0.0.1:1/")
	ok := Config{URL: u, Connections: 2, Threads: 1, Duration: 1, Timeout: 1}
	tests := []struct {
		name   string
		modify func(*Config)
		want   string
	}{
		{"valid", func(*Config) {}, ""},
		{"no connections", func(c *Config) { c.Connections = 0 }, "connections"},
		{"threads over connections", func(c *Config) { c.Threads = 3 }, "threads"},
		{"neither duration nor count", func(c *Config) { c.Duration = 0 }, "duration"},
		{"no timeout", func(c *Config) { c.Timeout = 0 }, "timeout"},
		{"scheme", func(c *Config) { c.URL = &url.URL{Scheme: "ftp", Host: "h"} }, "scheme"},
		{"timed warm-up with a count", func(c *Config) { c.Requests, c.Warmup = 5, time.Second }, ""},
		{"warm-up time and count", func(c *Config) { c.Requests, c.Warmup, c.WarmupRequests = 5, time.Second, 2 }, "not both"},
		{"less than one request per stage", func(c *Config) { c.Rates, c.Duration = []float64{0.3}, 2*time.Second }, "less than one request"},
		{"a part with no connection", func(c *Config) { c.Shard = Shard{Index: 2, Count: 3} }, "shard: 2 connections"},
		{"a part with no request of -n", func(c *Config) { c.Connections, c.Requests, c.Shard = 3, 2, Shard{Index: 2, Count: 3} }, "shard: 2 requests"},
		{"every part with a request of -n", func(c *Config) { c.Connections, c.Requests, c.Shard = 3, 3, Shard{Index: 2, Count: 3} }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.modify(&c)
			err := c.Validate()
			if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error naming %q", err, tt.want)
			}
		})
	}
}
