package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
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

// mib formats bytes as MiB.
func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
