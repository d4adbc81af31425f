package suite

import "github.com/pummel-dev/pummel/stats/render"

// markdownWriter is a render.Printer that the suite's renderers extend.
type markdownWriter struct{ *render.Printer }
