//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// runLocksWork says whether a dead run can be told from a live one.
const runLocksWork = true

// runLock is a run's lock file, held with flock(2) while the run lives.
// The kernel lets go of it when the process dies, however it dies. flock
// locks belong to the open file, not to the process, so two runs in one
// process exclude each other too, and closing another descriptor of the
// file does not drop the lock (as it would with fcntl locks).
type runLock struct {
	f *os.File
	// noted says the file holds how the run failed (note): releasing the
	// lock then keeps the file for the next EndDeadRuns to read.
	noted bool
}

// lockRun creates and locks the lock file at path.
func lockRun(path string) (*runLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("run lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("run lock %s: %w", path, err)
	}
	return &runLock{f: f}, nil
}

// runAlive reports whether a process holds the lock file at path, for a
// reader: it takes the lock shared only for as long as it asks, and
// neither keeps nor removes the file. No file means no process (or a run
// of a program from before the lock files); a lock it cannot ask about
// is taken to be held.
func runAlive(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// probeRun reports whether the run whose lock file is at path is alive.
// When it is dead and its file exists, probeRun returns the file, locked:
// releasing it removes the file.
func probeRun(path string) (lk *runLock, alive bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("run lock: %w", err)
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		f.Close()
		return nil, true, nil
	}
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("run lock %s: %w", path, err)
	}
	return &runLock{f: f}, false, nil
}

// release removes the lock file and lets go of the lock. The file goes
// first, while the lock is still held, so that no other process can find
// it unlocked and take the run for dead before its end is recorded.
func (lk *runLock) release() {
	os.Remove(lk.f.Name())
	lk.f.Close()
}

// waitLock takes an exclusive flock on f, waiting for it; closing f lets
// it go.
func waitLock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
}

// lockOpen locks the file f is open on, as lockRun does, without waiting;
// the lock takes f, which it closes on failure.
func lockOpen(f *os.File) (*runLock, error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return &runLock{f: f}, nil
}

// note writes msg into the lock file, for a run whose end could not be
// recorded in the bank: the next EndDeadRuns reads it there.
func (lk *runLock) note(msg string) error {
	if err := lk.f.Truncate(0); err != nil {
		return err
	}
	if _, err := lk.f.WriteAt([]byte(msg), 0); err != nil {
		return err
	}
	if err := lk.f.Sync(); err != nil {
		return err
	}
	lk.noted = true
	return nil
}

// noteOf returns what note wrote into the lock file, or "".
func (lk *runLock) noteOf() string {
	b := make([]byte, maxRunNote)
	n, _ := lk.f.ReadAt(b, 0)
	return string(b[:n])
}

// drop lets go of the lock and keeps the file.
func (lk *runLock) drop() { lk.f.Close() }

// lockBusy reports whether err says another holds the lock.
func lockBusy(err error) bool { return errors.Is(err, syscall.EWOULDBLOCK) }
