package engine

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/pummel-dev/pummel/engine/h2"
	"github.com/valyala/fasthttp"
)

// userAgent is sent unless the user gives a User-Agent header.
const userAgent = "pummel"

// buildRequest serialises the configured request once, with fasthttp, into
// the bytes every connection writes as they are. Credentials in the URL
// become a Basic Authorization header, as in curl.
func buildRequest(c *Config) ([]byte, error) {
	var req fasthttp.Request
	req.Header.DisableNormalizing() // header names go out as the user typed them
	req.Header.SetNoDefaultContentType(true)
	req.Header.SetRequestURI(c.URL.RequestURI())
	req.Header.SetHost(hostHeader(c.URL))
	req.Header.SetUserAgent(userAgent)
	if auth := basicAuth(c.URL); auth != "" && !hasHeader(c.Headers, "Authorization") {
		req.Header.Set("Authorization", auth)
	}
	for _, h := range c.Headers {
		switch {
		case strings.EqualFold(h.Name, "Host"):
			req.Header.SetHost(h.Value)
		case strings.EqualFold(h.Name, "User-Agent"):
			req.Header.SetUserAgent(h.Value)
		case strings.EqualFold(h.Name, "Content-Type"):
			req.Header.SetContentType(h.Value)
		default:
			req.Header.Add(h.Name, h.Value)
		}
	}
	if len(c.Body) > 0 {
		req.SetBody(c.Body)
	}
	if c.NoKeepAlive {
		req.Header.SetConnectionClose()
	}
	// The method is set last, so that copying headers cannot reset it.
	req.Header.SetMethod(c.method())
	var buf bytes.Buffer
	if _, err := req.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("building the request: %w", err)
	}
	return buf.Bytes(), nil
}

// buildH2Request encodes the configured request once for HTTP/2, with
// the same fields as buildRequest: a Host header is the :authority, and
// the URL's credentials a Basic Authorization header.
func buildH2Request(c *Config) *h2.Request {
	return h2.NewRequest(c.method(), c.URL.Scheme, requestAuthority(c), c.URL.RequestURI(), requestFields(c), c.Body)
}

// requestAuthority is the :authority of c's request for HTTP/2 and
// HTTP/3: the URL's host, or a Host header's value.
func requestAuthority(c *Config) string {
	authority := hostHeader(c.URL)
	for _, h := range c.Headers {
		if strings.EqualFold(h.Name, "Host") {
			authority = h.Value
		}
	}
	return authority
}

// requestFields is c's header fields for HTTP/2 and HTTP/3, before
// h2.Fields adds the pseudo-headers: a user-agent (the one given, or
// pummel's), an authorization from the URL's password unless one is
// given, and the rest but Host.
func requestFields(c *Config) []h2.Header {
	headers := make([]h2.Header, 0, len(c.Headers)+2)
	headers = append(headers, h2.Header{Name: "user-agent", Value: userAgent})
	if auth := basicAuth(c.URL); auth != "" && !hasHeader(c.Headers, "Authorization") {
		headers = append(headers, h2.Header{Name: "authorization", Value: auth})
	}
	for _, h := range c.Headers {
		switch {
		case strings.EqualFold(h.Name, "Host"):
		case strings.EqualFold(h.Name, "User-Agent"):
			headers[0].Value = h.Value
		default:
			headers = append(headers, h2.Header{Name: h.Name, Value: h.Value})
		}
	}
	return headers
}

// method is the request method the engine sends.
func (c *Config) method() string { return Method(c.Method, len(c.Body) > 0) }

// Method is the method a request is sent with: m upper-cased, or, when m
// is "", GET, or POST when the request has a body (as curl -d and ab -p).
func Method(m string, hasBody bool) string {
	switch {
	case m != "":
		return strings.ToUpper(m)
	case hasBody:
		return "POST"
	}
	return "GET"
}

// hostHeader is the URL's host, without the default port of its scheme.
func hostHeader(u *url.URL) string {
	port := u.Port()
	if port == "" || u.Scheme == "http" && port == "80" || u.Scheme == "https" && port == "443" {
		host := u.Hostname()
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// basicAuth returns the Basic Authorization value for credentials in the
// URL, or "".
func basicAuth(u *url.URL) string {
	if u.User == nil {
		return ""
	}
	pw, _ := u.User.Password()
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw))
}

func hasHeader(hs []Header, name string) bool {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return true
		}
	}
	return false
}
