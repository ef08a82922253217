package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -count LEVEL=N,... gives exactly so many puzzles of each level, in the
// -order asked, recorded or not, and names a level that falls short.
func TestExportLevelCounts(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	want := map[string]int{"easy": 3, "medium": 2, "evil": 4}
	levels := func(t *testing.T, path string) map[string]int {
		t.Helper()
		got := map[string]int{}
		recs := MustCSV(t, path)[1:]
		for i, rec := range recs {
			got[rec[7]]++
			if i > 0 && num(recs[i-1][8]) > num(rec[8]) {
				t.Errorf("row %d rates %s after %s: want -order rating", i+1, rec[8], recs[i-1][8])
			}
		}
		return got
	}
	check := func(t *testing.T, got map[string]int) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("levels %v, want %v", got, want)
		}
		for l, n := range want {
			if got[l] != n {
				t.Errorf("levels %v, want %v", got, want)
				break
			}
		}
	}
	for _, rec := range []bool{false, true} {
		name := map[bool]string{false: "NotRecorded", true: "Recorded"}[rec]
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(dir, name+".csv")
			args := []string{"export", "-db", db, "-count", "easy=3,medium=2,evil=4", "-seed", "7", "-format", "csv", "-out", out}
			if !rec {
				args = append(args, "-no-record")
			}
			mustRun(t, args...)
			check(t, levels(t, out))
		})
	}
	packs := MustPacks(t, db)
	if len(packs) != 1 || packs[0].Size != 9 || !strings.Contains(packs[0].FilterText, `-count="easy=3,medium=2,evil=4"`) {
		t.Errorf("packs %+v; want one of 9 whose record has the counts", packs)
	}

	// The same seed gives the same pack; random mixes the levels.
	a, b := filepath.Join(dir, "a.sdm"), filepath.Join(dir, "b.sdm")
	for _, out := range []string{a, b} {
		mustRun(t, "export", "-db", db, "-count", "2=6,4=6", "-order", "random", "-seed", "9", "-format", "sdm", "-out", out, "-no-record")
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if string(ab) != string(bb) || len(strings.Fields(string(ab))) != 12 {
		t.Errorf("two exports with one seed wrote\n%s\nand\n%s\nwant the same 12 puzzles", ab, bb)
	}

	// The fixture has 30 families of each level; one more fails, and
	// nothing is written or recorded.
	short := filepath.Join(dir, "short.csv")
	for _, extra := range [][]string{{"-no-record"}, {"-pack", "short"}} {
		args := append([]string{"export", "-db", db, "-count", "easy=2,difficult=31", "-seed", "1", "-format", "csv", "-out", short}, extra...)
		r := run(t, args...)
		if want := "level difficult: 30 of 31 puzzles match"; r.code != 1 || r.err == nil || !strings.Contains(r.err.Error(), want) {
			t.Errorf("%v: code %d, %v; want 1, %q", extra, r.code, r.err, want)
		}
		if _, err := os.Stat(short); err == nil {
			t.Errorf("%v: a failed export wrote %s", extra, short)
		}
	}
	if n := len(MustPacks(t, db)); n != 1 {
		t.Errorf("%d packs after the failed exports, want 1", n)
	}

	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-count", "easy=0"}, "1 or more"},
		{[]string{"-count", "easy=2,easy=3"}, "level easy given twice"},
		{[]string{"-count", "hard=2"}, "want one level"},
		{[]string{"-count", "easy=2", "-level", "easy"}, "-level: -count easy=2 names the levels"},
	} {
		args := append([]string{"export", "-db", db, "-format", "csv", "-out", short}, tt.args...)
		r := run(t, args...)
		if r.code != 2 || r.err == nil || !strings.Contains(r.err.Error()+r.stderr, tt.msg) {
			t.Errorf("%v: code %d, %v; want 2, %q", tt.args, r.code, r.err, tt.msg)
		}
	}
}
