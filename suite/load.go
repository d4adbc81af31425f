package suite

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/parse"
	"github.com/pummel-dev/pummel/measure"
	"github.com/pummel-dev/pummel/proc"
)

// Load reads and checks the plan at path and compiles it into a Suite.
// Unknown fields are errors, and every mistake is a *PlanError naming the
// file, the line and the field. A plan too large to check quickly (bytes,
// YAML tokens, or values once its aliases are expanded) is refused before
// it is decoded. The ${VAR} references of the plan must be
// set in the environment. A body_file is read no further than maxBody,
// and from a FIFO no longer than ctx and bodyfile's wait for its writer
// allow.
func Load(ctx context.Context, path string) (*Suite, error) {
	src, err := readPlan(path)
	if err != nil {
		return nil, err
	}
	tokens, err := tokenize(path, src)
	if err != nil {
		return nil, err
	}
	f, err := parser.Parse(tokens, 0)
	if err != nil {
		return nil, (&positions{file: path}).yamlError(err)
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return nil, &PlanError{File: path, Msg: "the plan is empty (the README shows a full example)"}
	}
	if err := checkExpansion(path, f); err != nil {
		return nil, err
	}
	pos := indexPositions(path, f)
	var plan Plan
	if err := yaml.UnmarshalWithOptions(src, &plan, yaml.Strict()); err != nil {
		return nil, pos.yamlError(err)
	}
	c := &compiler{ctx: ctx, pos: pos, dir: filepath.Dir(path), x: &expander{port: "1", tmpdir: os.TempDir(), lookupEnv: os.LookupEnv}}
	return c.suite(path, plan)
}

// compiler checks a decoded plan field by field. Its expander replaces
// placeholders with stand-ins, so that every string is checked as it
// will be expanded in a run.
type compiler struct {
	ctx context.Context // ends the read of a body_file FIFO
	pos *positions
	dir string // the plan's directory: body files are relative to it
	x   *expander
}

func (c *compiler) suite(path string, p Plan) (*Suite, error) {
	s := &Suite{Name: p.Name, File: path, Runs: max(p.Runs, 1), Plan: recordPlan(p)}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if p.Runs < 0 || p.Runs > measure.MaxRuns {
		return nil, c.pos.errorf("runs", "%d, want between 1 and %d", p.Runs, measure.MaxRuns)
	}
	var err error
	if s.server, err = c.server(p.Server); err != nil {
		return nil, err
	}
	if s.modes, err = c.modes(p.Modes); err != nil {
		return nil, err
	}
	if s.ops, err = c.operations(p.Operations); err != nil {
		return nil, err
	}
	if s.server.readyProtocol, err = c.readyProtocol(p.Server.Ready, s.ops); err != nil {
		return nil, err
	}
	return s, nil
}

// readyProtocol is the protocol the readiness probes speak: as set, or
// else the one every operation speaks. A server loaded over HTTP/1.1
// speaks it, so an HTTP/1.1 probe reaches any server; one loaded over
// HTTP/2 or HTTP/3 alone may speak nothing else (an h2c-only gRPC server,
// a server on UDP alone), and a probe in HTTP/1.1 would never see it
// ready.
func (c *compiler) readyProtocol(r Ready, ops []recordedConfig) (engine.Protocol, error) {
	switch {
	case r.HTTP2 != nil && *r.HTTP2 && r.HTTP3 != nil && *r.HTTP3:
		return 0, c.pos.errorf("server.ready.http3", "give http2 or http3, not both")
	case r.HTTP3 != nil && *r.HTTP3:
		return engine.HTTP3, nil
	case r.HTTP2 != nil && *r.HTTP2:
		return engine.HTTP2, nil
	case r.HTTP2 != nil || r.HTTP3 != nil: // set false: HTTP/1.1
		return engine.HTTP1, nil
	}
	if len(ops) == 0 {
		return engine.HTTP1, nil
	}
	every := ops[0].protocol
	for _, op := range ops[1:] {
		if op.protocol != every {
			return engine.HTTP1, nil
		}
	}
	return every, nil
}

// server checks the server's command, environment and readiness.
func (c *compiler) server(p Server) (server, error) {
	s := server{tree: p.Tree}
	var err error
	if s.command, err = c.command(p.Command); err != nil {
		return s, err
	}
	if s.env, err = c.env("server.env", p.Env); err != nil {
		return s, err
	}
	if p.Ready.URL == "" {
		return s, c.pos.errorf("server.ready.url", "required: the URL that answers once the server is ready, e.g. http://127.0.0.1:{port}/")
	}
	if err := c.checkURL("server.ready.url", p.Ready.URL); err != nil {
		return s, err
	}
	s.readyURL = p.Ready.URL
	if s.readyStatus, err = c.statuses("server.ready.status", p.Ready.Status); err != nil {
		return s, err
	}
	if s.readyTimeout, err = c.duration("server.ready.timeout", p.Ready.Timeout, proc.DefaultReadyTimeout); err != nil {
		return s, err
	}
	if s.readyTimeout == 0 {
		return s, c.pos.errorf("server.ready.timeout", "want a positive duration")
	}
	s.settle, err = c.duration("server.settle", p.Settle, proc.DefaultSettle)
	return s, err
}

