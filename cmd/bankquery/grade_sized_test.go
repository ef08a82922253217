package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/banktest"
	"sudokubank/store"
)

// sizedGradeLine is the part of grade -json a sized test checks.
type sizedGradeLine struct {
	gradeLine
	Size      int     `json:"size"`
	Givens    int     `json:"givens"`
	StepCount int     `json:"step_count"`
	Hardest   string  `json:"hardest"`
	Score     float64 `json:"score"`
}

// sizedLevels are levels each size of the tests reaches at once.
var sizedLevels = map[int][]grade.Level{6: {grade.Medium, grade.Difficult}, 12: {grade.ExtremelyEasy}}

// MustSizedBank writes a bank of one family of size n (of sizedLevels)
// and returns its path, the family, and a puzzle of that size of no
// stored family.
func MustSizedBank(tb testing.TB, n int) (db string, f store.NewFamily, other string) {
	tb.Helper()
	fams := banktest.MustSizedBuilt(tb, n, sizedLevels[n], 2)
	if fams[0].Canon == fams[1].Canon {
		tb.Fatalf("two %dx%d families share canonical form %s", n, n, fams[0].Canon)
	}
	db = filepath.Join(tb.TempDir(), "puzzles.db")
	MustWriteBank(tb, db, fams[:1])
	return db, fams[0], fams[1].Puzzles[0].Puzzle
}

// MustTransformed returns a random transform of puzzle p (of seed 1)
// that is none of the family's stored puzzles, and the transform.
func MustTransformed(tb testing.TB, f store.NewFamily) (grid.Grid, grid.Transform) {
	tb.Helper()
	p, err := grid.Parse(f.Puzzles[0].Puzzle)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		t := grid.RandomTransform(p.Shape, rng)
		g := t.Apply(p)
		if !storedIn(f, g.String()) {
			return g, t
		}
	}
	tb.Fatalf("no transform of %s that is not stored", p)
	return grid.Grid{}, grid.Transform{}
}

