package suite

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// PlanError is a mistake in a plan, located in its file: fix the field it
// names. Its message is one line: "plan.yaml:12: operations[1].url: …".
type PlanError struct {
	File  string // the plan's path as given
	Line  int    // 1-based; 0 when the mistake has no line
	Field string // dotted path of the field, "" for the whole file
	Msg   string
}

func (e *PlanError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if e.Field == "" {
		return loc + ": " + e.Msg
	}
	return loc + ": " + e.Field + ": " + e.Msg
}

// positions maps the fields of a parsed plan to their lines, so that a
// mistake found after decoding can still be located.
type positions struct {
	file  string
	lines map[string]int    // field path → line
	paths map[string]string // "line:column" of a key or value token → field path
}

// indexPositions walks the YAML tree of a plan.
func indexPositions(file string, f *ast.File) *positions {
	p := &positions{file: file, lines: map[string]int{}, paths: map[string]string{}}
	for _, doc := range f.Docs {
		p.walk(doc.Body, "")
	}
	return p
}

func (p *positions) walk(n ast.Node, path string) {
	switch n := n.(type) {
	case *ast.MappingNode:
		for _, v := range n.Values {
			p.walk(v, path)
		}
	case *ast.MappingValueNode:
		child := joinPath(path, n.Key.GetToken().Value)
		p.note(child, n.Key.GetToken())
		p.note(child, n.Value.GetToken())
		p.walk(n.Value, child)
	case *ast.SequenceNode:
		for i, v := range n.Values {
			child := fmt.Sprintf("%s[%d]", path, i)
			p.note(child, v.GetToken())
			p.walk(v, child)
		}
	case *ast.TagNode:
		p.walk(n.Value, path)
	case *ast.AnchorNode:
		p.walk(n.Value, path)
	}
}

// note records where a field is: its first token wins (the key's).
func (p *positions) note(path string, tk *token.Token) {
	if tk == nil {
		return
	}
	if _, ok := p.lines[path]; !ok {
		p.lines[path] = tk.Position.Line
	}
	p.paths[tokenKey(tk)] = path
}

func tokenKey(tk *token.Token) string {
	return fmt.Sprintf("%d:%d", tk.Position.Line, tk.Position.Column)
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// errorf returns a PlanError for field, on the line of the field or, for
// a missing one, of its nearest parent that is written.
func (p *positions) errorf(field, format string, args ...any) *PlanError {
	return &PlanError{File: p.file, Line: p.line(field), Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (p *positions) line(field string) int {
	for f := field; f != ""; f = parentPath(f) {
		if line, ok := p.lines[f]; ok {
			return line
		}
	}
	return 0
}

// parentPath drops the last segment: "a.b[2]" → "a.b", "a.b" → "a".
func parentPath(path string) string {
	if strings.HasSuffix(path, "]") {
		return path[:strings.LastIndexByte(path, '[')]
	}
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return ""
	}
	return path[:i]
}

// yamlError turns a go-yaml error into a PlanError naming the field.
func (p *positions) yamlError(err error) *PlanError {
	var ye yaml.Error
	if !errors.As(err, &ye) || ye.GetToken() == nil {
		return &PlanError{File: p.file, Msg: err.Error()}
	}
	tk := ye.GetToken()
	e := &PlanError{File: p.file, Line: tk.Position.Line, Field: p.paths[tokenKey(tk)], Msg: ye.GetMessage()}
	var unknown *yaml.UnknownFieldError
	var typ *yaml.TypeError
	switch {
	case errors.As(err, &unknown):
		e.Msg = "unknown field (the README lists a plan's fields)"
	case errors.As(err, &typ):
		e.Msg = fmt.Sprintf("want %s, not %s", kindName(typ.DstType), kindName(typ.SrcType))
	}
	return e
}

// kindName names a Go type the way a plan's author thinks of it.
func kindName(t reflect.Type) string {
	if t == nil {
		return "nothing"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Int32, reflect.Uint32:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping (name: value)"
	case reflect.Pointer:
		return kindName(t.Elem())
	}
	return t.String()
}
