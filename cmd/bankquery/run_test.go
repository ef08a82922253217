package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/store"
)

// TestGoldenText runs each command on a bank written as banks were
// before November 2026 and on one written as bankgen writes them now
// (the path's runs form): the two print the same.
func TestGoldenText(t *testing.T) {
	t.Run("ListPath", func(t *testing.T) { testGoldenText(t, MustBank(t)) })
	t.Run("RunsPath", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "puzzles.db")
		MustWriteBank(t, db, RunsForm(t, MustReadFixture(t)))
		testGoldenText(t, db)
	})
}

func testGoldenText(t *testing.T, db string) {
	dir := filepath.Dir(db)
	tests := []struct {
		name string
		args []string
	}{
		{"StatsText", []string{"stats", "-db", db}},
		{"StatsJSON", []string{"stats", "-db", db, "-json"}},
		{"ListSDM", []string{"list", "-db", db, "-level", "evil", "-limit", "5"}},
		{"ListJSON", []string{"list", "-db", db, "-rating", "3.0-6.0", "-givens", "-26", "-limit", "4", "-format", "json"}},
		{"ListCSV", []string{"list", "-db", db, "-symmetry", "rot180", "-minimal", "-limit", "3", "-format", "csv"}},
		{"ListRandom", []string{"list", "-db", db, "-random", "-seed", "42", "-limit", "6", "-format", "json"}},
		{"ListTechnique", []string{"list", "-db", db, "-technique", "x-wing", "-format", "csv", "-limit", "0"}},
		{"ListScoreSource", []string{"list", "-db", db, "-score", "4.5-", "-source", "fixture-import", "-limit", "0"}},
		{"ListEmpty", []string{"list", "-db", db, "-level", "1", "-givens", "22", "-format", "csv"}},
		{"ShowID", []string{"show", "-db", db, "7"}},
		// A rotated and relabelled variant of its family: the path is its own.
		{"ShowVariant", []string{"show", "-db", db, "130"}},
		{"ShowPuzzle", []string{"show", "-db", db, strings.Repeat(".", 16) + "12.....34.5...........1.4...6..7..6891.18.24..7.32.65..4.4..38.2."}},
		{"PacksNone", []string{"packs", "-db", db}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustRun(t, tt.args...)
			golden(t, strings.ToLower(tt.name)+".golden", []byte(stable(got, dir)))
		})
	}
}

func TestListJSONKeys(t *testing.T) {
	db := MustBank(t)
	out := mustRun(t, "list", "-db", db, "-format", "json", "-limit", "0")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if got, want := len(lines), fixturePuzzles(t); got != want {
		t.Fatalf("list -limit 0 printed %d lines, want %d", got, want)
	}
	want := []string{"id", "family", "puzzle", "solution", "givens", "level", "level_name", "rating",
		"pearl", "diamond", "score", "hardest", "symmetry", "minimal", "source"}
	for i, line := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		for _, k := range want {
			if _, ok := obj[k]; !ok {
				t.Fatalf("line %d has no key %q: %s", i+1, k, line)
			}
		}
	}
}

