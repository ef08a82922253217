package grade

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/grid"
	"sudokubank/solve"
)

// sizedTerminal returns a random solution grid of shape s.
func sizedTerminal(s grid.Shape, rng *rand.Rand) grid.Grid {
	var z solve.Sized
	g, ok := z.RandomSolution(grid.New(s), rng)
	if !ok {
		panic("no terminal grid of shape " + s.String())
	}
	return g
}

// sizedDig removes the cells of sol in a random order while the puzzle
// keeps one solution: a minimal puzzle (25x25: only 300 cells are tried,
// to keep the fixtures quick to make).
func sizedDig(sol grid.Grid, rng *rand.Rand) grid.Grid {
	var z solve.Sized
	p := sol.Clone()
	order := rng.Perm(len(p.Cells))
	if sol.Shape.N == 25 {
		order = order[:300]
	}
	for _, c := range order {
		v := p.Cells[c]
		p.Cells[c] = 0
		if z.Count(p, 2) != 1 {
			p.Cells[c] = v
		}
	}
	return p
}

// sizedPuzzles returns n seeded minimal puzzles of shape s.
func sizedPuzzles(s grid.Shape, n int, seed uint64) []grid.Grid {
	rng := rand.New(rand.NewPCG(seed, uint64(s.N)))
	out := make([]grid.Grid, n)
	for i := range out {
		out[i] = sizedDig(sizedTerminal(s, rng), rng)
	}
	return out
}

// sizedFixtureCount is how many puzzles of each shape
// testdata/sized/puzzles.txt holds.
var sizedFixtureCount = map[int]int{4: 40, 6: 40, 8: 40, 9: 20, 12: 20, 16: 12, 25: 2}

const sizedFixtureFile = "testdata/sized/puzzles.txt"

