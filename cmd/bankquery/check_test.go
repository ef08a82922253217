package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/internal/banktest"
)

func TestCheck(t *testing.T) {
	bank := MustBank(t)
	for _, args := range [][]string{{"check", "-db", bank}, {"check", "-db", bank, "-quick"}} {
		if out := mustRun(t, args...); !strings.HasSuffix(out, ": ok\n") {
			t.Errorf("bankquery %q on a whole bank printed %q", args, out)
		}
	}
}

func TestCheckCounterMismatch(t *testing.T) {
	bank := MustBank(t)
	banktest.MustExec(t, bank, "UPDATE buckets SET families = families + 1 WHERE level = 3")
	for _, quick := range []string{"-quick=false", "-quick"} {
		r := run(t, "check", "-db", bank, quick)
		if r.code != 1 || !strings.Contains(r.stdout, "buckets: level 3") {
			t.Errorf("check %s: exit %d, stdout %q; want 1 and the level 3 bucket named", quick, r.code, r.stdout)
		}
	}
}

// TestCheckOneProblem: a bank with one problem is said to have "1
// problem", not "1 problems".
func TestCheckOneProblem(t *testing.T) {
	bank := MustBank(t)
	banktest.MustExec(t, bank, `UPDATE technique_counts SET families = families + 1
		WHERE (size, level, technique) = (SELECT size, level, technique FROM technique_counts LIMIT 1)`)
	r := run(t, "check", "-db", bank)
	if r.code != 1 || strings.Count(r.stdout, "\n") != 1 || r.err == nil || !strings.Contains(r.err.Error(), ": 1 problem: ") {
		t.Errorf("check: exit %d, stdout %q, error %v; want 1, one problem, and it counted as \"1 problem\"", r.code, r.stdout, r.err)
	}
}

// TestWritersRefuseDamagedBank damages a page of a bank: check reports
// it, and the recorded export, which writes to the bank, refuses it
// unchanged.
func TestWritersRefuseDamagedBank(t *testing.T) {
	bank := MustBank(t)
	banktest.DamagePage(t, bank)
	before, err := os.ReadFile(bank)
	if err != nil {
		t.Fatal(err)
	}
	if r := run(t, "check", "-db", bank, "-quick"); r.code != 1 || r.stdout == "" {
		t.Errorf("check of a damaged bank: exit %d, stdout %q; want 1 and the problems", r.code, r.stdout)
	}
	out := filepath.Join(t.TempDir(), "p.sdm")
	r := run(t, "export", "-db", bank, "-count", "3", "-format", "sdm", "-out", out, "-seed", "1")
	if r.code != 1 || !strings.Contains(r.stderr+r.err.Error(), "damaged") {
		t.Errorf("recorded export of a damaged bank: exit %d, %v; want 1 and the bank called damaged", r.code, r.err)
	}
	if after, err := os.ReadFile(bank); err != nil || string(after) != string(before) {
		t.Errorf("the refused export changed the bank (%v)", err)
	}
}