// TestGradeSized grades 6x6 and 12x12 puzzles, as arguments: the stored
// one, an isomorph of it and a puzzle of no stored family. Each is graded
// in its own size, its size is in the JSON and the text, and the bank's
// answer for the isomorph holds a transform that takes the stored puzzle
// to the one given.
func TestGradeSized(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
	}{{"6x6", 6}, {"12x12", 12}} {
		t.Run(c.name, func(t *testing.T) {
			db, f, other := MustSizedBank(t, c.n)
			stored := f.Puzzles[0].Puzzle
			iso, _ := MustTransformed(t, f)
			out := mustRun(t, "grade", "-db", db, "-json", "-steps", stored, iso.String(), other)
			var ls []sizedGradeLine
			for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				var l sizedGradeLine
				mustUnmarshal(t, line, &l)
				ls = append(ls, l)
			}
			if len(ls) != 3 {
				t.Fatalf("%d lines, want 3:\n%s", len(ls), out)
			}
			for _, l := range ls {
				if l.Error != "" || l.Size != c.n || l.Rating == 0 || l.Level == 0 || l.Hardest == "" || l.Bank == nil || !l.Bank.Consulted {
					t.Errorf("puzzle %s: %+v, want size %d, a grade and a bank consulted", l.Puzzle, l, c.n)
				}
				if len(l.Steps) != l.StepCount || len(l.Steps) == 0 || !strings.Contains(strings.Join(l.Steps, "\n"), fmt.Sprintf("r%dc", c.n)) {
					t.Errorf("puzzle %s: steps %q (%d), want %d steps naming row %d", l.Puzzle, l.Steps, l.StepCount, l.StepCount, c.n)
				}
			}
			if l := ls[0]; l.Puzzle != stored || l.Givens != f.Givens {
				t.Errorf("stored puzzle graded %+v, want %s, givens %d", l, stored, f.Givens)
			}
			if b := ls[0].Bank; b.Match != "exact" || b.PuzzleID == 0 || b.Stored != stored || b.Transform != "" {
				t.Errorf("stored puzzle: bank %+v, want exact", b)
			}
			b := ls[1].Bank
			if b.Match != "isomorph" || b.Family != ls[0].Bank.Family || !storedIn(f, b.Stored) {
				t.Fatalf("isomorph: bank %+v, want family %d, a puzzle of it stored", b, ls[0].Bank.Family)
			}
			sh, _ := grid.ShapeOf(c.n)
			tr, err := grid.ParseTransform(sh, b.Transform)
			if err != nil {
				t.Fatal(err)
			}
			if got := tr.Apply(mustParseGrid(t, b.Stored)); !got.Equal(iso) {
				t.Errorf("transform %s takes the stored puzzle to %s, want %s", b.Transform, got, iso)
			}
			if b := ls[2].Bank; b.Match != "none" || b.Family != 0 {
				t.Errorf("puzzle of no family: bank %+v, want none", b)
			}

			text := mustRun(t, "grade", "-db", db, iso.String())
			for _, want := range []string{
				"puzzle 1: " + iso.String() + "\n", "size       " + sh.String() + "\n",
				"bank       an isomorph is stored: puzzle ", "stored     " + b.Stored + "\n", "transform  " + b.Transform + " takes puzzle ",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

// TestGradeSizedScore: the score grade prints for a puzzle of another
// size is the one bankgen -size stores, with the givens scaled to 81
// cells: for the puzzle the family is graded as, its canonical form.
func TestGradeSizedScore(t *testing.T) {
	db, f, _ := MustSizedBank(t, 6)
	var l sizedGradeLine
	mustUnmarshal(t, mustRun(t, "grade", "-db", db, "-json", f.Canon), &l)
	if l.Score != f.Score || l.Givens != f.Givens || l.Hardest != f.Hardest {
		t.Errorf("canonical form graded score %v, givens %d, hardest %s; the bank holds %v, %d, %s", l.Score, l.Givens, l.Hardest, f.Score, f.Givens, f.Hardest)
	}
}

// TestGradeSizedBad: a 6x6 argument that is not a puzzle is a usage
// error naming its size and cell; on standard input, such a line is
// reported by its number and size, and the others are graded.
func TestGradeSizedBad(t *testing.T) {
	db, f, _ := MustSizedBank(t, 6)
	bad := "7" + f.Puzzles[0].Puzzle[1:]
	if r := run(t, "grade", "-db", db, f.Puzzles[0].Puzzle, bad); r.code != 2 || r.stdout != "" || !strings.Contains(r.err.Error(), `argument 2 "`+bad+`" is not a 6x6 puzzle: r1c1`) {
		t.Errorf("bad argument: exit %d, stdout %q, error %v; want 2, nothing, argument 2 not a 6x6 puzzle", r.code, r.stdout, r.err)
	}

	cmd := exec.Command(mustBinary(t), "grade", "-db", db, "-json", "-")
	cmd.Stdin = strings.NewReader(f.Puzzles[0].Puzzle + " a comment\n" + bad + "\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1; stderr:\n%s", err, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), out.String())
	}
	var good, wrong sizedGradeLine
	mustUnmarshal(t, lines[0], &good)
	mustUnmarshal(t, lines[1], &wrong)
	if good.Error != "" || good.Size != 6 || good.Bank == nil || good.Bank.Match != "exact" {
		t.Errorf("line 1: %+v, want graded, size 6, exact", good)
	}
	if !regexp.MustCompile(`^not a 6x6 puzzle: r1c1: `).MatchString(wrong.Error) || wrong.Size != 6 || !strings.Contains(lines[1], `"line":2`) {
		t.Errorf("line 2: %s, want line 2 not a 6x6 puzzle at r1c1", lines[1])
	}
}

// TestShowSizedIsomorph shows a 6x6 puzzle the bank holds only as an
// isomorph: show finds its family, and names the stored puzzle and a
// transform that takes it to the puzzle given.
func TestShowSizedIsomorph(t *testing.T) {
	db, f, other := MustSizedBank(t, 6)
	iso, _ := MustTransformed(t, f)
	out := mustRun(t, "show", "-db", db, iso.String())
	m := regexp.MustCompile(`(?m)^puzzle not stored as given: an isomorph of puzzle (\d+) \(family \d+\)\n` + iso.String() +
		`\nstored as (\S+)\ntransform (\S+) takes puzzle \d+ to this one\n`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("show of an isomorph:\n%s", out)
	}
	if !storedIn(f, m[2]) {
		t.Errorf("stored as %s, no puzzle of the family", m[2])
	}
	tr, err := grid.ParseTransform(iso.Shape, m[3])
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Apply(mustParseGrid(t, m[2])); !got.Equal(iso) {
		t.Errorf("transform %s takes the stored puzzle to %s, want %s", m[3], got, iso)
	}
	if !strings.Contains(out, "canonical form  "+f.Canon+"\n") {
		t.Errorf("no canonical form %s:\n%s", f.Canon, out)
	}
	if r := run(t, "show", "-db", db, other); r.code != 1 || !strings.Contains(r.err.Error(), "6x6 puzzle "+other+" is not in the bank") {
		t.Errorf("show of a puzzle of no family: exit %d, error %v", r.code, r.err)
	}
}

func mustUnmarshal(tb testing.TB, line string, v any) {
	tb.Helper()
	if err := json.Unmarshal([]byte(line), v); err != nil {
		tb.Fatalf("%v: %s", err, line)
	}
}

func mustParseGrid(tb testing.TB, s string) grid.Grid {
	tb.Helper()
	g, err := grid.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// storedIn reports whether p is one of f's puzzles.
func storedIn(f store.NewFamily, p string) bool {
	for _, q := range f.Puzzles {
		if q.Puzzle == p {
			return true
		}
	}
	return false
}
