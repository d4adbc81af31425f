package main

import (
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// flagName is a flag as the README's table writes it: -c or --connections.
var flagName = regexp.MustCompile(`(?:^|[^A-Za-z0-9-])(--?[A-Za-z][A-Za-z0-9-]*)`)

// readmeFlags returns the flags named in the first column of README.md's
// flag table (the one headed "| flag | meaning |").
func readmeFlags(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n| flag | meaning |\n|---|---|\n")
	if !ok {
		t.Fatal(`README.md has no "| flag | meaning |" table`)
	}
	var names []string
	for line := range strings.Lines(table) {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.ReplaceAll(line, `\|`, " "), "|")
		for _, m := range flagName.FindAllStringSubmatch(cells[1], -1) {
			names = append(names, m[1])
		}
	}
	return names
}

// TestReadmeFlagTable: every flag of the run command is in the README's
// flag table, and every flag the table names exists, as
// TestGeneratedFilesAreCurrent keeps the man page true.
func TestReadmeFlagTable(t *testing.T) {
	inReadme := readmeFlags(t)
	var real []string
	for _, f := range newApp(&commandLine{}, io.Discard, io.Discard).Command("run").Flags {
		for _, name := range f.Names() {
			if name == "help" || name == "h" {
				continue
			}
			if len(name) == 1 {
				name = "-" + name
			} else {
				name = "--" + name
			}
			real = append(real, name)
		}
	}
	for _, name := range real {
		if !slices.Contains(inReadme, name) {
			t.Errorf("README.md's flag table lacks %s", name)
		}
	}
	for _, name := range inReadme {
		if !slices.Contains(real, name) {
			t.Errorf("README.md's flag table names %s, which the run command does not have", name)
		}
	}
}
