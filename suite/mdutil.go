package suite

import "github.com/pummel-dev/pummel/stats"

// markdownWriter is a stats.Printer that the suite's renderers extend.
type markdownWriter struct{ *stats.Printer }
