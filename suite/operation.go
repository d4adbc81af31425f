package suite

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/bodyfile"
)

// maxBody bounds body_random and body_file: 64 MiB.
const maxBody = 64 << 20

// fifoWait is how long a body_file FIFO is waited for, for its writer and
// then for each of its writes, as --body-file's is.
const fifoWait = 10 * time.Second

// operations checks every operation, in plan order.
func (c *compiler) operations(ps []Operation) ([]recordedConfig, error) {
	if len(ps) == 0 {
		return nil, c.pos.errorf("operations", "required: at least one operation to measure")
	}
	var out []recordedConfig
	index := map[string]int{}
	seen := map[string]bool{}
	for i, p := range ps {
		field := fmt.Sprintf("operations[%d]", i)
		if err := c.name(field+".name", p.Name, seen); err != nil {
			return nil, err
		}
		op, err := c.operation(field, p, index)
		if err != nil {
			return nil, err
		}
		index[p.Name] = i
		out = append(out, op)
	}
	return out, nil
}

// operation checks one operation; earlier indexes the ones before it.
func (c *compiler) operation(field string, p Operation, earlier map[string]int) (recordedConfig, error) {
	op := recordedConfig{name: p.Name, method: strings.ToUpper(p.Method), url: p.URL, dependsOn: -1,
		protocol: protocol(p.HTTP2, p.HTTP3), streams: p.Streams}
	if p.HTTP2 && p.HTTP3 {
		return op, c.pos.errorf(field+".http3", "give http2: true or http3: true, not both")
	}
	if p.URL == "" {
		return op, c.pos.errorf(field+".url", "required, e.g. http://127.0.0.1:{port}/")
	}
	if err := c.checkURL(field+".url", p.URL); err != nil {
		return op, err
	}
	var err error
	if op.headers, err = c.headers(field+".headers", p.Headers); err != nil {
		return op, err
	}
	if op.body, err = c.body(field, p); err != nil {
		return op, err
	}
	if op.timeout, err = c.duration(field+".timeout", p.Timeout, engine.DefaultTimeout); err != nil {
		return op, err
	}
	if op.checks, err = c.checks(field+".checks", p.Checks); err != nil {
		return op, err
	}
	if op.shape, err = c.shape(field+".load", p.Load); err != nil {
		return op, err
	}
	if op.thresholds, err = c.thresholds(field+".thresholds", p.Thresholds); err != nil {
		return op, err
	}
	if p.DependsOn != "" {
		i, ok := earlier[p.DependsOn]
		if !ok {
			return op, c.pos.errorf(field+".depends_on", "%q is not an earlier operation (operations run in plan order)", p.DependsOn)
		}
		op.dependsOn = i
	}
	cfg, err := op.config(c.x)
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		return op, c.settingError(field, err)
	}
	return op, nil
}

// protocol is the protocol an operation speaks: HTTP/2 with http2: true,
// HTTP/3 with http3: true.
func protocol(http2, http3 bool) engine.Protocol {
	if http3 {
		return engine.HTTP3
	}
	if http2 {
		return engine.HTTP2
	}
	return engine.HTTP1
}

// operationFields names the field of an operation that sets each engine
// setting it has one for; the others are the load shape's.
var operationFields = map[string]string{
	"URL": "url", "method": "method", "header": "headers", "timeout": "timeout",
	"streams": "streams", "http2": "http2", "http3": "http3",
}

// neededFields say what an operation adds to set a setting that another
// needs.
var neededFields = map[string]string{"http2": "http2: true"}

// settingError locates a setting engine.Config.Validate refused in the
// operation at field: at the field that sets it, or else at its load as
// "setting: why". A setting that needs another says what to add.
func (c *compiler) settingError(field string, err error) error {
	var bad *engine.SettingError
	if !errors.As(err, &bad) {
		return c.pos.errorf(field+".load", "%v", err)
	}
	msg := bad.Text(func(s string) string { return s }) // the load's fields are named as the engine's settings
	switch add, ok := neededFields[bad.Needs]; {
	case ok:
		msg += "; add " + add
	case bad.Needs != "":
		msg += " (needs " + bad.Needs + ")"
	}
	if f, ok := operationFields[bad.Setting]; ok {
		return c.pos.errorf(field+"."+f, "%s", msg)
	}
	return c.pos.errorf(field+".load", "%s: %s", bad.Setting, msg)
}

// checkURL checks a URL template: placeholders, then an http(s) URL.
func (c *compiler) checkURL(field, s string) error {
	raw, err := c.x.expand(s)
	if err != nil {
		return c.pos.errorf(field, "%v", err)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c.pos.errorf(field, "%q is not an http:// or https:// URL", s)
	}
	return nil
}

// headers checks the headers and returns them sorted by name.
func (c *compiler) headers(field string, m map[string]string) ([]engine.Header, error) {
	var out []engine.Header
	for _, name := range slices.Sorted(maps.Keys(m)) {
		f := joinPath(field, name)
		if name == "" || strings.ContainsAny(name, ": \t\r\n") {
			return nil, c.pos.errorf(f, "not a header name")
		}
		if strings.ContainsAny(m[name], "\r\n") {
			return nil, c.pos.errorf(f, "the value holds a line break")
		}
		if err := c.check(f, m[name]); err != nil {
			return nil, err
		}
		out = append(out, engine.Header{Name: name, Value: m[name]})
	}
	return out, nil
}

// body checks the three exclusive ways to give a body and reads a file.
func (c *compiler) body(field string, p Operation) (body, error) {
	given := 0
	for _, set := range []bool{p.Body != nil, p.BodyFile != "", p.BodyRandom != 0} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		return body{}, c.pos.errorf(field+".body", "give one of body, body_file and body_random")
	case p.Body != nil:
		return body{text: p.Body}, c.check(field+".body", *p.Body)
	case p.BodyRandom < 0 || p.BodyRandom > maxBody:
		return body{}, c.pos.errorf(field+".body_random", "%d, want between 1 and %d bytes", p.BodyRandom, maxBody)
	case p.BodyRandom > 0:
		return body{random: p.BodyRandom}, nil
	case p.BodyFile != "":
		path := p.BodyFile
		if !filepath.IsAbs(path) {
			path = filepath.Join(c.dir, path)
		}
		data, err := bodyfile.Read(c.ctx, path, maxBody, fifoWait)
		switch {
		case errors.Is(err, bodyfile.ErrTooLarge):
			return body{}, c.pos.errorf(field+".body_file", "%s holds more than %d MiB, the most a body may be", p.BodyFile, maxBody>>20)
		case err != nil:
			return body{}, c.pos.errorf(field+".body_file", "%v", err)
		}
		return body{data: data}, nil
	}
	return body{}, nil
}

// checks turns the plan's checks into the engine's. Without a status
// check, 2xx and 3xx are expected.
func (c *compiler) checks(field string, p Checks) (engine.Checks, error) {
	var e engine.Checks
	var err error
	if e.Status, err = c.statuses(field+".status", p.Status); err != nil {
		return e, err
	}
	e.Body = []byte(p.BodyContains)
	if p.BodyEquals != nil {
		e.BodyEquals = append([]byte{}, *p.BodyEquals...) // not nil, even when empty
	}
	for _, path := range slices.Sorted(maps.Keys(p.JSON)) {
		want, err := jsonText(p.JSON[path])
		if err != nil {
			return e, c.pos.errorf(joinPath(field+".json", path), "%v", err)
		}
		e.JSON = append(e.JSON, engine.JSONField{Path: path, Value: want})
	}
	return e, nil
}
