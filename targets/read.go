package targets

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/pummel-dev/pummel/engine"
)

// maxLine bounds a line of a targets file (a JSON line holds its body).
const maxLine = 16 << 20

// Read reads the targets in r, named file in errors: JSON lines when its
// first character that is not a space is "{", vegeta's http format
// otherwise (where, as vegeta reads it, a request line also ends the
// target before it: a file may list one "GET URL" a line). A body file
// ("@path") is read with body, its path relative to the working
// directory, as vegeta reads it; an error of body's is the line's. It
// checks that there is at least one target, at most engine.MaxTargets,
// with at most engine.MaxRows names, and that all share the first's
// origin.
func Read(r io.Reader, file string, body BodyReader) ([]Target, error) {
	return read(r, file, body, engine.MaxTargets)
}

// BodyReader reads the body file path of an "@path" line: its caller
// decides how much it may hold and how long it may take to read (a FIFO
// is written as it is read).
type BodyReader func(path string) ([]byte, error)

// read is Read with at most maxTargets targets.
func read(r io.Reader, file string, body BodyReader, maxTargets int) ([]Target, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	p := &parser{file: file, sc: bufio.NewScanner(br), body: body, maxTargets: maxTargets, names: map[string]bool{}}
	p.sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	json := false
	for {
		b, err := br.Peek(1)
		if err != nil {
			break
		}
		if b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n' {
			if _, err := br.ReadByte(); err != nil {
				break
			}
			if b[0] == '\n' {
				p.line++
			}
			continue
		}
		json = b[0] == '{'
		break
	}
	var err error
	if json {
		err = p.jsonLines()
	} else {
		err = p.http()
	}
	if err == nil {
		err = p.sc.Err()
		if errors.Is(err, bufio.ErrTooLong) {
			err = p.errorf("a line is longer than %d MiB", maxLine>>20)
		} else if err != nil {
			err = &Error{File: file, Line: p.line, Msg: err.Error()}
		}
	}
	if err != nil {
		return nil, err
	}
	return p.ts, p.check()
}

// parser reads one file; line is the number of the line read last.
type parser struct {
	file       string
	sc         *bufio.Scanner
	body       BodyReader
	line       int
	ts         []Target
	maxTargets int
	names      map[string]bool // the names given so far
}

func (p *parser) errorf(format string, args ...any) error {
	return &Error{File: p.file, Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) next() (string, bool) {
	if !p.sc.Scan() {
		return "", false
	}
	p.line++
	return strings.TrimSuffix(p.sc.Text(), "\r"), true
}

// add appends t, checking the count and the origin.
func (p *parser) add(t Target) error {
	for _, h := range t.Headers {
		if err := engine.CheckHeader(h, len(t.Body)); err != nil {
			return &Error{File: p.file, Line: t.Line, Msg: err.Error()}
		}
	}
	if len(p.ts) == p.maxTargets {
		return &Error{File: p.file, Line: t.Line, Msg: fmt.Sprintf("more than %d targets", p.maxTargets)}
	}
	if len(p.ts) > 0 && engine.Origin(t.URL) != engine.Origin(p.ts[0].URL) {
		return &Error{File: p.file, Line: t.Line, Msg: fmt.Sprintf("%s is not on %s, the first target's scheme, host and port: a load holds one pool of connections",
			engine.Origin(t.URL), engine.Origin(p.ts[0].URL))}
	}
	p.ts = append(p.ts, t)
	return nil
}

func (p *parser) check() error {
	if len(p.ts) == 0 {
		return &Error{File: p.file, Line: max(p.line, 1), Msg: "no targets"}
	}
	return nil
}

// extension holds the `# weight N` and `# name NAME` lines seen before a
// target's request line, or within its block.
type extension struct {
	weight int
	name   string
}

// http reads vegeta's http format.
func (p *parser) http() error {
	var pending, ext extension // before the next target; of the open one
	var cur *Target            // the target whose block is open
	closeTarget := func() error {
		cur.Weight, cur.Name = max(ext.weight, 1), ext.name
		err := p.add(*cur)
		cur = nil
		return err
	}
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			if cur != nil {
				if err := closeTarget(); err != nil {
					return err
				}
			}
		case strings.HasPrefix(trimmed, "#"):
			to := &pending
			if cur != nil {
				to = &ext
			}
			if err := p.comment(trimmed, to); err != nil {
				return err
			}
		case cur == nil || isRequestLine(trimmed):
			if cur != nil { // one target a line, as vegeta reads them too
				if err := closeTarget(); err != nil {
					return err
				}
			}
			t, err := p.requestLine(trimmed)
			if err != nil {
				return err
			}
			cur, ext, pending = &t, pending, extension{}
		case strings.HasPrefix(trimmed, "@"):
			if err := p.bodyFile(cur, strings.TrimSpace(trimmed[1:])); err != nil {
				return err
			}
		default:
			h, err := p.header(line)
			if err != nil {
				return err
			}
			cur.Headers = append(cur.Headers, h)
		}
	}
	if cur != nil {
		return closeTarget()
	}
	if pending != (extension{}) {
		return p.errorf("a weight or name follows the last target")
	}
	return nil
}

