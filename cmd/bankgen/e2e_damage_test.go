package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/internal/banktest"
)

// TestDamagedRunsTable changes the type of a run's start time in a
// shard, which SQLite's checks of pages and constraints do not see: the
// shard's rerun, which reads its runs to resume, and a merge of it say
// the shard is damaged and point to bankquery check, with status 1, and
// the merge makes no bank.
func TestDamagedRunsTable(t *testing.T) {
	dir := t.TempDir()
	job := []string{"-db", "s.db", "-quiet", "-seed", "4", "-count", "20", "-shard", "1/2"}
	mustSucceed(t, bankgen(t, dir, job...))
	banktest.RetypeColumn(t, filepath.Join(dir, "s.db"), "runs", "started_at")
	for _, args := range [][]string{job, {"merge", "-db", "out.db", "s.db"}} {
		r := bankgen(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "s.db is damaged") || !strings.Contains(r.stderr, "run bankquery check -db s.db") ||
			strings.Contains(r.stderr, "goroutine") {
			t.Errorf("bankgen %q: exit %d, stderr %q; want 1 and s.db called damaged, with bankquery check -db s.db", args, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused merge left out.db (%v)", err)
	}
}
