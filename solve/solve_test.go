package solve_test

import (
	"bufio"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokubank/solve"
)

// MustParse parses s or fails tb.
func MustParse(tb testing.TB, s string) solve.Grid {
	tb.Helper()
	g, err := solve.Parse(s)
	if err != nil {
		tb.Fatalf("parse %q: %v", s, err)
	}
	return g
}

// testCase is a fixture puzzle and its number of solutions up to 2.
type testCase struct {
	g    solve.Grid
	want int
	line int
}

// readCases reads testdata/cases.txt.
func readCases(tb testing.TB) []testCase {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "cases.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var cs []testCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if s == "" || s[0] == '#' {
			continue
		}
		p, n, ok := strings.Cut(s, " ")
		want, err := strconv.Atoi(n)
		if !ok || err != nil {
			tb.Fatalf("cases.txt:%d: want PUZZLE COUNT", line)
		}
		cs = append(cs, testCase{MustParse(tb, p), want, line})
	}
	return cs
}

// failer is what the checks need of a *testing.T or a *rapid.T.
type failer interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkSolution fails t unless sol is a valid full grid keeping the
// givens of g.
func checkSolution(t failer, g, sol solve.Grid) {
	t.Helper()
	if err := sol.Check(); err != nil || sol.Givens() != 81 {
		t.Fatalf("solution %s of %s is not a valid full grid (%v)", sol, g, err)
	}
	for i, v := range g {
		if v != 0 && sol[i] != v {
			t.Fatalf("solution %s of %s changes cell %d", sol, g, i)
		}
	}
}

// crossCheck counts g up to limit with all three solvers and fails t when
// they disagree or a solution is wrong. The backtracker may give up on a
// hard grid; then only the other two are compared. It returns the count.
func crossCheck(t failer, g solve.Grid, limit int) int {
	t.Helper()
	var s solve.Solver
	got := s.Count(g, limit)
	dl, dsol := solve.CountDLX(g, limit)
	if got != dl {
		t.Fatalf("%s: Count(%d) = %d, DLX = %d", g, limit, got, dl)
	}
	if bt, ok := solve.CountBacktrack(g, limit, 20000); ok && bt != got {
		t.Fatalf("%s: Count(%d) = %d, backtracker = %d", g, limit, got, bt)
	}
	sol, ok := s.Solve(g)
	if one, _ := solve.CountDLX(g, 1); ok != (one > 0) {
		t.Fatalf("%s: Solve ok = %v, DLX count to 1 = %d", g, ok, one)
	}
	if ok {
		checkSolution(t, g, sol)
	}
	if dl > 0 {
		checkSolution(t, g, dsol)
	}
	return got
}

func TestCases(t *testing.T) {
	for _, c := range readCases(t) {
		if got := crossCheck(t, c.g, 2); got != c.want {
			t.Errorf("cases.txt:%d: count %d, want %d", c.line, got, c.want)
		}
		if got := solve.Count(c.g, 2); got != c.want {
			t.Errorf("cases.txt:%d: package Count %d, want %d", c.line, got, c.want)
		}
		if sol, ok := solve.Solve(c.g); ok != (c.want > 0) {
			t.Errorf("cases.txt:%d: package Solve ok = %v", c.line, ok)
		} else if ok {
			checkSolution(t, c.g, sol)
		}
	}
}

// randomTerminal returns a random full grid.
func randomTerminal(t testing.TB, rng *rand.Rand) solve.Grid {
	t.Helper()
	var s solve.Solver
	g, ok := s.SolveRandom(solve.Grid{}, rng, 0)
	if !ok {
		t.Fatal("SolveRandom found no grid")
	}
	checkSolution(t, solve.Grid{}, g)
	return g
}

