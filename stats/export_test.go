package stats

import (
	"encoding/json"
	"io"
)

// ReadJSON decodes the one result rd holds, as `pummel report` reads a
// file (NextJSON).
func ReadJSON(rd io.Reader) (Result, error) { return NextJSON(json.NewDecoder(rd)) }
