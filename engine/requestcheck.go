package engine

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/internal/redact"
)

// CheckMethod reports what is wrong with m as an HTTP method: it must be
// a token (RFC 9110 §5.6.2), or the request line would not be one ("GET
// /x HTTP/1.1" as a method writes a second request target).
func CheckMethod(m string) error {
	if i := strings.IndexFunc(m, notTokenChar); m == "" || i >= 0 {
		return fmt.Errorf("%q is not a method (examples: GET, POST, PURGE): no spaces or separators", m)
	}
	return nil
}

// CheckHeader reports what is wrong with a request header: a name that is
// not a token, a value holding a line break or another control character
// (it would end the header early or inject one), or a header pummel would
// not send as given. Transfer-Encoding is refused rather than dropped:
// pummel frames every body with Content-Length and cannot chunk it, so the
// server would never see what was asked. A Content-Length other than the
// body's size is refused for the same reason.
func CheckHeader(h Header, bodyLen int) error {
	if i := strings.IndexFunc(h.Name, notTokenChar); h.Name == "" || i >= 0 {
		return fmt.Errorf("%q is not a header name: no spaces, colons or separators", h.Name)
	}
	if i := strings.IndexFunc(h.Value, isControl); i >= 0 {
		return fmt.Errorf("header %s: the value holds a control character (%q); line breaks would split the request", h.Name, h.Value[i])
	}
	switch {
	case strings.EqualFold(h.Name, "Transfer-Encoding"):
		return fmt.Errorf("header %s: pummel sends the body with Content-Length and cannot chunk it; drop the header", h.Name)
	case strings.EqualFold(h.Name, "Content-Length"):
		if n, err := strconv.Atoi(strings.TrimSpace(h.Value)); err != nil || n != bodyLen {
			return fmt.Errorf("header %s: %q, but the body is %d bytes; pummel sets it from the body: drop the header", h.Name, h.Value, bodyLen)
		}
	}
	return nil
}

// CheckTarget reports what is wrong with u as a request target: a raw
// space or control character would end the request line early.
func CheckTarget(u *url.URL) error {
	if i := strings.IndexFunc(u.Host+u.RequestURI(), isBlankOrControl); i >= 0 {
		return errors.New("the URL holds a space or control character; escape it (a space is %20)")
	}
	return nil
}

// checkRequest checks the request parts of c before anything is sent.
func (c *Config) checkRequest() error {
	if err := CheckTarget(c.URL); err != nil {
		return invalid("URL", "%v", err)
	}
	if c.Method != "" {
		if err := CheckMethod(c.Method); err != nil {
			return invalid("method", "%v", err)
		}
	}
	for _, h := range c.Headers {
		if err := CheckHeader(h, len(c.Body)); err != nil {
			return invalid("header", "%v", err)
		}
	}
	return nil
}

// notTokenChar reports whether r may not appear in a token:
// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
// "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA.
func notTokenChar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return false
	}
	return !strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

// isControl reports an ASCII control character other than tab, which a
// header value may hold.
func isControl(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }

// isBlankOrControl reports a character a request target may not hold raw.
func isBlankOrControl(r rune) bool { return r <= ' ' || r == 0x7f }

// ParseURL reads a target URL as every input gives one (the command
// line, a targets file): http or https, with a host, and no space or
// control character, which url.Parse would escape in the path and keep raw
// in the query, breaking the request line. Its errors name the URL with
// its credentials redacted.
func ParseURL(s string) (*url.URL, error) {
	if strings.ContainsFunc(s, isBlankOrControl) {
		return nil, fmt.Errorf("%q holds a space or control character; escape it (a space is %%20)", redact.URL(s))
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("%q is not an http:// or https:// URL with a host", redact.URL(s))
	}
	if err := CheckTarget(u); err != nil {
		return nil, err
	}
	return u, nil
}
