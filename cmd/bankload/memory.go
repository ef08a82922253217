package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"sudokubank/internal/cli"
)

// memory is a process's resident memory, in bytes: now and its peak.
type memory struct {
	rss, peak int64
}

// readMemory reads the resident memory of process pid from Linux's
// /proc; elsewhere, or for a process that has gone, it returns an error.
func readMemory(pid int) (memory, error) {
	name := fmt.Sprintf("/proc/%d/status", pid)
	f, err := os.Open(name)
	if err != nil {
		return memory{}, err
	}
	defer f.Close()
	var m memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || key != "VmRSS" && key != "VmHWM" {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), "kB")), 10, 64)
		if err != nil {
			return memory{}, fmt.Errorf("%s: %s: %w", name, key, err)
		}
		if key == "VmRSS" {
			m.rss = kb << 10
		} else {
			m.peak = kb << 10
		}
	}
	if err := sc.Err(); err != nil {
		return memory{}, fmt.Errorf("read %s: %w", name, err)
	}
	if m.rss == 0 {
		return memory{}, fmt.Errorf("%s: no VmRSS", name)
	}
	return m, nil
}

// checkPid refuses -pid when its memory cannot be read: a usage error
// when no process has that ID, or the system has no Linux /proc to read
// it from, and a failure for any other reason.
func checkPid(pid int) error {
	_, err := readMemory(pid)
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("-pid %d: %w", pid, err)
	}
	if _, serr := os.Stat("/proc/self/status"); serr != nil {
		return cli.UsageError{Err: fmt.Errorf("-pid %d: the memory of a process is read from Linux's /proc, which this system lacks", pid)}
	}
	return cli.UsageError{Err: fmt.Errorf("-pid %d: no such process", pid)}
}

// mib formats bytes as MiB.
func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
