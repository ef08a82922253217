//go:build !unix

package gen_test

import "time"

// cpuTime is not measured on this system; benchmarks then skip the
// CPU-time rate.
func cpuTime() time.Duration { return 0 }
