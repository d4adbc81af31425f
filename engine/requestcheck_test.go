package engine

import (
	"net/url"
	"strings"
	"testing"
)

func TestValidateRefusesMalformedRequests(t *testing.T) {
	tests := []struct {
		name    string
		change  func(c *Config)
		problem string // "" when the request is fine
	}{
		{"plain GET", func(*Config) {}, ""},
		{"custom method", func(c *Config) { c.Method = "purge" }, ""},
		{"method with a request line", func(c *Config) { c.Method = "GET /x HTTP/1.1" }, "method:"},
		{"method with a separator", func(c *Config) { c.Method = "GE(T" }, "method:"},
		{"header name with a space", func(c *Config) { c.Headers = []Header{{"X A", "b"}} }, "header:"},
		{"header name with a separator", func(c *Config) { c.Headers = []Header{{"X(a)", "b"}} }, "header:"},
		{"header value with CR LF", func(c *Config) { c.Headers = []Header{{"X-A", "b\r\nX-Injected: 1"}} }, "control character"},
		{"header value with LF", func(c *Config) { c.Headers = []Header{{"X-A", "b\nc"}} }, "control character"},
		{"header value with NUL", func(c *Config) { c.Headers = []Header{{"X-A", "b\x00"}} }, "control character"},
		{"header value with a tab", func(c *Config) { c.Headers = []Header{{"X-A", "b\tc"}} }, ""},
		{"Transfer-Encoding", func(c *Config) { c.Headers = []Header{{"transfer-encoding", "chunked"}} }, "cannot chunk"},
		{"Content-Length of the body", func(c *Config) {
			c.Body, c.Headers = []byte("abc"), []Header{{"Content-Length", "3"}}
		}, ""},
		{"Content-Length other than the body", func(c *Config) {
			c.Body, c.Headers = []byte("abc"), []Header{{"Content-Length", "100"}}
		}, "the body is 3 bytes"},
		{"space in the query", func(c *Config) { c.URL.RawQuery = "q=a b" }, "URL:"},
		{"control character in the query", func(c *Config) { c.URL.RawQuery = "q=\x01" }, "URL:"},
		{"escaped space", func(c *Config) { c.URL.Path = "/a b" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, _ := url.Parse("http://127.0.0.1:8080/x")
			c := Config{URL: u, Connections: 1, Threads: 1, Requests: 1, Timeout: DefaultTimeout}
			tt.change(&c)
			err := c.Validate()
			switch {
			case tt.problem == "" && err != nil:
				t.Errorf("Validate: %v, want no error", err)
			case tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem)):
				t.Errorf("Validate: %v, want an error naming %q", err, tt.problem)
			}
		})
	}
}