func TestListRandomIsReproducible(t *testing.T) {
	db := MustBank(t)
	a := mustRun(t, "list", "-db", db, "-random", "-seed", "7", "-limit", "20", "-level", "2,3")
	b := mustRun(t, "list", "-db", db, "-random", "-seed", "7", "-limit", "20", "-level", "medium,easy")
	c := mustRun(t, "list", "-db", db, "-random", "-seed", "8", "-limit", "20", "-level", "2,3")
	if a != b {
		t.Errorf("the same seed gave different samples:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("seeds 7 and 8 gave the same sample")
	}
	if n := strings.Count(a, "\n"); n != 20 {
		t.Errorf("sample has %d puzzles, want 20", n)
	}
	r := run(t, "list", "-db", db, "-random", "-limit", "3")
	if r.err != nil || !strings.Contains(r.stderr, "-seed ") {
		t.Errorf("list -random without -seed: err %v, stderr %q; want the drawn seed on stderr", r.err, r.stderr)
	}
}

func TestShowByIDAndPuzzleAgree(t *testing.T) {
	db := MustBank(t)
	for _, id := range []string{"1", "100", "390"} {
		byID := mustRun(t, "show", "-db", db, id)
		puzzle := strings.SplitN(byID, "\n", 3)[1]
		zeros := strings.ReplaceAll(puzzle, ".", "0")
		if got := mustRun(t, "show", "-db", db, zeros); got != byID {
			t.Errorf("show %s and show %s differ", id, zeros)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, cmd := range []string{"stats", "list", "show", "export", "packs"} {
		t.Run(cmd, func(t *testing.T) {
			r := run(t, cmd, "-h")
			if r.code != 0 || !strings.Contains(r.stdout, "Usage: bankquery "+cmd) || !strings.Contains(r.stdout, "Examples:") {
				t.Errorf("%s -h: code %d, stdout:\n%s", cmd, r.code, r.stdout)
			}
		})
	}
	if r := run(t, "-h"); r.code != 0 || !strings.Contains(r.stdout, "export") {
		t.Errorf("-h: code %d, stdout:\n%s", r.code, r.stdout)
	}
}

// The bank is never created by a query, and never changed by one.
func TestMissingBankIsNotCreated(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "none.db")
	for _, args := range [][]string{
		{"stats", "-db", db},
		{"list", "-db", db},
		{"show", "-db", db, "1"},
		{"packs", "-db", db},
		{"export", "-db", db, "-count", "1", "-format", "sdm", "-out", filepath.Join(dir, "x.sdm")},
		{"export", "-db", db, "-count", "1", "-format", "sdm", "-out", filepath.Join(dir, "x.sdm"), "-no-record"},
	} {
		r := run(t, args...)
		if r.code != 1 || !strings.Contains(r.err.Error(), "none.db") {
			t.Errorf("%v: code %d, error %v; want 1 and an error naming the bank", args, r.code, r.err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("the directory holds %v after queries of a missing bank, want nothing", entries)
	}
}

// fixturePuzzles counts the puzzles, variants included, of the fixture.
func fixturePuzzles(tb testing.TB) int {
	n := 0
	for _, f := range MustReadFixture(tb) {
		n += len(f.Puzzles)
	}
	return n
}

// TestShowPathIsThePuzzles checks that show's hint path solves the very
// puzzle shown, in its orientation, for variants that are relabelled,
// rotated or reflected copies of their family's canonical form: every
// placement agrees with this puzzle's solution, no elimination removes a
// solution digit, and the givens and placements fill the grid.
func TestShowPathIsThePuzzles(t *testing.T) {
	db := MustBank(t)
	ctx := context.Background()
	bank, err := store.OpenReadOnly(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var picked []store.Row
	perLevel := map[int]int{}
	err = bank.Query(ctx, store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		if r.Transform != gen.Identity().String() && perLevel[r.Level] < 2 {
			perLevel[r.Level]++
			picked = append(picked, r)
		}
		return nil
	})
	bank.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(picked) < 8 {
		t.Fatalf("picked %d transformed variants, want two of each level", len(picked))
	}
	step := regexp.MustCompile(`^ +\d+\. \S+ \d+\.\d(, [^:]*)?: (.*)$`)
	for _, r := range picked {
		t.Run(fmt.Sprint(r.ID), func(t *testing.T) {
			out := mustRun(t, "show", "-db", db, fmt.Sprint(r.ID))
			_, path, ok := strings.Cut(out, "\nhint path (this puzzle's solve")
			if !ok {
				t.Fatalf("no hint path in:\n%s", out)
			}
			// A long step goes on over indented lines: join them.
			var lines []string
			for _, line := range strings.Split(path, "\n")[1:] {
				if n := len(lines); n > 0 && step.FindStringSubmatch(line) == nil && strings.HasPrefix(line, "      ") {
					lines[n-1] += " " + strings.TrimSpace(line)
					continue
				}
				lines = append(lines, line)
			}
			grid := []byte(r.Puzzle)
			steps := 0
			for _, line := range lines {
				m := step.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				steps++
				for _, move := range regexp.MustCompile(`, ?`).Split(m[2], -1) {
					cell, digit, placed := strings.Cut(move, "=")
					if !placed {
						cell, digit, _ = strings.Cut(move, "<>")
					}
					var row, col int
					if _, err := fmt.Sscanf(cell, "r%dc%d", &row, &col); err != nil {
						t.Fatalf("step %q: %v", line, err)
					}
					c := 9*(row-1) + col - 1
					switch {
					case placed && r.Solution[c] != digit[0]:
						t.Errorf("step %q places %s, the solution has %c there", line, digit, r.Solution[c])
					case !placed && r.Solution[c] == digit[0]:
						t.Errorf("step %q removes the solution's digit", line)
					case placed:
						grid[c] = digit[0]
					}
				}
			}
			if steps == 0 {
				t.Fatalf("no steps in:\n%s", path)
			}
			if string(grid) != r.Solution {
				t.Errorf("givens and placements give\n%s, want the solution\n%s", grid, r.Solution)
			}
		})
	}
}

// TestShowUngradable checks that show says so when the grader cannot
// solve the stored puzzle again (here: a given removed from a minimal
// puzzle, so that it has several solutions), and then prints the
// family's stored sequence of techniques under its own name.
//
// The family's path is stored in the list form of banks written before
// November 2026 in one bank, in the runs form in another: show prints the
// same sequence from both.
func TestShowUngradable(t *testing.T) {
	fams := MustReadFixture(t)
	var f store.NewFamily
	for _, c := range fams {
		if c.Minimal && strings.Contains(c.Path, "full-house full-house") {
			f = c
			break
		}
	}
	p := []byte(f.Puzzles[0].Puzzle)
	p[bytes.IndexFunc(p, func(r rune) bool { return r != '.' })] = '.'
	f.Puzzles = []store.Puzzle{{Puzzle: string(p), Solution: f.Puzzles[0].Solution, Transform: f.Puzzles[0].Transform}}
	var outs []string
	for _, nf := range []store.NewFamily{f, RunsForm(t, []store.NewFamily{f})[0]} {
		db := filepath.Join(t.TempDir(), "puzzles.db")
		MustWriteBank(t, db, []store.NewFamily{nf})
		out := mustRun(t, "show", "-db", db, "1")
		for _, want := range []string{
			"hint path: this puzzle could not be graded again (",
			"more than one solution",
			"technique sequence (the family's stored solve, the same for every variant",
			"full-house x",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("show printed\n%s\nwant %q in it", out, want)
			}
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("show printed from the list form:\n%s\nand from the runs form:\n%s", outs[0], outs[1])
	}
}
