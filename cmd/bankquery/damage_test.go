package main_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/internal/banktest"
	"sudokubank/store"
)

// mustRecordRun records a finished run in the closed bank at path, as
// bankgen records its runs.
func mustRecordRun(tb testing.TB, path string) {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	id, err := db.StartRun(ctx, store.Run{Source: "gen", Args: []string{"-count", "5"}, Seed: 7})
	if err != nil {
		tb.Fatal(err)
	}
	if err := db.FinishRun(ctx, id, store.RunEnd{Status: store.RunCompleted}); err != nil {
		tb.Fatal(err)
	}
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
}

// wantDamaged fails the test unless r is a failure (status 1) that
// calls the bank at path damaged and points to bankquery check, with no
// stack trace.
func wantDamaged(tb testing.TB, what string, r result, path string) {
	tb.Helper()
	if r.code != 1 || !strings.Contains(r.stderr, path+" is damaged") || !strings.Contains(r.stderr, "run bankquery check -db "+path) ||
		strings.Contains(r.stderr, "goroutine") {
		tb.Errorf("%s: exit %d, stderr %q; want 1 and %s called damaged, with bankquery check -db %s", what, r.code, r.stderr, path, path)
	}
}

// TestDamagedRunsTable changes the type of a run's start time in the
// file, which SQLite's checks of pages and constraints do not see: the
// commands that read the runs say the bank is damaged, and check names
// the run.
func TestDamagedRunsTable(t *testing.T) {
	bank := MustBank(t)
	mustRecordRun(t, bank)
	banktest.RetypeColumn(t, bank, "runs", "started_at")
	dir := filepath.Dir(bank)
	for _, args := range [][]string{{"runs"}, {"runs", "-json"}, {"stats"}, {"stats", "-json"}} {
		r := exe(t, dir, append(args, "-db", bank)...)
		wantDamaged(t, strings.Join(args, " "), r, bank)
		if r.stdout != "" {
			t.Errorf("%s printed %q before failing", strings.Join(args, " "), r.stdout)
		}
	}
	for _, quick := range []string{"-quick", "-quick=false"} {
		r := run(t, "check", "-db", bank, quick)
		if r.code != 1 || !strings.Contains(r.stdout, "runs: run 1: ") || !strings.Contains(r.stdout, "started_at") {
			t.Errorf("check %s: exit %d, stdout %q; want 1 and run 1's started_at named", quick, r.code, r.stdout)
		}
		if r.err == nil || !strings.Contains(r.err.Error(), ": 1 problem: ") {
			t.Errorf("check %s: error %v, want it to count 1 problem", quick, r.err)
		}
	}
}

// TestListOfDamagedPages damages the puzzles table in two ways: a
// leaf page that no longer counts its last row, which a scan skips with
// no error, and half a page overwritten, which SQLite reports as
// malformed. A whole list fails as damaged, with status 1, rather than
// end short as if whole or with SQLite's words alone.
func TestListOfDamagedPages(t *testing.T) {
	for _, tt := range []struct {
		name   string
		damage func(testing.TB, string)
	}{
		{"Short", func(tb testing.TB, path string) { banktest.DropLastCell(tb, path, "puzzles") }},
		{"Malformed", banktest.DamagePage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bank := MustBank(t)
			tt.damage(t, bank)
			// A filtered list may not have lost a row: unfiltered, it has.
			for _, args := range [][]string{{"list", "-limit", "0"}, {"list", "-limit", "0", "-format", "json"}} {
				r := exe(t, filepath.Dir(bank), append(args, "-db", bank)...)
				wantDamaged(t, strings.Join(args, " "), r, bank)
			}
		})
	}
}

// TestReadersOfDamagedPage overwrites half of the first page of the
// puzzles table: the read-only commands that read it fail as damaged,
// with status 1, and an export writes no file.
func TestReadersOfDamagedPage(t *testing.T) {
	bank := MustBank(t)
	banktest.DamagePage(t, bank)
	dir := filepath.Dir(bank)
	out := filepath.Join(dir, "p.sdm")
	for _, args := range [][]string{
		{"show", "1"},
		{"list", "-random", "-limit", "5", "-seed", "1"},
		{"export", "-count", "3", "-format", "sdm", "-out", out, "-no-record", "-seed", "1"},
	} {
		r := exe(t, dir, append([]string{args[0], "-db", bank}, args[1:]...)...)
		wantDamaged(t, strings.Join(args, " "), r, bank)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the failed export left %s (%v)", out, err)
	}
}

// TestDamagedValues stores, around the store, a text where a column of
// packs or families holds an integer, as a damaged disk or a hand would:
// SQLite's checks of pages and constraints pass, and the row no longer
// reads. Every command that reads the row says the bank is damaged,
// with status 1, rather than show database/sql's bare scan error.
func TestDamagedValues(t *testing.T) {
	for _, tt := range []struct {
		name, damage string
		cmds         [][]string
	}{
		{"PackCreatedAt", "UPDATE packs SET created_at = 'x' WHERE id = 1", [][]string{
			{"packs"}, {"packs", "-json"}, {"packs", "show", "acme-1"}, {"packs", "show", "1"},
			{"packs", "export", "acme-1", "-format", "sdm", "-out", "-"},
			{"packs", "release", "acme-1", "-force"},
			{"export", "-count", "3", "-format", "sdm", "-out", "-", "-pack", "acme-1", "-client", "acme"},
		}},
		{"FamilyEP", "UPDATE families SET ep = 'x'", [][]string{
			{"show", "1"}, {"list", "-limit", "3"}, {"list", "-limit", "3", "-format", "json"},
			{"list", "-random", "-limit", "3", "-seed", "1"},
			{"export", "-count", "3", "-format", "sdm", "-out", "-", "-no-record"},
			{"packs", "show", "acme-1"}, {"packs", "export", "acme-1", "-format", "sdm", "-out", "-"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bank := MustBank(t)
			dir := filepath.Dir(bank)
			mustRun(t, "export", "-db", bank, "-count", "3", "-seed", "5", "-format", "sdm", "-out", filepath.Join(dir, "a.sdm"),
				"-pack", "acme-1", "-client", "acme")
			banktest.MustExec(t, bank, tt.damage)
			for _, args := range tt.cmds {
				i := 1
				if args[0] == "packs" && len(args) > 1 && !strings.HasPrefix(args[1], "-") {
					i = 2
				}
				full := append(append(append([]string{}, args[:i]...), "-db", bank), args[i:]...)
				r := exe(t, dir, full...)
				wantDamaged(t, strings.Join(args, " "), r, bank)
				if strings.Contains(r.stderr, "sql: Scan error") && !strings.Contains(r.stderr, "is damaged") {
					t.Errorf("%s: the bare scan error: %q", strings.Join(args, " "), r.stderr)
				}
			}
		})
	}
}
