//go:build !urfave_cli_no_docs

package main

import (
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/urfave/cli/v2"

	"github.com/pummel-dev/pummel/internal/golden"
)

// The man page and completion scripts in docs/ are made here, from the
// command definitions, by TestGeneratedFilesAreCurrent (-update rewrites
// them); the binary embeds the files.

// TestGeneratedFilesAreCurrent: the man page and the completion scripts
// kept in docs/ are what the command definitions make; after changing a
// flag, `go test ./cmd/pummel -run TestGeneratedFilesAreCurrent -update`
// rewrites them.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for file, args := range generatedFiles {
		app := newApp(&commandLine{}, io.Discard, io.Discard)
		var made string
		var err error
		if args[0] == "man" {
			made, err = app.ToManWithSection(1)
		} else {
			made, err = completionScript(app, args[1])
		}
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		golden.CheckFile(t, file, []byte(made))
	}
}

// Path flags are marked for completion when a script is made, not on
// every invocation; the mark then reaches every command's flags.
func TestOnlyCompletionMarksPathFlags(t *testing.T) {
	app := newApp(&commandLine{}, io.Discard, io.Discard)
	marked := func() (names []string) {
		for _, f := range flagsFor(app, []string{"run"}) {
			if takesFile(f) {
				names = append(names, f.Names()[0])
			}
		}
		return names
	}
	if got := marked(); len(got) > 0 {
		t.Errorf("newApp marked %v as taking files; only a completion script needs that", got)
	}
	for _, shell := range shells {
		if _, err := completionScript(app, shell); err != nil {
			t.Fatalf("completion %s: %v", shell, err)
		}
		if got := marked(); !slices.Contains(got, "body-file") || slices.Contains(got, "connections") {
			t.Errorf("after completion %s, run's path flags are %v; want body-file and not connections", shell, got)
		}
	}
}

// completionScript writes the script for one shell. fish's comes from
// urfave/cli; bash's is made here, and zsh runs it through bashcompinit.
// Only completion needs the flags marked TakesFile and the bash
// template, so neither is done for other commands.
func completionScript(app *cli.App, shell string) (string, error) {
	markPathFlags(app)
	if shell == "fish" {
		return app.ToFishCompletion()
	}
	var b strings.Builder
	if shell == "zsh" {
		b.WriteString("# zsh completion for pummel, made by `pummel completion zsh`.\n" +
			"# Load it from ~/.zshrc, after compinit: source <(pummel completion zsh)\n" +
			"autoload -U +X bashcompinit && bashcompinit\n")
	} else {
		b.WriteString("# bash completion for pummel, made by `pummel completion bash`.\n" +
			"# Load it from ~/.bashrc: source <(pummel completion bash)\n" +
			"# or install it: pummel completion bash > /etc/bash_completion.d/pummel\n")
	}
	bash, err := template.New("bash").Parse(bashScript)
	if err != nil {
		return "", err
	}
	err = bash.Execute(&b, bashCompletion(app))
	return b.String(), err
}

// completion is what the bash script knows of the commands.
type completion struct {
	Commands       string         // every command name, space-separated
	CommandPattern string         // the same as a case pattern
	Flags          []commandFlags // pummel's own (command ""), then each command's
	Paths          string         // flags whose value is a file or directory, as a case pattern
	Values         string         // other flags that take a value, as a case pattern
	CompareFormats string         // compare's --format values, space-separated
}

// commandFlags are one command's flags, space-separated.
type commandFlags struct {
	Command, Flags string
}

// bashCompletion reads the commands and flags of app.
func bashCompletion(app *cli.App) completion {
	var c completion
	var names []string
	paths, values := map[string]bool{}, map[string]bool{}
	add := func(name string, flags []cli.Flag) {
		var all []string
		for _, f := range flags {
			spelled := strings.Fields(strings.ReplaceAll(flagNames(f, ""), ",", ""))
			all = append(all, spelled...)
			kind := values
			if takesFile(f) {
				kind = paths
			}
			if _, isBool := f.(*cli.BoolFlag); !isBool {
				for _, s := range spelled {
					kind[s] = true
				}
			}
		}
		c.Flags = append(c.Flags, commandFlags{name, strings.Join(all, " ")})
	}
	add(`""`, app.Flags)
	for _, cmd := range app.Commands {
		names = append(names, cmd.Name)
		add(cmd.Name, cmd.Flags)
	}
	c.Commands, c.CommandPattern = strings.Join(names, " "), strings.Join(names, "|")
	c.Paths, c.Values = casePattern(paths), casePattern(values)
	c.CompareFormats = strings.Join(compareFormats, " ")
	return c
}

// markPathFlags sets TakesFile on every flag whose placeholder names a
// file or directory (`FILE`, `DIR`, `PATH`), so that completion offers
// file names for its value. Nothing else reads TakesFile (urfave/cli's
// man page does not), so it is done only for a completion script.
func markPathFlags(app *cli.App) {
	all := slices.Clone(app.Flags)
	for _, cmd := range app.Commands {
		all = append(all, cmd.Flags...)
	}
	for _, f := range all {
		placeholder, _ := unquoteUsage(flagUsage(f))
		if !strings.Contains(placeholder, "FILE") && !strings.Contains(placeholder, "DIR") && !strings.Contains(placeholder, "PATH") {
			continue
		}
		switch f := f.(type) {
		case *cli.StringFlag:
			f.TakesFile = true
		case *cli.StringSliceFlag:
			f.TakesFile = true
		}
	}
}

// takesFile reports whether a flag's value is a file or directory.
func takesFile(f cli.Flag) bool {
	switch f := f.(type) {
	case *cli.StringFlag:
		return f.TakesFile
	case *cli.StringSliceFlag:
		return f.TakesFile
	}
	return false
}

// casePattern joins flag spellings into a bash case pattern, sorted.
func casePattern(set map[string]bool) string {
	return strings.Join(slices.Sorted(maps.Keys(set)), "|")
}

// bashScript is the template of the bash script (and zsh's).
const bashScript = `_pummel() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            {{.CommandPattern}}) cmd=${COMP_WORDS[i]}; break ;;
            -*) ;;
            *) break ;;
        esac
    done
    case $prev in
        --progress) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --format)
            local formats="text json markdown"
            [[ $cmd == compare ]] && formats="{{.CompareFormats}}"
            COMPREPLY=($(compgen -W "$formats" -- "$cur")); return ;;
        --engine) COMPREPLY=($(compgen -W "auto loop goroutine" -- "$cur")); return ;;
        {{.Paths}}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        {{.Values}}) COMPREPLY=(); return ;;
    esac
    local flags
    case $cmd in
{{- range .Flags}}
        {{.Command}}) flags="{{.Flags}}" ;;
{{- end}}
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi
    case $cmd in
        completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
        help) COMPREPLY=($(compgen -W "{{.Commands}}" -- "$cur")) ;;
        "") COMPREPLY=($(compgen -W "{{.Commands}}" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o default -F _pummel pummel
`