// isRequestLine reports whether s, within a target's block, starts the
// next target rather than being a header: "METHOD http://…" or
// "METHOD https://…" (a header's name holds no space, and a header
// "Name :http://…" is still a header).
func isRequestLine(s string) bool {
	f := strings.Fields(s)
	if len(f) != 2 || engine.CheckMethod(f[0]) != nil {
		return false
	}
	scheme, _, ok := strings.Cut(f[1], "://")
	return ok && (strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https"))
}

// requestLine reads "METHOD URL".
func (p *parser) requestLine(s string) (Target, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return Target{}, p.errorf("%q is not a request line: want METHOD URL", s)
	}
	if err := engine.CheckMethod(f[0]); err != nil {
		return Target{}, p.errorf("%v", err)
	}
	u, err := parseURL(f[1])
	if err != nil {
		return Target{}, p.errorf("%v", err)
	}
	return Target{Target: engine.Target{Method: strings.ToUpper(f[0]), URL: u}, Line: p.line}, nil
}

// header reads "Name: value".
func (p *parser) header(s string) (engine.Header, error) {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return engine.Header{}, p.errorf("%q is not a header line (Name: value), a body file (@path) or a blank line", s)
	}
	return engine.Header{Name: name, Value: strings.TrimSpace(value)}, nil
}

func (p *parser) bodyFile(t *Target, path string) error {
	if t.Body != nil {
		return p.errorf("a second body file")
	}
	if path == "" {
		return p.errorf("@ names no body file")
	}
	b, err := p.body(path)
	if err != nil {
		return p.errorf("body file: %v", err)
	}
	t.Body = b
	return nil
}

// comment reads a `# weight N` or `# name NAME` line into ext; other
// comments are skipped.
func (p *parser) comment(s string, ext *extension) error {
	f := strings.Fields(strings.TrimPrefix(s, "#"))
	if len(f) == 0 || f[0] != "weight" && f[0] != "name" {
		return nil
	}
	if len(f) != 2 {
		return p.errorf("want `# %s VALUE`", f[0])
	}
	if f[0] == "name" {
		return p.setName(&ext.name, f[1])
	}
	if ext.weight != 0 {
		return p.errorf("a second weight for one target")
	}
	w, err := parseWeight(f[1])
	if err != nil {
		return p.errorf("%v", err)
	}
	ext.weight = w
	return nil
}

func parseWeight(s string) (int, error) {
	w, err := strconv.Atoi(s)
	if err != nil || w < 1 || w > engine.MaxWeight {
		return 0, fmt.Errorf("weight %q: need a whole number from 1 to %d", s, engine.MaxWeight)
	}
	return w, nil
}

// setName sets a target's name: not a number (a number is a row's place
// among the rows), no spaces or braces. Targets that share a name share a
// row of figures; there are at most engine.MaxRows names.
func (p *parser) setName(dst *string, name string) error {
	switch {
	case *dst != "":
		return p.errorf("a second name for one target")
	case strings.ContainsAny(name, "{}=,\"") || name[0] >= '0' && name[0] <= '9':
		return p.errorf("name %q: use letters, digits, '-' or '_', not starting with a digit", name)
	case !p.names[name] && len(p.names) == engine.MaxRows:
		return p.errorf("name %q: more than %d names (targets that share a name share a row of figures, at most %d rows)", name, engine.MaxRows, engine.MaxRows)
	}
	p.names[name] = true
	*dst = name
	return nil
}

// jsonTarget is a line of the JSON format.
type jsonTarget struct {
	Method string              `json:"method"`
	URL    string              `json:"url"`
	Header map[string][]string `json:"header"`
	Body   []byte              `json:"body"` // base64
	Weight *int                `json:"weight"`
	Name   string              `json:"name"`
}

// jsonLines reads one JSON object a line; blank lines are skipped.
func (p *parser) jsonLines() error {
	for {
		line, ok := p.next()
		if !ok {
			return nil
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		var j jsonTarget
		d := json.NewDecoder(strings.NewReader(line))
		d.DisallowUnknownFields()
		if err := d.Decode(&j); err != nil {
			return p.errorf("not a JSON target: %v", err)
		}
		t, err := p.fromJSON(j)
		if err != nil {
			return err
		}
		if err := p.add(t); err != nil {
			return err
		}
	}
}

func (p *parser) fromJSON(j jsonTarget) (Target, error) {
	t := Target{Target: engine.Target{Method: strings.ToUpper(j.Method), Body: j.Body, Weight: 1}, Line: p.line}
	if j.Method != "" {
		if err := engine.CheckMethod(j.Method); err != nil {
			return t, p.errorf("%v", err)
		}
	}
	u, err := parseURL(j.URL)
	if err != nil {
		return t, p.errorf("url: %v", err)
	}
	t.URL = u
	if j.Weight != nil {
		if t.Weight, err = parseWeight(strconv.Itoa(*j.Weight)); err != nil {
			return t, p.errorf("%v", err)
		}
	}
	if j.Name != "" {
		if err := p.setName(&t.Name, j.Name); err != nil {
			return t, err
		}
	}
	names := make([]string, 0, len(j.Header))
	for name := range j.Header {
		names = append(names, name)
	}
	slices.Sort(names) // a map has no order: sorted, so that runs are alike
	for _, name := range names {
		if strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t:") {
			return t, p.errorf("header name %q", name)
		}
		for _, v := range j.Header[name] {
			t.Headers = append(t.Headers, engine.Header{Name: name, Value: v})
		}
	}
	return t, nil
}
