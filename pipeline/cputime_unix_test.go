//go:build unix

package pipeline_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used,
// which, unlike wall time, other processes on a shared machine do not
// inflate.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
