package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/targets"
	"github.com/urfave/cli/v2"
)

// options holds the load command's flags, bound by urfave/cli.
type options struct {
	connections, threads, duration, requests, timeout, pipeline string
	engine                                                      string
	rate, warmup, warmupRate, warmupRequests                    string
	shard, startAt                                              string

	keepAlive, noKeepAlive bool
	method, body, bodyFile string
	maxBody                string
	contentType            string
	headers                cli.StringSlice
	expectStatus           string
	expectBody             string

	unix, cacert, cert, key string
	insecure                bool

	connectTos, resolves cli.StringSlice // --connect-to, --resolve

	http2   bool   // --http2
	http3   bool   // --http3
	streams string // --streams

	script                string
	pids                  cli.StringSlice
	pidTree, execShell    bool
	sampleInterval, exec  string
	readyURL, readyStatus string
	readyTimeout, settle  string
	serverLog, runs       string
	scriptArgs            []string // after --

	latency, quiet, showSecrets, dryRun bool
	progress                            string // --progress: auto, always or never
	format, hdrLog                      string
	logRequests                         string // --log-requests
	outputs                             cli.StringSlice
	thresholdExprs                      cli.StringSlice // --threshold

	target string // the URL, the one positional argument

	export exportOptions // --export and its flags

	targetsFile string           // --targets
	targets     []targets.Target // its list, once read (see targetList)
	stdin       io.Reader        // where --targets - reads; nil: os.Stdin
}

// usageError is bad input: one line naming the flag, exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func badFlag(flag string, err error) error {
	return usageError{fmt.Sprintf("%s: %v", flag, err)}
}

// config turns the options into a validated engine.Config; ctx ends the
// reading of body files (a FIFO waits for its writer).
func (o *options) config(ctx context.Context) (engine.Config, error) {
	var c engine.Config
	var err error
	if err = o.loadURL(ctx, &c); err != nil {
		return c, err
	}
	if err = o.sharding(&c, time.Now()); err != nil {
		return c, err
	}
	if err = o.shape(&c); err != nil {
		return c, err
	}
	if err = o.openLoop(&c); err != nil {
		return c, err
	}
	if err = o.request(ctx, &c); err != nil {
		return c, err
	}
	o.withTargets(&c)
	if c.TLS, err = o.tls(); err != nil {
		return c, err
	}
	c.UnixSocket = o.unix
	if err = o.connectTo(&c); err != nil {
		return c, err
	}
	if err := c.Validate(); err != nil {
		return c, flagError(err)
	}
	return c, nil
}

// settingFlags names the flag that sets each engine.Config setting that
// Validate checks or names.
var settingFlags = map[string]string{
	"connections": "-c/--connections", "threads": "-t/--threads", "duration": "-d/--duration",
	"requests": "-n/--requests", "timeout": "--timeout", "pipeline": "--pipeline", "warmup": "--warmup",
	"warmup rate": "--warmup-rate", "engine": "--engine", "start-at": "--start-at", "shard": "--shard",
	"method": "-m/--method", "header": "-H/--header", "rate": "-R/--rate",
	"connect-to": "--connect-to/--resolve", "streams": "--streams", "http2": "--http2", "http3": "--http3",
	"no-keepalive": "--no-keepalive", "targets": "--targets",
}

// neededHints follow the refusal of a setting for lack of the one it
// needs (engine.SettingError.Needs), by the refused setting's name.
var neededHints = map[string]string{
	"streams": "HTTP/1.1 sends several requests at once with --pipeline",
}

// flagError turns a setting engine.Config.Validate refused into a usage
// error naming the flag that set it, and the flags its message names.
func flagError(err error) error {
	var bad *engine.SettingError
	if !errors.As(err, &bad) {
		return usageError{err.Error()}
	}
	flag, ok := settingFlags[bad.Setting]
	if !ok {
		return usageError{err.Error()}
	}
	msg := flag + ": " + bad.Text(shortFlag)
	if bad.Needs != "" {
		msg += " (add " + shortFlag(bad.Needs) + ")"
		if hint, ok := neededHints[bad.Setting]; ok {
			msg += "; " + hint
		}
	}
	if hint, ok := settingHints[bad.Setting]; ok {
		msg += "; " + hint
	}
	return usageError{msg}
}