// TestSizedFixtures rewrites testdata/sized/puzzles.txt with -update:
// seeded minimal puzzles dug from random grids (25x25: dug 300 cells
// deep only), the puzzles the sized tests and benchmarks grade.
func TestSizedFixtures(t *testing.T) {
	if !*chainUpdate {
		if len(readSizedFixtures(t)) == 0 {
			t.Fatal("no sized fixtures")
		}
		return
	}
	out := "# Minimal puzzles dug from seeded random grids, by shape (25x25: 300 cells tried).\n" +
		"# Regenerate with: go test ./grade -run TestSizedFixtures -update\n"
	for _, s := range grid.Shapes {
		for _, p := range sizedPuzzles(s, sizedFixtureCount[s.N], 26) {
			out += p.String() + "\n"
		}
	}
	if err := os.MkdirAll("testdata/sized", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sizedFixtureFile, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readSizedFixtures returns the fixture puzzles by size.
func readSizedFixtures(t testing.TB) map[int][]grid.Grid {
	data, err := os.ReadFile(sizedFixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]grid.Grid{}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p := mustSizedGrid(t, l)
		out[p.Shape.N] = append(out[p.Shape.N], p)
	}
	return out
}

// TestSizedGradeShapes grades dug puzzles of every shape: grades are
// deterministic, every step is true of the solution, a finished solve
// fills the solution, the path's slugs hold the counts of Uses, and 4x4
// puzzles need singles only.
func TestSizedGradeShapes(t *testing.T) {
	fixtures := readSizedFixtures(t)
	for _, s := range grid.Shapes {
		t.Run(s.String(), func(t *testing.T) {
			unfinished := 0
			puzzles := fixtures[s.N]
			if testing.Short() && s.N >= 12 {
				puzzles = puzzles[:len(puzzles)/3]
			}
			levels := map[Level]int{}
			for _, p := range puzzles {
				var g SizedGrader
				gr, err := g.GradeContext(context.Background(), p)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				again, err := NewSized().GradeContext(context.Background(), p)
				if err != nil || !reflect.DeepEqual(gr, again) {
					t.Fatalf("%s: second grade differs (%v)", p, err)
				}
				levels[gr.Level]++
				checkSizedGrade(t, p, gr)
				if gr.Unfinished {
					unfinished++
				}
				if s.N == 4 && gr.ER > NakedSingle.BaseRating() {
					t.Errorf("4x4 %s rates %s (%s), want singles only", p, gr.ER, gr.Hardest.Slug())
				}
			}
			t.Logf("%s: %d puzzles, %d unfinished, levels %v", s, len(puzzles), unfinished, levels)
		})
	}
}

// sizedTB is what checkSizedGrade needs of a test: *testing.T or
// *rapid.T.
type sizedTB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// checkSizedGrade checks a grade of p independently of the grader.
func checkSizedGrade(t sizedTB, p grid.Grid, gr SizedGrade) {
	t.Helper()
	if err := gr.Solution.Check(); err != nil || gr.Solution.Givens() != len(p.Cells) {
		t.Fatalf("%s: solution %s is not a full grid (%v)", p, gr.Solution, err)
	}
	pos := p.Clone()
	cands := make([]uint32, len(p.Cells))
	for c := range cands {
		cands[c] = 1<<(p.Shape.N+1) - 2
	}
	var maxR Rating
	var uses [numTechniques]uint16
	for i, st := range gr.Steps {
		if len(st.Placements)+len(st.Eliminations) == 0 {
			t.Fatalf("%s: step %d (%s) makes no progress", p, i, st.Technique.Slug())
		}
		for _, x := range st.Placements {
			if gr.Solution.Cells[x.Cell] != x.Digit {
				t.Fatalf("%s: step %d (%s) places %d in %d, solution %d", p, i, st.Technique.Slug(), x.Digit, x.Cell, gr.Solution.Cells[x.Cell])
			}
			pos.Cells[x.Cell] = x.Digit
		}
		for _, x := range st.Eliminations {
			if gr.Solution.Cells[x.Cell] == x.Digit {
				t.Fatalf("%s: step %d (%s) eliminates the solution's %d from %d", p, i, st.Technique.Slug(), x.Digit, x.Cell)
			}
		}
		if st.Rating < st.Technique.BaseRating() {
			t.Errorf("%s: step %d (%s) rates %s, below its base", p, i, st.Technique.Slug(), st.Rating)
		}
		maxR = max(maxR, st.Rating)
		uses[st.Technique]++
	}
	slugs := gr.Slugs()
	if gr.Unfinished {
		uses[BruteForce]++
		if gr.ER != UnfinishedER || gr.Hardest != BruteForce || slugs[len(slugs)-1] != BruteForce.Slug() {
			t.Errorf("%s: unfinished grade %s %s, path ends %s", p, gr.ER, gr.Hardest.Slug(), slugs[len(slugs)-1])
		}
	} else {
		if !pos.Equal(gr.Solution) {
			t.Errorf("%s: finished solve ends in %s, not the solution %s", p, pos, gr.Solution)
		}
		if gr.ER != maxR {
			t.Errorf("%s: ER %s, hardest step %s", p, gr.ER, maxR)
		}
	}
	if uses != gr.Uses || len(slugs) != len(gr.Steps)+int(uses[BruteForce]) {
		t.Errorf("%s: Uses %v, steps count %v", p, gr.Uses, uses)
	}
	if gr.Level != LevelOf(gr.ER) || gr.EP < gr.ED || gr.ER < gr.EP {
		t.Errorf("%s: level %s, ER/EP/ED %s/%s/%s", p, gr.Level, gr.ER, gr.EP, gr.ED)
	}
	if g, m := givensOf(p); gr.Givens != g || gr.MinRowCol != m || gr.SearchNodes < 1 {
		t.Errorf("%s: givens %d/%d, nodes %d", p, gr.Givens, gr.MinRowCol, gr.SearchNodes)
	}
}

// TestSizedGradeErrors: no solution, several solutions, a cancelled
// context and an invalid grid are errors that say so.
func TestSizedGradeErrors(t *testing.T) {
	s, _ := grid.ShapeOf(6)
	sol := sizedTerminal(s, rand.New(rand.NewPCG(1, 2)))
	p := sizedDig(sol, rand.New(rand.NewPCG(3, 4)))
	open := grid.New(s) // many solutions
	bad := p.Clone()    // a different value in an empty cell's place
	for c, v := range bad.Cells {
		if v == 0 {
			// a value that is not the solution's and breaks no unit
			for d := uint8(1); d <= 6; d++ {
				bad.Cells[c] = d
				if d != sol.Cells[c] && bad.Check() == nil {
					break
				}
				bad.Cells[c] = 0
			}
			if bad.Cells[c] != 0 {
				break
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	repeated := p.Clone()
	repeated.Cells[0], repeated.Cells[1] = 1, 1
	for _, tc := range []struct {
		name string
		ctx  context.Context
		p    grid.Grid
		want error
	}{
		{"several", context.Background(), open, solve.ErrMultipleSolutions},
		{"none", context.Background(), bad, solve.ErrNoSolution},
		{"cancelled", ctx, p, context.Canceled},
		{"repeated", context.Background(), repeated, grid.ErrRepeated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSized().GradeContext(tc.ctx, tc.p)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

// TestSizedGradeProperty grades puzzles dug from random grids of the
// small shapes, each dug from its own seed: every grade passes
// checkSizedGrade, and 4x4 puzzles need singles only.
func TestSizedGradeProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := rapid.SampledFrom([]grid.Shape{grid.Shapes[0], grid.Shapes[1], grid.Shapes[2]}).Draw(rt, "shape")
		seed := rapid.Uint64().Draw(rt, "seed")
		rng := rand.New(rand.NewPCG(seed, 26))
		p := sizedDig(sizedTerminal(s, rng), rng)
		gr, err := NewSized().GradeContext(context.Background(), p)
		if err != nil {
			rt.Fatalf("%s: %v", p, err)
		}
		checkSizedGrade(rt, p, gr)
		if s.N == 4 && gr.ER > NakedSingle.BaseRating() {
			rt.Fatalf("4x4 %s rates %s (%s)", p, gr.ER, gr.Hardest.Slug())
		}
	})
}
