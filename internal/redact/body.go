package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Body returns what outputs show of a request body instead of the body:
// its size and the first 8 hex digits of its SHA-256, as
// "<redacted: 22 bytes, sha256 1a2b3c4d>", enough to tell two bodies
// apart without printing either. A body is redacted whole, whatever it
// holds: pummel cannot tell which fields of a JSON document or a form are
// secret ({"password": …}, "pin=…"). An empty body hides nothing and
// stays "".
func Body(b string) string { return (*Secrets)(nil).Body(b) }

// Body is the package's Body, also remembering the body and the values of
// its secret name=value pairs, so that Text scrubs them from an error
// message that quotes them.
func (s *Secrets) Body(b string) string {
	if b == "" {
		return ""
	}
	s.Command(b) // remembers password=… and the like
	s.remember(b)
	sum := sha256.Sum256([]byte(b))
	return fmt.Sprintf("<redacted: %d bytes, sha256 %s>", len(b), hex.EncodeToString(sum[:4]))
}