// shortFlag is the first spelling of the flag that sets setting ("-c"
// for connections), as a message names it in passing; a setting no flag
// sets is named as it is.
func shortFlag(setting string) string {
	flag, ok := settingFlags[setting]
	if !ok {
		return setting
	}
	short, _, _ := strings.Cut(flag, "/")
	return short
}

func parseTarget(s string) (*url.URL, error) {
	if s == "" {
		return nil, usageError{"URL: missing; usage: pummel [flags] http://host:port/path"}
	}
	u, err := engine.ParseURL(s)
	if err != nil {
		return nil, usageError{"URL: " + err.Error()}
	}
	return u, nil
}

// shape reads the load shape: connections, threads, duration, count, timeout.
func (o *options) shape(c *engine.Config) error {
	n, err := parseCount(o.connections)
	if err != nil || n < 1 {
		return badFlag("-c/--connections", orMin(err, o.connections))
	}
	c.Connections = int(n)
	held := int(c.Shard.Share(n)) // by this process: -t is per process
	c.Threads = max(min(runtime.NumCPU(), held), 1)
	if o.threads != "" {
		if n, err = parseCount(o.threads); err != nil || n < 1 {
			return badFlag("-t/--threads", orMin(err, o.threads))
		}
		c.Threads = int(n)
	}
	if o.requests != "" {
		if c.Requests, err = parseCount(o.requests); err != nil || c.Requests < 1 {
			return badFlag("-n/--requests", orMin(err, o.requests))
		}
	}
	c.Duration = engine.DefaultDuration
	if o.duration != "" || c.Requests > 0 {
		c.Duration = 0
	}
	if o.duration != "" {
		if c.Duration, err = parseDuration(o.duration); err != nil {
			err = fmt.Errorf("%w; %s", err, durationHint)
		}
		if err != nil || c.Duration == 0 {
			return badFlag("-d/--duration", orNeed(err, "a positive duration"))
		}
	}
	if c.Timeout, err = parseDuration(o.timeout); err != nil || c.Timeout == 0 {
		return badFlag("--timeout", orNeed(err, "a positive duration"))
	}
	c.NoKeepAlive = o.noKeepAlive
	if n, err = parseCount(o.pipeline); err != nil || n < 1 {
		return badFlag("--pipeline", orMin(err, o.pipeline))
	}
	c.Pipeline = int(n)
	if o.http2 && o.http3 {
		return usageError{"--http3: give --http2 or --http3, not both"}
	}
	c.Protocol, c.Streams = o.protocol(), 1
	if o.streams != "" {
		if n, err = parseCount(o.streams); err != nil || n < 1 {
			return badFlag("--streams", orMin(err, o.streams))
		}
		c.Streams = int(n)
	}
	c.Engine = o.engine
	return nil
}

// protocol is the protocol the flags choose: HTTP/2 with --http2, HTTP/3
// with --http3.
func (o *options) protocol() engine.Protocol {
	if o.http3 {
		return engine.HTTP3
	}
	if o.http2 {
		return engine.HTTP2
	}
	return engine.HTTP1
}

// orMin explains a value that parsed but is zero.
func orMin(err error, s string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%q must be at least 1", s)
}

