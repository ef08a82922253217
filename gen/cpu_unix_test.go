//go:build unix

package gen_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, so benchmarks can
// report a rate that other processes on a shared machine disturb less than
// the wall-clock rate.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
