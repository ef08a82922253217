package main

import (
	"bytes"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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

// familySolution reads the packed solution of family id in the bank at
// path, around the store.
func familySolution(t *testing.T, path string, id int) []byte {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var sol []byte
	if err := db.QueryRow("SELECT solution FROM families WHERE id = ?", id).Scan(&sol); err != nil {
		t.Fatal(err)
	}
	return sol
}

// TestMergeRefusesDamagedRows swaps the two digits of one byte of a
// family's packed solution in a shard: the grid is no longer a solution,
// though SQLite's quick check passes. A merge into a missing bank, into
// a bank that exists, and after a whole shard refuses it with status 1,
// naming the shard, the family and what is wrong, and leaves the bank as
// it was.
func TestMergeRefusesDamagedRows(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "s.db", "-quiet", "-seed", "6", "-count", "12", "-variants", "2"))
	mustSucceed(t, bankgen(t, dir, "-db", "g.db", "-quiet", "-seed", "8", "-count", "12", "-variants", "2"))
	s := filepath.Join(dir, "s.db")
	sol := familySolution(t, s, 2)
	bad := bytes.Clone(sol)
	bad[5] = bad[5]<<4 | bad[5]>>4 // r2c2 and r2c3 swapped: two columns break
	banktest.ReplaceBytes(t, s, sol, bad)
	refused := func(args ...string) {
		t.Helper()
		r := bankgen(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "s.db is damaged (family 2: solution ") || !strings.Contains(r.stderr, "is not a complete grid") {
			t.Errorf("bankgen %q: exit %d, stderr %q; want 1 and s.db's family 2 named", args, r.code, r.stderr)
		}
	}

	before := dirNames(t, dir)
	refused("merge", "-db", "new.db", "s.db")
	if got := dirNames(t, dir); !slices.Equal(got, before) {
		t.Errorf("after a refused merge into a missing bank the directory holds %q, want %q", got, before)
	}

	mustSucceed(t, bankgen(t, dir, "merge", "-db", "out.db", "g.db"))
	want := puzzles(t, filepath.Join(dir, "out.db"))
	refused("merge", "-db", "out.db", "s.db")
	if got := puzzles(t, filepath.Join(dir, "out.db")); !slices.Equal(got, want) {
		t.Errorf("a refused merge changed out.db: %d puzzles, want %d", len(got), len(want))
	}

	refused("merge", "-db", "two.db", "g.db", "s.db")
	if got := puzzles(t, filepath.Join(dir, "two.db")); !slices.Equal(got, want) {
		t.Errorf("two.db holds %d puzzles, want g.db's %d, merged before s.db was refused", len(got), len(want))
	}
}
