package main

import (
	"errors"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/engine"
)

// connectTo reads --connect-to and --resolve, in that order.
func (o *options) connectTo(c *engine.Config) error {
	for _, s := range o.connectTos.Value() {
		r, err := parseConnectTo(s)
		if err != nil {
			return badFlag("--connect-to", err)
		}
		c.ConnectTo = append(c.ConnectTo, r)
	}
	for _, s := range o.resolves.Value() {
		r, err := parseResolve(s)
		if err != nil {
			return badFlag("--resolve", err)
		}
		c.ConnectTo = append(c.ConnectTo, r)
	}
	return nil
}

// parseConnectTo reads curl's HOST1:PORT1:HOST2:PORT2; any part may be
// empty (any host or port; keep the URL's).
func parseConnectTo(s string) (engine.ConnectTo, error) {
	f, err := ruleFields(s)
	if err == nil && len(f) != 4 {
		err = errors.New("want HOST:PORT:ADDR:PORT")
	}
	if err == nil {
		err = errors.Join(checkRuleHost(f[0]), checkPort(f[1]), checkRuleHost(f[2]), checkPort(f[3]))
	}
	if err != nil {
		return engine.ConnectTo{}, fmt.Errorf("%q: %w (an IPv6 address in brackets: [::1])", s, err)
	}
	return engine.ConnectTo{Host: f[0], Port: f[1], ToHost: f[2], ToPort: f[3]}, nil
}

// parseResolve reads curl's HOST:PORT:ADDR, ADDR an IP address.
func parseResolve(s string) (engine.ConnectTo, error) {
	f, err := ruleFields(s)
	switch {
	case err != nil:
	case len(f) != 3 || f[0] == "" || f[1] == "":
		err = errors.New("want HOST:PORT:ADDR")
	case !isIP(f[2]):
		err = fmt.Errorf("ADDR %q is not an IP address", f[2])
	default:
		err = errors.Join(checkRuleHost(f[0]), checkPort(f[1]))
	}
	if err != nil {
		return engine.ConnectTo{}, fmt.Errorf("%q: %w (an IPv6 address in brackets: [::1])", s, err)
	}
	return engine.ConnectTo{Host: f[0], Port: f[1], ToHost: f[2], Resolve: true}, nil
}

// ruleFields splits a rule at its colons; a field in brackets ([::1]) may
// hold colons, and comes without its brackets.
func ruleFields(s string) ([]string, error) {
	var fields []string
	for {
		var f string
		if rest, ok := strings.CutPrefix(s, "["); ok {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, errors.New("a [ without its ]")
			}
			f, s = rest[:end], rest[end+1:]
			if ip, err := netip.ParseAddr(f); err != nil || !ip.Is6() {
				return nil, fmt.Errorf("[%s] is not an IPv6 address", f)
			}
			if s != "" && s[0] != ':' {
				return nil, fmt.Errorf("a : must follow [%s]", f)
			}
		} else {
			i := strings.IndexByte(s, ':')
			if i < 0 {
				i = len(s)
			}
			f, s = s[:i], s[i:]
		}
		fields = append(fields, f)
		if s == "" {
			return fields, nil
		}
		s = s[1:] // the colon
	}
}

// checkRuleHost refuses a host name that cannot be one.
func checkRuleHost(h string) error {
	if strings.ContainsFunc(h, func(r rune) bool { return r <= ' ' || r == 0x7f || strings.ContainsRune("/[]@?#", r) }) {
		return fmt.Errorf("%q is not a host", h)
	}
	return nil
}

// checkPort refuses a port that is neither empty nor 1 to 65535.
func checkPort(p string) error {
	n, err := strconv.ParseUint(p, 10, 16)
	if p != "" && (err != nil || n == 0) {
		return fmt.Errorf("port %q is not between 1 and 65535", p)
	}
	return nil
}

// noteUnmatched says on w, in one line, that no --connect-to or --resolve
// rule matched the URL, which curl leaves unsaid: a typo in a rule would
// otherwise load the URL's host unnoticed.
func noteUnmatched(w io.Writer, c engine.Config) {
	if address, redirected := c.Address(); len(c.ConnectTo) > 0 && !redirected {
		fmt.Fprintf(w, "pummel: note: no --connect-to or --resolve rule matches %s; connecting to it as the URL says\n", address)
	}
}

// isIP reports whether s is an IP address (IPv6 with a zone too).
func isIP(s string) bool {
	_, err := netip.ParseAddr(s)
	return err == nil
}

// readyAddress is where rules, the load's --connect-to and --resolve
// rules, send the readiness probes of readyURL, or "" for where it says.
func readyAddress(readyURL string, rules []engine.ConnectTo) string {
	u, err := url.Parse(readyURL)
	if err != nil {
		return "" // Launch names the bad --ready-url
	}
	c := engine.Config{URL: u, ConnectTo: rules}
	if address, redirected := c.Address(); redirected {
		return address
	}
	return ""
}