// command reads server.command: an argv list or a string split at spaces.
func (c *compiler) command(v any) ([]string, error) {
	var argv []string
	switch v := v.(type) {
	case nil:
		return nil, c.pos.errorf("server.command", "required: the server's command line, e.g. [./server, --port, \"{port}\"]")
	case string:
		argv = strings.Fields(v)
	case []any:
		for i, a := range v {
			s, ok := scalarText(a)
			if !ok {
				return nil, c.pos.errorf(fmt.Sprintf("server.command[%d]", i), "want text, not a list or mapping")
			}
			argv = append(argv, s)
		}
	default:
		return nil, c.pos.errorf("server.command", "want a list of arguments or a command line")
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, c.pos.errorf("server.command", "required: the server's command line is empty")
	}
	for i, a := range argv {
		if err := c.check(fmt.Sprintf("server.command[%d]", i), a); err != nil {
			return nil, err
		}
	}
	return argv, nil
}

// modes checks the modes; none makes one mode, "default".
func (c *compiler) modes(ms []Mode) ([]mode, error) {
	if len(ms) == 0 {
		return []mode{{name: "default"}}, nil
	}
	var out []mode
	seen := map[string]bool{}
	for i, m := range ms {
		field := fmt.Sprintf("modes[%d]", i)
		if err := c.name(field+".name", m.Name, seen); err != nil {
			return nil, err
		}
		for j, a := range m.Args {
			if err := c.check(fmt.Sprintf("%s.args[%d]", field, j), a); err != nil {
				return nil, err
			}
		}
		env, err := c.env(field+".env", m.Env)
		if err != nil {
			return nil, err
		}
		out = append(out, mode{name: m.Name, args: m.Args, env: env})
	}
	return out, nil
}

// name checks a mode's or an operation's name: required, unique, and
// plain enough for file names and tables.
func (c *compiler) name(field, name string, seen map[string]bool) error {
	switch {
	case name == "":
		return c.pos.errorf(field, "required")
	case strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "":
		return c.pos.errorf(field, "%q: use letters, digits, '.', '_' and '-'", name)
	case seen[name]:
		return c.pos.errorf(field, "%q is used twice", name)
	}
	seen[name] = true
	return nil
}

// env checks an environment mapping and returns it as sorted "K=V".
func (c *compiler) env(field string, m map[string]string) ([]string, error) {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k == "" || strings.ContainsAny(k, "= \t\n") {
			return nil, c.pos.errorf(joinPath(field, k), "not a variable name")
		}
		if err := c.check(joinPath(field, k), m[k]); err != nil {
			return nil, err
		}
		out = append(out, k+"="+m[k])
	}
	return out, nil
}

// check expands s with stand-ins to find undefined placeholders and
// unset variables.
func (c *compiler) check(field, s string) error {
	if _, err := c.x.expand(s); err != nil {
		return c.pos.errorf(field, "%v", err)
	}
	return nil
}

// duration reads a duration ("500ms", "2s", bare seconds); "" is def.
func (c *compiler) duration(field, s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, ok := parse.Duration(s)
	if !ok {
		return 0, c.pos.errorf(field, "%q is not a duration (examples: 500ms, 2s, 1m, 30)", s)
	}
	return d, nil
}

// statuses reads a status check: 200, "2xx", "200,204" or a list of them.
// Nothing means 2xx and 3xx.
func (c *compiler) statuses(field string, v any) ([]parse.StatusRange, error) {
	if v == nil {
		return []parse.StatusRange{parse.Success}, nil
	}
	items, isList := v.([]any)
	if !isList {
		items = []any{v}
	}
	var out []parse.StatusRange
	for _, item := range items {
		s, _ := scalarText(item)
		ranges, ok := parse.Statuses(s)
		if !ok {
			return nil, c.pos.errorf(field, "%q is not a status (examples: 200, 2xx, [200, 204])", s)
		}
		out = append(out, ranges...)
	}
	return out, nil
}

// scalarText returns a YAML scalar as text; ok is false for a list or a
// mapping.
func scalarText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []any, map[string]any, nil:
		return "", false
	default:
		return fmt.Sprint(v), true
	}
}
