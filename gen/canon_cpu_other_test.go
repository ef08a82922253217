//go:build !unix

package gen_test

import "time"

// benchCPUTime is not measured on this system; benchmarks then skip the
// CPU-time rate.
func benchCPUTime() time.Duration { return 0 }
