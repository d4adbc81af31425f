package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
)

// helpWidth is the widest line help writes: it fits a terminal of 100
// columns (TestHelpFitsHundredColumns).
const helpWidth = 100

// nameColumn bounds the column of flag and command names; a longer name
// puts its text on the next line.
const nameColumn = 26

// addHelp gives every command of app a -h/--help flag and the app a `help
// [COMMAND]` command, all written by writeHelp rather than urfave/cli's
// templates: those print repeatable flags with a placeholder twice and
// bools with "(default: false)", which made lines of 200 columns. run()
// answers -h itself (askedHelp) before urfave/cli parses: urfave/cli
// would show its own help for any flag named help.
func addHelp(app *cli.App, stdout io.Writer) {
	app.HideHelp, app.HideHelpCommand = true, true
	app.Commands = append(app.Commands, &cli.Command{
		Name: "help", Usage: "show help for pummel or one command", ArgsUsage: "[COMMAND]", OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return writeHelp(stdout, app, nil)
			}
			cmd := app.Command(c.Args().First())
			if cmd == nil {
				return usageError{fmt.Sprintf("help: %q is not a command (pummel help lists them)", c.Args().First())}
			}
			return writeHelp(stdout, app, cmd)
		},
	})
	app.Flags = append(app.Flags, helpFlag())
	for _, cmd := range app.Commands {
		cmd.HideHelp, cmd.HideHelpCommand = true, true
		cmd.Flags = append(cmd.Flags, helpFlag())
	}
}

func helpFlag() cli.Flag {
	return &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show this help"}
}

// askedHelp reports whether the command line asks for help (-h or
// --help before any "--"), and for which command: nil for pummel's own.
func askedHelp(app *cli.App, args []argument) (cmd *cli.Command, asked bool) {
	for i, a := range args {
		switch {
		case i == 0 && !a.positional && a.flag == "" && app.Command(a.text) != nil:
			cmd = app.Command(a.text)
		case a.flag == "help" && (!a.hasValue || a.value != "false"):
			asked = true
		}
	}
	return cmd, asked
}

// writeHelp writes the help of cmd, or of pummel itself for nil: what it
// does, its usage, the commands (pummel's), and its flags.
func writeHelp(w io.Writer, app *cli.App, cmd *cli.Command) error {
	var b strings.Builder
	if cmd == nil {
		fmt.Fprintf(&b, "pummel: %s\n\n", app.Usage)
		wrap(&b, "", app.Description, "")
		b.WriteString("\nUsage:\n")
		for _, line := range strings.Split(app.UsageText, "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
		b.WriteString("\nCommands:\n")
		var names, usages []string
		for _, c := range app.Commands {
			names, usages = append(names, c.Name), append(usages, c.Usage)
		}
		writeColumns(&b, names, usages)
		b.WriteString("\nFlags (of run, the default command):\n")
		writeFlags(&b, app.Flags)
	} else {
		wrap(&b, "", fmt.Sprintf("pummel %s: %s", cmd.Name, cmd.Usage), "  ")
		fmt.Fprintf(&b, "\nUsage: %s\n", commandUsage(cmd))
		b.WriteString("\nFlags:\n")
		writeFlags(&b, cmd.Flags)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// commandUsage is a command's usage line: "pummel report [flags] FILE.json…".
func commandUsage(cmd *cli.Command) string {
	name := cmd.Name
	if name == "run" {
		name = "[run]"
	}
	return strings.TrimSpace(fmt.Sprintf("pummel %s [flags] %s", name, cmd.ArgsUsage))
}

// writeFlags writes one entry per visible flag: its names and
// placeholder, then its usage and default.
func writeFlags(b *strings.Builder, flags []cli.Flag) {
	var names, usages []string
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue // a flag a command parses only to refuse it
		}
		placeholder, usage := unquoteUsage(flagUsage(f))
		if def := flagDefault(f); def != "" {
			usage += " (default " + def + ")"
		}
		name := flagNames(f, placeholder)
		if strings.HasPrefix(name, "--") {
			name = "    " + name // long names line up under the short ones' long names
		}
		names, usages = append(names, name), append(usages, usage)
	}
	writeColumns(b, names, usages)
}

// flagNames is "-c, --connections N": the short alias first, as wrk and
// ab users read them.
func flagNames(f cli.Flag, placeholder string) string {
	var short, long []string
	for _, n := range f.Names() {
		if len(n) == 1 {
			short = append(short, "-"+n)
		} else {
			long = append(long, "--"+n)
		}
	}
	s := strings.Join(append(short, long...), ", ")
	if placeholder != "" {
		s += " " + placeholder
	}
	return s
}

// writeColumns writes names and texts as two columns, the second as wide
// as the widest name up to nameColumn; a wider name puts its text on the
// next line.
func writeColumns(b *strings.Builder, names, texts []string) {
	width := 0
	for _, n := range names {
		if w := utf8.RuneCountInString(n); w <= nameColumn {
			width = max(width, w)
		}
	}
	indent := strings.Repeat(" ", 2+width+2)
	for i, name := range names {
		first := "  " + name + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(name))+2)
		if utf8.RuneCountInString(name) > width {
			b.WriteString("  " + name + "\n")
			first = indent
		}
		wrap(b, first, texts[i], indent)
	}
}

// wrap writes text after first, word by word, in lines of at most
// helpWidth runes, the later ones starting with indent.
func wrap(b *strings.Builder, first, text, indent string) {
	line, width, empty := first, utf8.RuneCountInString(first), true
	for _, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		if !empty && width+1+n > helpWidth {
			b.WriteString(line + "\n")
			line, width, empty = indent, utf8.RuneCountInString(indent), true
		}
		if !empty {
			line, width = line+" ", width+1
		}
		line, width, empty = line+word, width+n, false
	}
	b.WriteString(line + "\n")
}

// unquoteUsage takes the placeholder out of a usage's backquotes
// ("keep-alive `N` connections" → "N", "keep-alive N connections"), as
// urfave/cli reads it.
func unquoteUsage(usage string) (placeholder, text string) {
	before, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return "", usage
	}
	placeholder, after, ok := strings.Cut(rest, "`")
	if !ok {
		return "", usage
	}
	return placeholder, before + placeholder + after
}

// flagUsage is a flag's usage text.
func flagUsage(f cli.Flag) string {
	if d, ok := f.(cli.DocGenerationFlag); ok {
		return d.GetUsage()
	}
	return ""
}

// flagDefault is a flag's default as help shows it: a value flag's
// default text or value, "on" for a bool that is on unless turned off;
// "" for none (and for bools that are off).
func flagDefault(f cli.Flag) string {
	switch f := f.(type) {
	case *cli.StringFlag:
		return cmp.Or(f.DefaultText, f.Value)
	case *cli.IntFlag:
		if f.DefaultText == "" && f.Value != 0 {
			return fmt.Sprint(f.Value)
		}
		return f.DefaultText
	case *cli.BoolFlag:
		if f.Value {
			return "on"
		}
	}
	return ""
}
