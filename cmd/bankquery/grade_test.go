package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/solve"
)

// notInFixture is a hard puzzle (9.5 as given) of no fixture family.
const notInFixture = "6....3.1..2.5.......8.7.....5.2.......2.8....1....6..9......7..3......61.....98.4"

// MustIsomorph returns the fixture's first evil family's first puzzle,
// and that puzzle turned, mirrored and relabelled: a puzzle the bank
// holds only as an isomorph.
func MustIsomorph(tb testing.TB) (stored, given solve.Grid) {
	tb.Helper()
	for _, f := range MustReadFixture(tb) {
		if f.Level != 5 {
			continue
		}
		stored = mustGrid(tb, f.Puzzles[0].Puzzle)
		relabel, err := gen.Relabel([9]uint8{3, 1, 2, 9, 8, 7, 4, 5, 6})
		if err != nil {
			tb.Fatal(err)
		}
		return stored, gen.Turn90().Then(gen.MirrorLR()).Then(relabel).Apply(stored)
	}
	tb.Fatal("no evil family in the fixture")
	return
}

// gradeLine is the part of grade -json a test checks.
type gradeLine struct {
	Puzzle string  `json:"puzzle"`
	Error  string  `json:"error"`
	Rating float64 `json:"rating"`
	Level  int     `json:"level"`
	Steps  []string
	Bank   *struct {
		Consulted bool   `json:"consulted"`
		Match     string `json:"match"`
		Family    int64  `json:"family"`
		PuzzleID  int64  `json:"puzzle_id"`
		Stored    string `json:"stored"`
		Transform string `json:"transform"`
	} `json:"bank"`
}

func mustGradeJSON(tb testing.TB, out string) []gradeLine {
	tb.Helper()
	var ls []gradeLine
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var l gradeLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			tb.Fatalf("%v: %s", err, line)
		}
		ls = append(ls, l)
	}
	return ls
}

// TestGradeLooksUp grades a stored puzzle, an isomorph of one and a
// puzzle of no family: each is graded, and the bank's answer names the
// stored puzzle and the transform that takes it to the one given.
func TestGradeLooksUp(t *testing.T) {
	db := MustBank(t)
	stored, iso := MustIsomorph(t)
	ls := mustGradeJSON(t, mustRun(t, "grade", "-db", db, "-json", stored.String(), iso.String(), notInFixture))
	if len(ls) != 3 {
		t.Fatalf("%d lines, want 3", len(ls))
	}
	for _, l := range ls {
		if l.Error != "" || l.Rating == 0 || l.Level == 0 || l.Bank == nil || !l.Bank.Consulted {
			t.Errorf("puzzle %s: %+v, want a grade and a bank consulted", l.Puzzle, l)
		}
	}
	if b := ls[0].Bank; b.Match != "exact" || b.PuzzleID == 0 || b.Stored != stored.String() {
		t.Errorf("stored puzzle: bank %+v, want exact", b)
	}
	b := ls[1].Bank
	if b.Match != "isomorph" || b.Family != ls[0].Bank.Family || b.PuzzleID == 0 {
		t.Fatalf("isomorph: bank %+v, want family %d", b, ls[0].Bank.Family)
	}
	tr, err := gen.ParseTransform(b.Transform)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Apply(mustGrid(t, b.Stored)); got != iso {
		t.Errorf("transform %s takes the stored puzzle to %s, want %s", b.Transform, got, iso)
	}
	if b := ls[2].Bank; b.Match != "none" || b.Family != 0 {
		t.Errorf("puzzle of no family: bank %+v, want none", b)
	}
	if ls[1].Steps != nil {
		t.Error("steps printed without -steps")
	}
}

// TestGradeNoBank grades without a bank: the grade is there, and the
// bank was not consulted, nor made.
func TestGradeNoBank(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.db")
	ls := mustGradeJSON(t, mustRun(t, "grade", "-db", db, "-json", "-steps", notInFixture))
	if l := ls[0]; l.Rating != 9.5 || l.Bank == nil || l.Bank.Consulted || len(l.Steps) == 0 {
		t.Errorf("%+v, want ER 9.5, steps and no bank consulted", l)
	}
	if out := mustRun(t, "grade", "-db", db, notInFixture); !strings.Contains(out, "not consulted: no bank at "+db) {
		t.Errorf("text does not say no bank was consulted:\n%s", out)
	}
	if _, err := filepath.Glob(db + "*"); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(db + "*"); len(m) > 0 {
		t.Errorf("grade made %v", m)
	}
}

func TestGradeGolden(t *testing.T) {
	db := MustBank(t)
	stored, iso := MustIsomorph(t)
	out := mustRun(t, "grade", "-db", db, "-steps", iso.String(), stored.String(), notInFixture)
	golden(t, "grade.golden", []byte(stable(out, filepath.Dir(db))))
}

// TestGradeBadPuzzles: an argument that is not a puzzle is a usage
// error before anything is graded; a puzzle with no or several
// solutions is reported in its place, the others graded, and exits 1.
func TestGradeBadPuzzles(t *testing.T) {
	db := MustBank(t)
	if r := run(t, "grade", "-db", db, notInFixture, "12345"); r.code != 2 || r.stdout != "" || !strings.Contains(r.err.Error(), `argument 2 "12345" is not a puzzle`) {
		t.Errorf("bad argument: exit %d, stdout %q, error %v; want 2, nothing, argument 2", r.code, r.stdout, r.err)
	}
	if r := run(t, "grade", "-db", db); r.code != 2 {
		t.Errorf("no puzzle: exit %d, want 2", r.code)
	}
	several := strings.Repeat(".", 81)
	r := run(t, "grade", "-db", db, several, notInFixture)
	if r.code != 1 || !strings.Contains(r.stdout, "puzzle 1: "+several+"\n  error  more than one solution") || !strings.Contains(r.stdout, "puzzle 2: "+notInFixture+"\n  level") {
		t.Errorf("exit %d, stdout:\n%s\nwant 1, an error for puzzle 1 and a grade for 2", r.code, r.stdout)
	}
}

