package cputime_test

import (
	"runtime"
	"testing"
	"time"

	"sudokubank/internal/cputime"
)

// Both clocks advance while this thread spins, and never run backwards.
func TestClocksAdvance(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread CPU time is read on Linux only")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// The thread's interval lies inside the process's.
	p0 := cputime.Process()
	t0 := cputime.Thread()
	for start := time.Now(); time.Since(start) < 30*time.Millisecond; {
	}
	t1 := cputime.Thread()
	p1 := cputime.Process()
	if p1 <= p0 || t1 <= t0 {
		t.Errorf("process %v -> %v, thread %v -> %v: want both to advance", p0, p1, t0, t1)
	}
	if t1-t0 > p1-p0 {
		t.Errorf("thread used %v, more than the whole process's %v", t1-t0, p1-p0)
	}
}
