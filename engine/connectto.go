package engine

import (
	"net"
	"strings"
)

// ConnectTo sends the connections meant for one host and port to another
// address, as curl's --connect-to and --resolve do: the Host header, the
// TLS server name and the certificate check still follow the URL.
type ConnectTo struct {
	// Host and Port are the URL host (IPv6 without brackets, any case)
	// and port (the scheme's default when the URL has none) the rule is
	// for; "" matches any.
	Host, Port string
	// ToHost and ToPort are where to connect instead; "" keeps the host
	// or port the earlier rules left.
	ToHost, ToPort string
	// Resolve marks a --resolve rule (HOST:PORT:ADDR): it applies after
	// the --connect-to rules, to the host and port they left, as a name
	// lookup would.
	Resolve bool
}

// String is the rule as curl spells it: HOST:PORT:ADDR:PORT, or
// HOST:PORT:ADDR for a Resolve rule, IPv6 addresses in brackets.
func (r ConnectTo) String() string {
	parts := []string{bracket(r.Host), r.Port, bracket(r.ToHost)}
	if !r.Resolve {
		parts = append(parts, r.ToPort)
	}
	return strings.Join(parts, ":")
}

// bracket puts an IPv6 address in brackets.
func bracket(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// matches reports whether r applies to connections for host and port.
func (r ConnectTo) matches(host, port string) bool {
	return (r.Host == "" || strings.EqualFold(r.Host, host)) && (r.Port == "" || r.Port == port)
}

// apply returns where r sends connections meant for host and port.
func (r ConnectTo) apply(host, port string) (string, string) {
	if r.ToHost != "" {
		host = r.ToHost
	}
	if r.ToPort != "" {
		port = r.ToPort
	}
	return host, port
}

// Address is the host:port the run's TCP connections go to: the URL's
// host and port, changed by the first matching --connect-to rule of
// c.ConnectTo and then by the first matching --resolve rule. Redirected
// reports whether any rule matched.
func (c *Config) Address() (address string, redirected bool) {
	host, port, _ := net.SplitHostPort(hostPort(c))
	for _, resolve := range []bool{false, true} {
		for _, r := range c.ConnectTo {
			if r.Resolve == resolve && r.matches(host, port) {
				host, port = r.apply(host, port)
				redirected = true
				break
			}
		}
	}
	return net.JoinHostPort(host, port), redirected
}
