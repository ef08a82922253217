//go:build linux

package main

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubank/store"
)

var (
	bigBank    = flag.Int("bigbank", 0, "TestMemoryBigBank: `families` in the synthetic bank (0 skips the test)")
	bigBankDir = flag.String("bigbankdir", "", "TestMemoryBigBank: keep the synthetic bank in this `dir` and reuse it (default: a temp dir)")
)

// TestMemoryBigBank measures bankgen's peak resident memory against a bank
// of many families, and on a fresh bank at two -count values, for
// docs/performance.md:
//
//	go test ./cmd/bankgen -run MemoryBigBank -bigbank 10000000 -v
//
// Real families take about 0.4 ms of CPU each to make, so the big bank's
// families are synthetic: distinct 81-character canonical forms and
// plausible grades written by one SQL statement, no puzzles. That is all
// a run reads of the bank before it starts (the dedup set of canonical
// forms, the per-level counts), and what memory it takes grows with.
func TestMemoryBigBank(t *testing.T) {
	if *bigBank <= 0 {
		t.Skip("run with -bigbank N")
	}
	dir := *bigBankDir
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("big%d.db", *bigBank))
	if families(path) < *bigBank { // each test run adds 1000 real families
		for _, f := range []string{path, path + "-wal", path + "-shm"} {
			os.Remove(f)
		}
		start := time.Now()
		MustSyntheticBank(t, path, *bigBank)
		t.Logf("wrote %d synthetic families in %v", *bigBank, time.Since(start).Round(time.Second))
	}
	r, rss := peakRSS(t, dir, "-db", filepath.Base(path), "-count", "1000", "-seed", "1", "-quiet")
	mustSucceed(t, r)
	t.Logf("bankgen -count 1000 against %d families: peak RSS %d MiB, of which at most %d MiB anonymous\n%s%s",
		*bigBank, rss.total>>20, rss.anon>>20, r.stderr, r.stdout)
	// The bank is mapped (mmap_size), so its pages a run reads count in
	// its resident set until the kernel needs them back; what the process
	// itself holds is its anonymous memory: the dedup set, 8 bytes a
	// family, the Go heap, and SQLite's page cache at about twice its
	// nominal 256 MiB.
	if limit := int64(*bigBank)*8*2 + 2*256<<20 + 256<<20; rss.anon > limit {
		t.Errorf("peak anonymous memory %d MiB against %d families: more than %d MiB", rss.anon>>20, *bigBank, limit>>20)
	}

	// The same runs on a fresh bank: memory must not grow with -count
	// beyond SQLite's page cache (the 256 MiB bankgen asks for, which the
	// driver's allocator holds at about twice that), which fills as the
	// bank grows, the dedup set's 8 bytes a family, and the bulk load's
	// 16 bytes a puzzle row and 13 to 19 a family (store.BulkKeyMemory at
	// most), which at these counts stay within the slack.
	var small int64
	for _, n := range []int{1000, 20000} {
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		r, rss := peakRSS(t, dir, "-db", fresh, "-count", fmt.Sprint(n), "-seed", "1", "-quiet")
		mustSucceed(t, r)
		t.Logf("bankgen -count %d on a fresh bank: peak RSS %d MiB, of which at most %d MiB anonymous", n, rss.total>>20, rss.anon>>20)
		if small == 0 {
			small = rss.total
		} else if limit := small + 2*256<<20 + 16<<20; rss.total > limit {
			t.Errorf("peak RSS %d MiB at -count %d, %d MiB at -count 1000: more than the page cache's growth", rss.total>>20, n, small>>20)
		}
	}
}

// rssPeak is a run's peak resident memory in bytes: all of it (VmHWM),
// and the highest anonymous part seen (RssAnon, sampled: the kernel keeps
// no peak of it), which leaves out the mapped bank file's pages.
type rssPeak struct{ total, anon int64 }

// peakRSS runs the binary in dir and returns how it ended and its peak
// resident memory, read from /proc/PID/status every 10 ms while it runs
// (VmHWM only grows, so the last reading is the peak up to 10 ms before
// exit). Not the child's rusage: Go starts children with vfork, and Linux
// charges the parent's peak, this test's, to the child.
func peakRSS(t *testing.T, dir string, args ...string) (result, rssPeak) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	var peak rssPeak
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var err error
wait:
	for {
		hwm, anon := statusKB(status, "VmHWM:"), statusKB(status, "RssAnon:")
		peak.total = max(peak.total, hwm)
		peak.anon = max(peak.anon, anon)
		select {
		case err = <-exited:
			break wait
		case <-tick.C:
		}
	}
	r := ended(t, args, &out, &errb, err)
	if peak.total == 0 {
		t.Fatalf("no VmHWM read from %s", status)
	}
	return r, peak
}

// statusKB returns the value of a kB line of a /proc status file in
// bytes, or 0.
func statusKB(status, field string) int64 {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// MustSyntheticBank creates a bank at path, which must not exist, holding n synthetic families:
// the canonical form of family i is i in 20 decimal digits ('.' for 0)
// followed by 61 empty cells, so the forms are distinct, valid for the
// schema and load into distinct dedup hashes. Levels cycle 1 to 5; the
// per-level counts are kept as WriteBatch keeps them.
func MustSyntheticBank(tb testing.TB, path string, n int) {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	x, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=synchronous(OFF)&_pragma=cache_size(-262144)")
	if err != nil {
		tb.Fatal(err)
	}
	defer x.Close()
	// Each family's canon_key is the store's key of its form, by the
	// function the store registered for the driver's connections when it
	// opened the bank above. The keys are random, so their unique index
	// is dropped for the insert and built once, sorted, after it, as a
	// bulk load does.
	for _, q := range []string{
		`DROP INDEX families_canon_key`,
		`WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ` + fmt.Sprint(n) + `)
		 INSERT INTO families (canon, er, ep, ed, level, score, givens, min_row_col, hardest, source, seed, created_at, canon_key)
		 SELECT c, 10 + 12 * (i % 5), 10, 10, 1 + i % 5, 2.5, 20, 0, 'hidden-single', 'synthetic', i, 0, sudokubank_canon_key(c)
		 FROM (SELECT i, replace(printf('%020d', i), '0', '.') || '` + strings.Repeat(".", 61) + `' AS c FROM seq)`,
		`CREATE UNIQUE INDEX families_canon_key ON families (canon_key)`,
		`INSERT INTO buckets (level, givens, families, puzzles) SELECT level, givens, count(*), 0 FROM families GROUP BY level, givens`,
	} {
		if _, err := x.ExecContext(ctx, q); err != nil {
			tb.Fatalf("synthetic bank: %v\n%s", err, q)
		}
	}
}
