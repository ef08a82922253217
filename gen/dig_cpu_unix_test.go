//go:build unix

package gen_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system: a
// rate per CPU second stays meaningful when other processes share the
// cores, where a rate per wall-clock second does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
