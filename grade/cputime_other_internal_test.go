//go:build !linux

package grade

import "time"

// threadCPU is not measured on this system; benchmarks then report wall
// time only.
func threadCPU() time.Duration { return 0 }
