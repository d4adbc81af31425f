// Package docs holds the files made from pummel's command definitions, so
// that the binary prints them without making them: the man page
// (pummel.1) and the shell completion scripts (completion/). cmd/pummel's
// TestGeneratedFilesAreCurrent keeps them current.
package docs

import "embed"

//go:embed pummel.1 completion/pummel.bash completion/pummel.zsh completion/pummel.fish
var files embed.FS

// Man is the man page, in roff.
func Man() string { return read("pummel.1") }

// Completion is the completion script for shell (bash, zsh or fish), or ""
// for any other.
func Completion(shell string) string { return read("completion/pummel." + shell) }

// read returns an embedded file, or "" when there is none of that name.
func read(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}
