package doccomment

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// leadingName returns the first word of a doc comment when it reads as a
// Go name (lowerCamel or UpperCamel, with an inner capital); "" otherwise.
func leadingName(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	word, _, _ := strings.Cut(strings.TrimSpace(doc.Text()), " ")
	word = strings.TrimRight(word, ".,:;")
	for i, r := range word {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return ""
		}
		if i > 0 && unicode.IsUpper(r) {
			return word
		}
	}
	return ""
}

// stale reports a doc comment that starts with a name other than the
// ones it documents.
func stale(fset *token.FileSet, doc *ast.CommentGroup, names []string) string {
	if w := leadingName(doc); w != "" && !slices.Contains(names, w) {
		return fset.Position(doc.Pos()).String() + ": the comment names " + w + ", the declaration " + strings.Join(names, ", ")
	}
	return ""
}

// declarations lists a file's documented declarations: each doc comment
// with the names it documents.
func declarations(f *ast.File) map[*ast.CommentGroup][]string {
	out := map[*ast.CommentGroup][]string{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			out[d.Doc] = []string{d.Name.Name}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out[s.Doc] = []string{s.Name.Name}
					if d.Lparen == 0 {
						out[d.Doc] = []string{s.Name.Name}
					}
				case *ast.ValueSpec:
					var names []string
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
					out[s.Doc] = names
					if d.Lparen == 0 {
						out[d.Doc] = names
					}
				}
			}
		}
	}
	delete(out, nil)
	return out
}

func TestDocCommentsNameTheirDeclaration(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../..":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for doc, names := range declarations(f) {
			if msg := stale(fset, doc, names); msg != "" {
				t.Error(msg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestStale(t *testing.T) {
	src := `package p

// readBufferSize is the read buffer.
const loopReadBuffer = 1

// loopReadBuffer is the read buffer.
const other, loopReadBuffer2 = 1, 2

// newLoop makes a loop.
func newLoop() {}

// The loop's buffer: no name first.
var buf []byte

// Handle, a word with no inner capital, is not read as a name.
func handle() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for doc, names := range declarations(f) {
		if msg := stale(fset, doc, names); msg != "" {
			got = append(got, msg)
		}
	}
	slices.Sort(got)
	want := []string{
		"p.go:3:1: the comment names readBufferSize, the declaration loopReadBuffer",
		"p.go:6:1: the comment names loopReadBuffer, the declaration other, loopReadBuffer2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("stale comments:\n%q\nwant\n%q", got, want)
	}
}
