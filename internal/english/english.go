// Package english holds what pummel's messages and renderers share for
// writing English. It never formats figures: units and numbers are the
// renderers' (stats/render).
package english

import "fmt"

// Plural is n followed by noun, with an s unless n is 1: "1 run",
// "3 runs", "0 check failures".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