// TestGradeStdin reads puzzles from standard input with -, through the
// binary: comments and blank lines skipped, a bad line reported by its
// number, the rest graded.
func TestGradeStdin(t *testing.T) {
	db := MustBank(t)
	cmd := exec.Command(mustBinary(t), "grade", "-db", db, "-")
	cmd.Stdin = strings.NewReader("# my puzzles\n\n" + notInFixture + " 9.5 from a list\nnot a puzzle\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1; stderr:\n%s", err, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "line 3: "+notInFixture+"\n  level    evil") || !strings.Contains(s, "line 4: not a puzzle\n  error  not a puzzle:") {
		t.Errorf("stdout:\n%s", s)
	}
	if !strings.Contains(errb.String(), "1 of 2 puzzles could not be graded") {
		t.Errorf("stderr:\n%s", errb.String())
	}
}

// TestGradeStdinNoPuzzle reads standard input that holds no puzzle:
// nothing at all, or only comments and blank lines. As import does with
// an input of no puzzle, grade fails (status 1) and says why, rather than
// printing nothing and succeeding.
func TestGradeStdinNoPuzzle(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"Empty", "", "bankquery: grade -: standard input is empty: no puzzle to grade\n"},
		{"Comments", "# my puzzles\n\n  \n", "bankquery: grade -: no puzzle on standard input, only blank lines and '#' comments (3 lines)\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, args := range [][]string{{"grade", "-db", "none.db", "-"}, {"grade", "-db", "none.db", "-json", "-"}} {
				cmd := exec.Command(mustBinary(t), args...)
				cmd.Dir = t.TempDir()
				cmd.Stdin = strings.NewReader(tt.in)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || errb.String() != tt.want || out.Len() != 0 {
					t.Errorf("%q: exit %v, stdout %q, stderr %q; want 1, nothing and %q", args, err, out.String(), errb.String(), tt.want)
				}
			}
		})
	}
}

// TestGradeStdinDirectory gives grade - a directory on standard input:
// a usage error (status 2), as bankgen import - gives it, not a failed
// read of line 1.
func TestGradeStdinDirectory(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cmd := exec.Command(mustBinary(t), "grade", "-db", "none.db", "-")
	cmd.Dir, cmd.Stdin = dir, d
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	const want = "bankquery: standard input is a directory: grade - reads puzzles from standard input, one a line\n"
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.HasPrefix(errb.String(), want) || out.Len() != 0 {
		t.Errorf("exit %v, stdout %q, stderr %q; want 2, nothing and %q", err, out.String(), errb.String(), want)
	}
}

// TestGradeStdinLongLine reads standard input with a line of 2 MiB
// between two puzzles: the long line is reported by its number as not a
// puzzle, and the puzzle after it is graded, as import goes on past a
// long line; it does not end the command with bufio's "token too long".
func TestGradeStdinLongLine(t *testing.T) {
	cmd := exec.Command(mustBinary(t), "grade", "-db", "none.db", "-")
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader(notInFixture + "\n" + strings.Repeat("1", 2<<20) + "\n" + notInFixture)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || errb.String() != "bankquery: 1 of 3 puzzles could not be graded\n" {
		t.Errorf("exit %v, stderr %q; want 1 and 1 of 3 puzzles not graded", err, errb.String())
	}
	for _, want := range []string{
		"line 1: " + notInFixture + "\n  level    evil",
		"line 2: " + strings.Repeat("1", 60) + "...\n  error  not a puzzle: a line longer than 1 MiB\n",
		"line 3: " + notInFixture + "\n  level    evil",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
}

// TestGradeJSONNumbersAsList: grade -json writes a puzzle's rating,
// pearl, diamond and score as list -format json writes them (2.20, not
// 2.2; 7.0, not 7), so that the two can be compared as text.
func TestGradeJSONNumbersAsList(t *testing.T) {
	db := MustBank(t)
	keys := []string{"rating", "pearl", "diamond", "score"}
	tokens := func(line string) map[string]json.Number {
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		var raw map[string]any
		if err := d.Decode(&raw); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		m := map[string]json.Number{"puzzle": json.Number(raw["puzzle"].(string))}
		for _, k := range keys {
			if n, ok := raw[k].(json.Number); ok {
				m[k] = n
			}
		}
		return m
	}
	// A puzzle whose score ends in 0 is one a shortest form would write
	// otherwise.
	var want map[string]json.Number
	for line := range strings.SplitSeq(strings.TrimSpace(mustRun(t, "list", "-db", db, "-format", "json", "-limit", "500")), "\n") {
		if m := tokens(line); strings.HasSuffix(string(m["score"]), "0") {
			want = m
			break
		}
	}
	if want == nil {
		t.Fatal("no listed puzzle has a score ending in 0")
	}
	got := tokens(strings.TrimSpace(mustRun(t, "grade", "-db", db, "-json", string(want["puzzle"]))))
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("grade -json %s = %s, list -format json writes %s", k, got[k], want[k])
		}
	}
}