// openLoop reads -R, --warmup, --warmup-rate and --warmup-requests.
func (o *options) openLoop(c *engine.Config) error {
	var err error
	if o.rate != "" {
		if c.Rates, c.RampFrom, err = parseRateStages(o.rate); err != nil {
			return badFlag("-R/--rate", err)
		}
		if o.duration == "" {
			c.Duration = engine.DefaultDuration // per stage
		}
	}
	if o.warmup != "" {
		if c.Warmup, err = parseDuration(o.warmup); err != nil {
			return badFlag("--warmup", err)
		}
	}
	if o.warmupRate != "" {
		r, err := parseRates(o.warmupRate)
		if err != nil || len(r) != 1 || len(c.Rates) == 0 {
			return badFlag("--warmup-rate", orNeed(err, "one rate, with -R"))
		}
		c.WarmupRate = r[0]
	}
	if o.warmupRequests != "" {
		if c.WarmupRequests, err = parseCount(o.warmupRequests); err != nil || c.Requests == 0 {
			return badFlag("--warmup-requests", orNeed(err, "a count, with -n"))
		}
	}
	return nil
}

func orNeed(err error, what string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("needs %s", what)
}

// orRange explains a value that parsed but is out of range.
func orRange(err error, s string, hi int) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%q must be between 1 and %d", s, hi)
}

// request reads the method, headers and body, and the response checks.
func (o *options) request(ctx context.Context, c *engine.Config) error {
	if o.method != "" {
		if err := engine.CheckMethod(o.method); err != nil {
			return badFlag("-m/--method", err)
		}
	}
	c.Method = o.method
	var err error
	if c.Body, err = o.requestBody(ctx); err != nil {
		return err
	}
	for _, h := range o.headers.Value() {
		hdr, err := parseHeader(h)
		if err == nil {
			err = engine.CheckHeader(hdr, len(c.Body))
		}
		if err != nil {
			return badFlag("-H/--header", err)
		}
		c.Headers = append(c.Headers, hdr)
	}
	if o.contentType != "" {
		hdr := engine.Header{Name: "Content-Type", Value: o.contentType}
		if err := engine.CheckHeader(hdr, len(c.Body)); err != nil {
			return badFlag("-T/--content-type", err)
		}
		c.Headers = append(c.Headers, hdr)
	}
	if o.expectStatus != "" {
		if c.Checks.Status, err = parseStatuses(o.expectStatus); err != nil {
			return badFlag("--expect-status", err)
		}
	}
	c.Checks.Body = []byte(o.expectBody)
	return nil
}

// tls reads --insecure, --cacert, --cert and --key; nil means defaults.
func (o *options) tls() (*tls.Config, error) {
	if !o.insecure && o.cacert == "" && o.cert == "" && o.key == "" {
		return nil, nil
	}
	cfg := &tls.Config{InsecureSkipVerify: o.insecure} //nolint:gosec // the user asked for it
	if o.cacert != "" {
		pem, err := os.ReadFile(o.cacert)
		if err != nil {
			return nil, badFlag("--cacert", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, badFlag("--cacert", fmt.Errorf("%s holds no PEM certificate", o.cacert))
		}
	}
	if (o.cert == "") != (o.key == "") {
		return nil, usageError{"--cert and --key: give both or neither"}
	}
	if o.cert != "" {
		pair, err := tls.LoadX509KeyPair(o.cert, o.key)
		if err != nil {
			return nil, badFlag("--cert/--key", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// outputFormat checks --format and the -o extensions.
func (o *options) outputFormat() error {
	if _, ok := renderers[o.format]; !ok {
		return usageError{fmt.Sprintf("--format: %q is not one of text, json, markdown", o.format)}
	}
	for _, path := range o.outputs.Value() {
		if _, ok := renderers[formatOf(path)]; !ok {
			return usageError{fmt.Sprintf("-o/--output: %q: use a .json, .md or .txt file name", path)}
		}
	}
	return nil
}

// formatOf names the format of an output file by its extension.
func formatOf(path string) string {
	switch {
	case strings.HasSuffix(path, ".json"):
		return "json"
	case strings.HasSuffix(path, ".md"), strings.HasSuffix(path, ".markdown"):
		return "markdown"
	case strings.HasSuffix(path, ".txt"):
		return "text"
	}
	return ""
}
