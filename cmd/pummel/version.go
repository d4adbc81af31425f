package main

import (
	"io"

	"github.com/pummel-dev/pummel/environment"
	"github.com/urfave/cli/v2"
)

// Set at link time by scripts/build.sh (-X main.version=… and so on);
// empty ones are read from the Go toolchain's build info.
var (
	version string
	commit  string
	date    string
)

// build describes this binary.
func build() environment.Build {
	return environment.ReadBuild(environment.Linked{Version: version, Commit: commit, Date: date})
}

// versionFlag is the root's --version (-v, as wrk has it).
func versionFlag() cli.Flag {
	return &cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print pummel's version, commit, build date and Go version"}
}

// versionCommand is `pummel version`.
func versionCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:         "version",
		Usage:        "print pummel's version, commit, build date and Go version",
		OnUsageError: onUsageError,
		Action:       func(*cli.Context) error { return writeVersion(stdout) },
	}
}

func writeVersion(w io.Writer) error {
	_, err := io.WriteString(w, build().String())
	return err
}
