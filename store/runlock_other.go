//go:build !unix

package store

import (
	"errors"
	"os"
)

// runLocksWork says whether a dead run can be told from a live one: not
// without flock(2), so EndDeadRuns leaves every run alone.
const runLocksWork = false

// runLock stands in for the Unix lock file.
type runLock struct{ noted bool }

func lockRun(string) (*runLock, error) { return &runLock{}, nil }

func probeRun(string) (*runLock, bool, error) { return nil, true, nil }

// runAlive cannot tell a dead run without lock files: every run lives.
func runAlive(string) bool { return true }

func (*runLock) release() {}

// waitLock stands in for flock(2), which is not there to take.
func waitLock(*os.File) error { return nil }

// lockOpen stands in for lockRun on an open file, which it closes.
func lockOpen(f *os.File) (*runLock, error) {
	f.Close()
	return &runLock{}, nil
}

func (*runLock) drop() {}

// note has nowhere to keep msg without lock files.
func (*runLock) note(string) error { return errors.ErrUnsupported }

func (*runLock) noteOf() string { return "" }

func lockBusy(error) bool { return false }
