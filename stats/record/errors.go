package record

// ErrorClass is the closed set of ways a request can fail. The first five
// are wrk's; validation is pummel's own (a response that failed a check).
type ErrorClass uint8

// The error classes, in the order they are printed.
const (
	Connect    ErrorClass = iota // dialing failed or was refused
	Read                         // reset, EOF or a malformed response while reading
	Write                        // the request could not be written
	Timeout                      // no complete response within the per-request timeout
	Status                       // HTTP status >= 400, as wrk counts it
	Validation                   // the response failed --expect-status or --expect-body
	NumErrorClasses
)

var classNames = [NumErrorClasses]string{"connect", "read", "write", "timeout", "status", "validation"}

// String returns the class name used in every output ("connect", "read", …).
func (c ErrorClass) String() string {
	if c < NumErrorClasses {
		return classNames[c]
	}
	return "unknown"
}

// Cause names why a request failed within its class: "refused", "reset",
// "EOF before response", … Causes are free text chosen by the engine; the
// set stays small because the engine maps errors onto a fixed vocabulary.
type Cause struct {
	Class ErrorClass
	Text  string
}