// TestRandomPartialGrids counts, with a high limit, grids made by emptying
// random cells of random full grids, and grids of random non-clashing
// givens (which mostly have no solution).
func TestRandomPartialGrids(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	n := 400
	if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		g := randomTerminal(t, rng)
		keep := 22 + rng.IntN(40)
		for _, c := range rng.Perm(81)[keep:] {
			g[c] = 0
		}
		crossCheck(t, g, 1+rng.IntN(30))
	}
	for i := 0; i < n; i++ {
		var g solve.Grid
		for k := 15 + rng.IntN(20); k > 0; k-- {
			c, d := rng.IntN(81), uint8(1+rng.IntN(9))
			old := g[c]
			g[c] = d
			if g.Check() != nil {
				g[c] = old
			}
		}
		crossCheck(t, g, 1+rng.IntN(5))
	}
}

// TestCountLimits checks that counting stops exactly at the limit.
func TestCountLimits(t *testing.T) {
	empty := solve.Grid{}
	for _, limit := range []int{0, 1, 2, 7, 100} {
		if got := solve.Count(empty, limit); got != limit {
			t.Errorf("Count(empty, %d) = %d, want %d", limit, got, limit)
		}
	}
}

// fullSets makes TestSharedSets count every puzzle of the big sets.
var fullSets = flag.Bool("full", false, "count every puzzle of the shared sets, not every 4th of the big ones")

// TestSharedSets counts the puzzles of the shared sets with the fast
// solver (serg: 2 each, the others 1) and cross-checks a sample against
// the reference solvers. Sets over 10,000 puzzles are counted every 4th
// puzzle unless -full; -short takes the first 2,000 of each set.
func TestSharedSets(t *testing.T) {
	sets := []struct {
		file string
		want int
	}{
		{"puzzles2_17_clue.txt", 1},
		{"puzzles3_magictour_top1465.txt", 1},
		{"puzzles5_forum_hardest_1905_11+.txt", 1},
		{"puzzles7_serg_benchmark.txt", 2},
		{"norvig_top95.txt", 1},
		{"norvig_hardest.txt", 1},
	}
	for _, set := range sets {
		t.Run(strings.TrimSuffix(set.file, ".txt"), func(t *testing.T) {
			gs := readPuzzles(t, filepath.Join(sharedPuzzles, set.file))
			if testing.Short() && len(gs) > 2000 {
				gs = gs[:2000]
			}
			stride := 1
			if len(gs) > 10000 && !*fullSets {
				stride = 4
			}
			var s solve.Solver
			for i := 0; i < len(gs); i += stride {
				if got := s.Count(gs[i], 2); got != set.want {
					t.Fatalf("puzzle %d %s: count %d, want %d", i+1, gs[i], got, set.want)
				}
			}
			step := max(1, len(gs)/100)
			for i := 0; i < len(gs); i += step {
				crossCheck(t, gs[i], 3)
			}
		})
	}
}

func TestStatsDeterministic(t *testing.T) {
	var a, b solve.Solver
	for _, c := range readCases(t) {
		a.Count(c.g, 2)
		b.Count(c.g, 2)
		b.Count(solve.Grid{}, 5) // other work in between changes nothing
		b.Count(c.g, 2)
		if got, want := b.Stats(), a.Stats(); got != want {
			t.Fatalf("%s: stats %+v, then %+v", c.g, want, got)
		}
		if st := a.Stats(); st.Nodes < 1 || st.Guesses >= st.Nodes {
			t.Fatalf("%s: implausible stats %+v", c.g, st)
		}
	}
}

