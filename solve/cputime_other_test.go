//go:build !linux

package solve_test

// threadCPU reports 0: per-thread CPU time is read on Linux only.
func threadCPU() float64 { return 0 }
