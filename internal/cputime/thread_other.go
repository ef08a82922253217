//go:build !linux

package cputime

import "time"

// Thread returns 0: only Linux reports a thread's CPU time.
func Thread() time.Duration { return 0 }
