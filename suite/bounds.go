package suite

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
)

// Bounds on a plan, so that no file can make Load slow or large: a plan
// is a few kilobytes, and large bodies go in body_file. go-yaml has no
// option to bound alias expansion, and its parser slows down as the
// square of the nesting depth or of a mapping's keys, so the file is
// checked in steps, each cheap: its size as read, its tokens and their
// nesting before parsing, and the values its aliases expand to before
// decoding.
const (
	// maxPlanBytes bounds the plan file.
	maxPlanBytes = 1 << 20
	// maxPlanTokens bounds the YAML tokens (keys, values, punctuation):
	// about 200 operations.
	maxPlanTokens = 10_000
	// maxPlanDepth bounds how deep lists and mappings nest: a plan needs
	// about 6 levels, and a JSON check a few more.
	maxPlanDepth = 64
	// maxPlanValues bounds the values (scalars, lists and mappings) of
	// the plan with every alias expanded: a billion-laughs alias bomb
	// stops here.
	maxPlanValues = 100_000
)

// readPlan reads at most maxPlanBytes of the plan at path.
func readPlan(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, planFileError(path, err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxPlanBytes+1))
	if err != nil {
		return nil, planFileError(path, err)
	}
	if len(src) > maxPlanBytes {
		return nil, &PlanError{File: path, Msg: fmt.Sprintf("larger than %d KiB: a plan is a few kilobytes (put large bodies in body_file)", maxPlanBytes>>10)}
	}
	return src, nil
}

// planFileError is a PlanError for a file that cannot be read.
func planFileError(path string, err error) error {
	var perr *os.PathError
	if errors.As(err, &perr) {
		err = perr.Err
	}
	return &PlanError{File: path, Msg: err.Error()}
}

// tokenize splits the plan into YAML tokens, at most maxPlanTokens
// nested at most maxPlanDepth deep.
func tokenize(path string, src []byte) (token.Tokens, error) {
	tokens := lexer.Tokenize(string(src))
	if len(tokens) > maxPlanTokens {
		return nil, &PlanError{File: path, Line: tokens[maxPlanTokens].Position.Line,
			Msg: fmt.Sprintf("more than %d YAML tokens: a plan this large is not one pummel can check quickly", maxPlanTokens)}
	}
	if depth, line := nesting(tokens); depth > maxPlanDepth {
		return nil, &PlanError{File: path, Line: line, Msg: fmt.Sprintf("nested more than %d levels deep", maxPlanDepth)}
	}
	return tokens, nil
}

// nesting returns how deep collections nest among tokens, and the line
// where that depth is first reached. Each flow bracket ([ or {) is a
// level; in block style, each "- " entry or key indented deeper than the
// one before it is a level. It reads indentation as YAML does for the
// nesting that matters here, without parsing.
func nesting(tokens token.Tokens) (depth, line int) {
	flow := 0
	var indents []int // columns of the enclosing block entries and keys
	for i, tk := range tokens {
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			flow++
		case token.SequenceEndType, token.MappingEndType:
			flow = max(flow-1, 0)
		case token.SequenceEntryType, token.MappingValueType:
			if flow > 0 {
				continue
			}
			col := tk.Position.Column
			if tk.Type == token.MappingValueType && i > 0 {
				col = tokens[i-1].Position.Column // the key's
			}
			for len(indents) > 0 && indents[len(indents)-1] >= col {
				indents = indents[:len(indents)-1]
			}
			indents = append(indents, col)
		}
		if d := flow + len(indents); d > depth {
			depth, line = d, tk.Position.Line
		}
	}
	return depth, line
}

// checkExpansion counts the plan's values with every alias expanded,
// without expanding any, and fails past maxPlanValues.
func checkExpansion(path string, f *ast.File) error {
	c := expansion{anchors: map[string]int64{}}
	var total int64
	for _, doc := range f.Docs {
		total = addSizes(total, c.size(doc.Body))
	}
	if total > maxPlanValues {
		return &PlanError{File: path, Line: c.line,
			Msg: fmt.Sprintf("its aliases expand to more than %d values (an alias bomb?)", maxPlanValues)}
	}
	return nil
}

// expansion sizes YAML trees with their aliases expanded. Sizes saturate
// just past maxPlanValues, so that nothing overflows.
type expansion struct {
	anchors map[string]int64 // anchor name → its value's size; a later anchor of the same name replaces it, as in YAML
	line    int              // where the size first went past the bound
}

// size returns how many values n stands for.
func (c *expansion) size(n ast.Node) int64 {
	var total int64
	switch n := n.(type) {
	case nil:
	case *ast.MappingNode:
		for _, v := range n.Values {
			total = addSizes(total, c.size(v))
		}
	case *ast.MappingValueNode:
		total = addSizes(c.size(n.Key), c.size(n.Value))
	case *ast.MappingKeyNode:
		total = c.size(n.Value)
	case *ast.SequenceNode:
		total = 1
		for _, v := range n.Values {
			total = addSizes(total, c.size(v))
		}
	case *ast.TagNode:
		total = c.size(n.Value)
	case *ast.AnchorNode:
		total = c.size(n.Value)
		c.anchors[n.Name.GetToken().Value] = total
	case *ast.AliasNode:
		total = c.anchors[n.Value.GetToken().Value]
	default:
		total = 1
	}
	if total > maxPlanValues && c.line == 0 && n != nil && n.GetToken() != nil {
		c.line = n.GetToken().Position.Line
	}
	return total
}

// addSizes adds two sizes, saturating just past the bound.
func addSizes(a, b int64) int64 {
	return min(a+b, maxPlanValues+1)
}
