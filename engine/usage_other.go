//go:build !unix

package engine

import "time"

// cpuTime is unknown here; saturation is then never reported.
func cpuTime() time.Duration { return 0 }
