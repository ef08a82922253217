//go:build !unix

package gen_test

import "time"

var start = time.Now()

// cpuTime returns the wall-clock time since the tests started, where the
// process's CPU time is not at hand.
func cpuTime() time.Duration { return time.Since(start) }
