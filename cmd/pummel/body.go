package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// defaultMaxBody bounds request bodies unless --max-body raises it: the
// body is held in memory, written on every request, and a body file may
// be a device that never ends (/dev/zero).
const defaultMaxBody = "64MiB"

// requestBody reads -b or --body-file, refusing a body over --max-body.
func (o *options) requestBody() ([]byte, error) {
	limit, err := parseSize(o.maxBody)
	if err != nil {
		return nil, badFlag("--max-body", err)
	}
	switch {
	case o.body != "" && o.bodyFile != "":
		return nil, usageError{"-b/--body and --body-file: give one or the other"}
	case int64(len(o.body)) > limit:
		return nil, usageError{fmt.Sprintf("-b/--body: %d bytes, over --max-body %s; raise --max-body to send it", len(o.body), o.maxBody)}
	case o.body != "":
		return []byte(o.body), nil
	case o.bodyFile != "":
		b, err := readAtMost(o.bodyFile, limit)
		if errors.Is(err, errTooLarge) {
			return nil, usageError{fmt.Sprintf("--body-file: %s holds more than --max-body %s; raise --max-body to send it", o.bodyFile, o.maxBody)}
		}
		if err != nil {
			return nil, badFlag("--body-file", err)
		}
		return b, nil
	}
	return nil, nil
}

// errTooLarge is a body file over the limit.
var errTooLarge = errors.New("over the limit")

// readAtMost reads path, stopping one byte past limit, so that an endless
// file (/dev/zero) costs no more than limit bytes of memory and is
// refused at once.
func readAtMost(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, errTooLarge // no need to read it
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		return nil, errTooLarge
	}
	return b, err
}
