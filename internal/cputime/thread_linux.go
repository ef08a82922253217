//go:build linux

package cputime

import "time"

// Thread returns the user and system CPU time the calling OS thread has
// used, or 0 when the system cannot tell. Lock the goroutine to its
// thread (runtime.LockOSThread) for the figure to mean anything.
func Thread() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD, which package syscall does not name
	return rusage(rusageThread)
}
