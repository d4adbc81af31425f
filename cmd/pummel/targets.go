package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pummel-dev/pummel/engine"
	"github.com/pummel-dev/pummel/internal/bodyfile"
	"github.com/pummel-dev/pummel/internal/redact"
	"github.com/pummel-dev/pummel/stats/render"
	"github.com/pummel-dev/pummel/targets"
)

// --targets FILE (- for stdin) loads a list of requests instead of one
// URL: the URL argument is then not given (the first target's URL is the
// load's). -m, -H, -T and -b/--body-file apply to every target as
// defaults: a target's own method, body, and headers of the same name
// take their place.

// loadURL reads the URL argument, or, with --targets, the list of
// targets and the first one's URL.
func (o *options) loadURL(ctx context.Context, c *engine.Config) error {
	if o.targetsFile == "" {
		var err error
		c.URL, err = parseTarget(o.target)
		return err
	}
	if o.target != "" {
		return usageError{fmt.Sprintf("--targets: give a URL (%s) or --targets, not both", o.target)}
	}
	list, err := o.targetList(ctx)
	if err != nil {
		return err
	}
	c.URL = list[0].URL
	return nil
}

// targetList reads the --targets file once (stdin cannot be read twice),
// and its body files no further than --max-body.
func (o *options) targetList(ctx context.Context) ([]targets.Target, error) {
	if o.targets != nil {
		return o.targets, nil
	}
	limit, err := o.bodyLimit()
	if err != nil {
		return nil, err
	}
	stdin, name := o.stdin, o.targetsFile
	if stdin == nil {
		stdin = os.Stdin
	}
	if name == stdinName {
		name = "stdin"
	}
	data, err := readTargetsFile(ctx, o.targetsFile, stdin)
	if ctx.Err() != nil {
		return nil, interruptedReading("--targets " + o.targetsFile)
	}
	if err != nil {
		return nil, badFlag("--targets", err)
	}
	list, err := targets.Read(bytes.NewReader(data), name, o.bodyReader(ctx, limit))
	var bad *targets.Error
	if ctx.Err() != nil {
		return nil, interruptedReading("--targets " + o.targetsFile)
	}
	if errors.As(err, &bad) {
		return nil, usageError{"--targets: " + bad.Error()}
	}
	if err != nil {
		return nil, badFlag("--targets", err)
	}
	o.targets = list
	return list, nil
}

// withTargets sets c.Targets from the --targets list, with c's method,
// headers and body (from -m, -H, -T, -b) as each target's defaults.
func (o *options) withTargets(c *engine.Config) {
	if o.targetsFile == "" {
		return
	}
	c.Targets = make([]engine.Target, 0, len(o.targets)) // read by loadURL
	for _, t := range o.targets {
		et := t.Target
		if et.Method == "" {
			et.Method = c.Method
		}
		if et.Body == nil {
			et.Body = c.Body
		}
		et.Headers = withDefaultHeaders(c.Headers, t.Headers)
		c.Targets = append(c.Targets, et)
	}
}

// withDefaultHeaders is defaults, less those a target header of the same
// name replaces, then the target's own.
func withDefaultHeaders(defaults, own []engine.Header) []engine.Header {
	var out []engine.Header
	for _, d := range defaults {
		replaced := false
		for _, h := range own {
			replaced = replaced || strings.EqualFold(h.Name, d.Name)
		}
		if !replaced {
			out = append(out, d)
		}
	}
	return append(out, own...)
}

// writeTargetPlan lists the rows of targets a dry run would load, each
// by its first target's request, URLs redacted: "Target 2 login (weight
// 3): POST http://127.0.0.1:8080/login", and "… (+4,999 more)" after a
// row of 5,000 targets.
func writeTargetPlan(w io.Writer, ts []engine.Target) {
	rows, _, err := engine.TargetRows(ts)
	if err != nil {
		fmt.Fprintf(w, "Targets: %v\n", err)
		return
	}
	for i, r := range rows {
		name := ""
		if r.Name != "" {
			name = " " + r.Name
		}
		t := ts[r.First]
		fmt.Fprintf(w, "Target %d%s (weight %d): %s %s%s\n", i+1, name, r.Weight, engine.Method(t.Method, len(t.Body) > 0),
			redact.URL(t.URL.String()), render.MoreTargets(r.Targets))
	}
}

// defaultReadyURL is the URL --exec polls by default: the URL argument, or the
// first target's (config read them).
func (o *options) defaultReadyURL() string {
	if o.targetsFile == "" {
		return o.target
	}
	if len(o.targets) > 0 {
		return o.targets[0].URL.String()
	}
	return ""
}

// maxTargetsFile bounds a --targets file: a list of a million targets
// takes some tens of MiB, and /dev/zero must not run the machine out of
// memory.
const maxTargetsFile = 256 << 20

// readTargetsFile reads the --targets file no further than
// maxTargetsFile, standard input for "-"; a FIFO is read as bodyfile
// reads one, so that a signal ends the wait for its writer.
func readTargetsFile(ctx context.Context, path string, stdin io.Reader) ([]byte, error) {
	var data []byte
	var err error
	name := path
	if path == stdinName {
		name = "stdin"
		data, err = io.ReadAll(io.LimitReader(stdin, maxTargetsFile+1))
		if err == nil && len(data) > maxTargetsFile {
			err = bodyfile.ErrTooLarge
		}
	} else {
		data, err = bodyfile.Read(ctx, path, maxTargetsFile, fifoWait)
	}
	switch {
	case errors.Is(err, bodyfile.ErrTooLarge):
		return nil, fmt.Errorf("%s holds more than %d MiB: split the list", name, maxTargetsFile>>20)
	}
	return data, err
}
