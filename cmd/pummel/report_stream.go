package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pummel-dev/pummel/stats"
)

// stdinName is the argument that names standard input.
const stdinName = "-"

// readResults reads saved results. Each path is a file, or "-" for
// standard input, holding one or more JSON results one after another, as
// `kubectl logs` prints the parts of a sharded load. An input that cannot
// be read or holds something else than pummel results
// (stats.Result.Validate) is bad input, named in one line with the field
// at fault (standard input as "standard input", not "-"). Lines of
// pummel's own messages between results (a part that failed printed its
// error) are passed on to notes. names label the
// results, for charts: labels[i] for paths[i] when given (report
// --label), else the file's base name less its extension ("stdin" for
// "-"), with "-2", "-3"… after the first result of an input; files say
// where each was read, for messages: the path ("standard input"), with
// " (result 2)"… after the first result of an input.
func readResults(paths, labels []string, stdin io.Reader, notes io.Writer) (rs []stats.Result, names, files []string, err error) {
	for i, path := range paths {
		data, err := readInput(path, stdin)
		if err != nil {
			return nil, nil, nil, usageError{err.Error()}
		}
		name, label := path, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		if path == stdinName {
			name, label = "standard input", "stdin"
		}
		if i < len(labels) {
			label = labels[i]
		}
		more, err := readStream(data, name, notes)
		if err != nil {
			return nil, nil, nil, err
		}
		for i := range more {
			names = append(names, label+suffix(i))
			files = append(files, resultIn(name, i))
		}
		rs = append(rs, more...)
	}
	return rs, names, files, nil
}

// readInput reads a file whole, or standard input for "-".
func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == stdinName {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return data, nil
	}
	return os.ReadFile(path)
}

// suffix tells apart the results of one input: "" for the first, then
// "-2", "-3"….
func suffix(i int) string {
	if i == 0 {
		return ""
	}
	return fmt.Sprintf("-%d", i+1)
}

// readStream decodes the results in data, one after another; name is the
// input, for error lines.
func readStream(data []byte, name string, notes io.Writer) ([]stats.Result, error) {
	var rs []stats.Result
	for pos := 0; ; {
		rest := bytes.TrimLeft(data[pos:], " \t\r\n")
		pos = len(data) - len(rest)
		if len(rest) == 0 {
			break
		}
		where := resultIn(name, len(rs))
		if rest[0] != '{' {
			line, _, _ := bytes.Cut(rest, []byte("\n"))
			if err := passNote(notes, line, name, lineAt(data, pos)); err != nil {
				return nil, err
			}
			pos += len(line)
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(rest))
		r, err := stats.NextJSON(dec)
		if err != nil {
			return nil, usageError{fmt.Sprintf("%s: line %d: %v", where, lineAt(data, pos), err)}
		}
		if err := r.Validate(); err != nil {
			return nil, usageError{fmt.Sprintf("%s: not a pummel result: %v", where, err)}
		}
		rs = append(rs, r)
		pos += int(dec.InputOffset())
	}
	if len(rs) == 0 {
		return nil, usageError{fmt.Sprintf("%s: holds no result (pummel --format json or -o FILE.json writes one)", name)}
	}
	return rs, nil
}

// resultIn names the i-th result (from 0) of the input name in messages:
// "name", then "name (result 2)"….
func resultIn(name string, i int) string {
	if i == 0 {
		return name
	}
	return fmt.Sprintf("%s (result %d)", name, i+1)
}

// passNote passes a line of pummel's own output found between results on
// to notes, and refuses any other line.
func passNote(notes io.Writer, line []byte, name string, at int) error {
	text := strings.TrimSpace(string(line))
	if !strings.HasPrefix(text, "pummel") {
		if r := []rune(text); len(r) > 60 {
			text = string(r[:60]) + "…"
		}
		return usageError{fmt.Sprintf("%s: line %d: %q is not a JSON result (run each part with --format json -q, so that its output holds the result alone)", name, at, text)}
	}
	fmt.Fprintf(notes, "pummel: %s: line %d: %s\n", name, at, text)
	return nil
}

// lineAt is the line number of offset pos in data, from 1.
func lineAt(data []byte, pos int) int { return bytes.Count(data[:pos], []byte("\n")) + 1 }

// warnMerge says on stderr what the reader of a merge must know even when
// stdout carries JSON: results of different loads, parts of a load missing.
func warnMerge(stderr io.Writer, rs []stats.Result, res stats.Result) {
	if w := stats.MixedLoads(rs); w != "" {
		fmt.Fprintf(stderr, "pummel: warning: %s\n", w)
	}
	if w := res.Shards.MissingWarning(); w != "" {
		fmt.Fprintf(stderr, "pummel: warning: %s\n", w)
	}
}
