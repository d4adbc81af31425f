package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pummel-dev/pummel/internal/bodyfile"
)

// defaultMaxBody bounds request bodies unless --max-body raises it: the
// body is held in memory, written on every request, and a body file may
// be a device that never ends (/dev/zero).
const defaultMaxBody = "64MiB"

// fifoWait bounds each wait on a FIFO before any load: for a body FIFO's
// writer to write (or close it), and for an output FIFO's reader to open
// it. Either is started with pummel (`pummel --body-file <(…)`, `pummel
// -o p.json & jq . p.json`), so it comes in a moment; one that never
// comes is refused, as bad input, rather than waited for in silence.
const fifoWait = 10 * time.Second

// requestBody reads -b or --body-file, refusing a body over --max-body.
func (o *options) requestBody(ctx context.Context) ([]byte, error) {
	limit, err := o.bodyLimit()
	if err != nil {
		return nil, err
	}
	switch {
	case o.body != "" && o.bodyFile != "":
		return nil, usageError{"-b/--body and --body-file: give one or the other"}
	case int64(len(o.body)) > limit:
		return nil, usageError{fmt.Sprintf("-b/--body: %d bytes, over --max-body %s; raise --max-body to send it", len(o.body), o.maxBody)}
	case o.body != "":
		return []byte(o.body), nil
	case o.bodyFile != "":
		b, err := o.bodyReader(ctx, limit)(o.bodyFile)
		switch {
		case ctx.Err() != nil:
			return nil, interruptedReading("--body-file " + o.bodyFile)
		case err != nil:
			return nil, badFlag("--body-file", err)
		}
		return b, nil
	}
	return nil, nil
}

// bodyLimit reads --max-body.
func (o *options) bodyLimit() (int64, error) {
	limit, err := parseSize(o.maxBody)
	if err != nil {
		return 0, badFlag("--max-body", err)
	}
	return limit, nil
}

// bodyReader reads a body file (--body-file, a target's @path) no
// further than limit, --max-body; from a FIFO, waiting at most fifoWait
// for each write, and no longer than ctx. An error names the file.
func (o *options) bodyReader(ctx context.Context, limit int64) func(path string) ([]byte, error) {
	return func(path string) ([]byte, error) {
		b, err := bodyfile.Read(ctx, path, limit, fifoWait)
		return b, bodyFileError(path, o.maxBody, err)
	}
}

// bodyFileError words bodyfile.Read's error for path, read no further
// than --max-body maxBody.
func bodyFileError(path, maxBody string, err error) error {
	switch {
	case errors.Is(err, bodyfile.ErrTooLarge):
		return fmt.Errorf("%s holds more than --max-body %s; raise --max-body to send it", path, maxBody)
	}
	return err
}

// interruptedReading is a signal that came while pummel read what, a
// file it needs before any load.
func interruptedReading(what string) error {
	return exitError{exitInterrupted, "interrupted before the run started, reading " + what}
}
