package main

import (
	"io"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/pummel-dev/pummel/docs"
)

// shells are the shells `pummel completion` writes a script for.
var shells = []string{"bash", "zsh", "fish"}

// completionCommand is `pummel completion bash|zsh|fish`: the completion
// script kept in docs/completion. It is made from the commands' flags
// when the tests run (TestGeneratedFilesAreCurrent), not by every binary:
// the generator stays out of a load run's start.
func completionCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:         "completion",
		Usage:        "print a shell completion script: bash, zsh or fish",
		ArgsUsage:    "bash|zsh|fish",
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || !slices.Contains(shells, c.Args().First()) {
				return usageError{"completion: give one shell: bash, zsh or fish (pummel completion bash)"}
			}
			_, err := io.WriteString(stdout, docs.Completion(c.Args().First()))
			return err
		},
	}
}

// manCommand is `pummel man`: the man page, in roff, kept in
// docs/pummel.1 and made from the command definitions when the tests run,
// as the completion scripts are: urfave/cli's man-page writer and the
// Markdown parser under it are not linked into a binary built with
// scripts/build.sh (tag urfave_cli_no_docs).
func manCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:         "man",
		Usage:        "print pummel's man page (roff): pummel man > pummel.1",
		OnUsageError: onUsageError,
		Action: func(*cli.Context) error {
			_, err := io.WriteString(stdout, docs.Man())
			return err
		},
	}
}