func TestSolveRandom(t *testing.T) {
	var s solve.Solver
	seen := map[solve.Grid]bool{}
	for seed := uint64(0); seed < 50; seed++ {
		g1, ok1 := s.SolveRandom(solve.Grid{}, rand.New(rand.NewPCG(seed, 9)), 0)
		g2, ok2 := s.SolveRandom(solve.Grid{}, rand.New(rand.NewPCG(seed, 9)), 0)
		if !ok1 || !ok2 || g1 != g2 {
			t.Fatalf("seed %d: %s %v, then %s %v", seed, g1, ok1, g2, ok2)
		}
		checkSolution(t, solve.Grid{}, g1)
		seen[g1] = true
	}
	if len(seen) < 50 {
		t.Errorf("50 seeds gave %d distinct grids", len(seen))
	}
	// A partial grid keeps its givens; a budget of one node gives up.
	p := readCases(t)[0].g
	g, ok := s.SolveRandom(p, rand.New(rand.NewPCG(1, 2)), 0)
	if !ok {
		t.Fatalf("%s: no solution", p)
	}
	checkSolution(t, p, g)
	if _, ok := s.SolveRandom(solve.Grid{}, rand.New(rand.NewPCG(1, 2)), 1); ok {
		t.Error("SolveRandom with maxNodes 1 found a grid from the empty grid")
	}
}

// TestHasOtherSolution digs random full grids and checks every answer
// against its definition, counted by Algorithm X: a solution with another
// digit at the cell exists.
func TestHasOtherSolution(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s solve.Solver
	for i := 0; i < 6; i++ {
		g := randomTerminal(t, rng)
		for _, c := range rng.Perm(81) {
			d := g[c]
			got := s.HasOtherSolution(g, c, d)
			want := false
			for e := uint8(1); e <= 9 && !want; e++ {
				h := g
				h[c] = e
				if e != d && h.Check() == nil {
					n, _ := solve.CountDLX(h, 1)
					want = n > 0
				}
			}
			if got != want {
				t.Fatalf("%s: HasOtherSolution(cell %d, digit %d) = %v, want %v", g, c, d, got, want)
			}
			if !got {
				g[c] = 0
			}
		}
		if got := solve.Count(g, 2); got != 1 {
			t.Fatalf("dug puzzle %s has %d solutions", g, got)
		}
	}
}

// newRand returns a seeded random source.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// TestValuesAboveNine: a cell holding a value above 9, which Parse never
// makes, leaves a grid without solutions, whatever the value's low bits.
func TestValuesAboveNine(t *testing.T) {
	var s solve.Solver
	for _, v := range []uint8{10, 15, 16, 19, 25, 128, 255} {
		for _, cell := range []int{0, 40, 80} {
			var g solve.Grid
			g[cell] = v
			if n := s.Count(g, 2); n != 0 {
				t.Errorf("value %d at cell %d: Count = %d, want 0", v, cell, n)
			}
			if _, ok := s.Solve(g); ok {
				t.Errorf("value %d at cell %d: Solve found a solution", v, cell)
			}
		}
	}
}

// TestClashingGivens: two equal givens that see each other, in any row,
// column or box and any pair of bands, leave a grid without solutions,
// and so does a clash among otherwise valid givens of a full grid.
func TestClashingGivens(t *testing.T) {
	var s solve.Solver
	for i := 0; i < 81; i++ {
		for j := 0; j < 81; j++ {
			sameBox := i/27 == j/27 && i%9/3 == j%9/3
			if j == i || i/9 != j/9 && i%9 != j%9 && !sameBox {
				continue
			}
			var g solve.Grid
			g[i], g[j] = uint8(i%9+1), uint8(i%9+1)
			if n := s.Count(g, 2); n != 0 {
				t.Fatalf("%s: Count = %d, want 0", g, n)
			}
		}
	}
	rng := newRand(7)
	for k := 0; k < 200; k++ {
		g := randomTerminal(t, rng)
		i, j := rng.IntN(81), rng.IntN(81)
		if g[i] == g[j] {
			continue
		}
		g[i] = g[j]
		for _, c := range rng.Perm(81)[:rng.IntN(60)] {
			if c != i && c != j {
				g[c] = 0
			}
		}
		want := 0
		if g.Check() == nil {
			want, _ = solve.CountDLX(g, 2)
		}
		if n := s.Count(g, 2); n != want {
			t.Fatalf("%s: Count = %d, want %d", g, n, want)
		}
	}
}
