package solve_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/solve"
)

// gridGen draws partial grids: a random full grid from SolveRandom's
// seeded search, thinned to a random number of givens, or random
// non-clashing givens, which mostly have no solution.
func gridGen() *rapid.Generator[solve.Grid] {
	return rapid.Custom(func(t *rapid.T) solve.Grid {
		var g solve.Grid
		if rapid.Bool().Draw(t, "fromTerminal") {
			var s solve.Solver
			seed := rapid.Uint64().Draw(t, "seed")
			g, _ = s.SolveRandom(solve.Grid{}, newRand(seed), 0)
			for _, c := range rapid.SliceOfNDistinct(rapid.IntRange(0, 80), 0, 81, rapid.ID[int]).Draw(t, "holes") {
				g[c] = 0
			}
			return g
		}
		n := rapid.IntRange(0, 40).Draw(t, "givens")
		for i := 0; i < n; i++ {
			c := rapid.IntRange(0, 80).Draw(t, "cell")
			g[c] = uint8(rapid.IntRange(1, 9).Draw(t, "digit"))
			if g.Check() != nil {
				g[c] = 0
			}
		}
		return g
	})
}

// TestSolversAgreeProperty: the three solvers count the same.
func TestSolversAgreeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := gridGen().Draw(t, "grid")
		limit := rapid.IntRange(1, 12).Draw(t, "limit")
		crossCheck(t, g, limit)
	})
}

// TestCountInvariantProperty: relabelling the digits and transposing the
// grid change no count, and the solution follows the same map.
func TestCountInvariantProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := gridGen().Draw(t, "grid")
		perm := rapid.Permutation([]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9}).Draw(t, "digits")
		var h solve.Grid
		for i, v := range g {
			if v != 0 {
				h[i%9*9+i/9] = perm[v-1]
			}
		}
		if got, want := solve.Count(h, 5), solve.Count(g, 5); got != want {
			t.Fatalf("%s: count %d, transformed %s: %d", g, want, h, got)
		}
	})
}

// TestCheckProperty: Check reports the first repeat in unit order, or the
// first value above 9, as a plain scan of each unit finds them, on valid
// grids and on ones with a clash or a bad value put in.
func TestCheckProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := gridGen().Draw(t, "grid")
		for _, c := range rapid.SliceOfN(rapid.IntRange(0, 80), 0, 3).Draw(t, "changed") {
			g[c] = uint8(rapid.OneOf(rapid.IntRange(0, 9), rapid.IntRange(0, 255)).Draw(t, "value"))
		}
		got, want := "<nil>", refCheck(g)
		if err := g.Check(); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Fatalf("%v: Check = %s, want %s", [81]uint8(g), got, want)
		}
	})
}

// refCheck is Check's message for g by a plain scan: values first, then
// each unit in turn, "<nil>" when g is valid.
func refCheck(g solve.Grid) string {
	for i, v := range g {
		if v > 9 {
			return fmt.Sprintf("r%dc%d holds %d, not a digit", i/9+1, i%9+1, v)
		}
	}
	for u, cells := range solve.Units {
		seen := map[uint8]int{}
		for _, c := range cells {
			v := g[c]
			if v == 0 {
				continue
			}
			if a, ok := seen[v]; ok {
				return fmt.Sprintf("%v: %d twice in %s (r%dc%d and r%dc%d)", solve.ErrRepeated, v, solve.UnitName(u), a/9+1, a%9+1, c/9+1, c%9+1)
			}
			seen[v] = c
		}
	}
	return "<nil>"
}

// TestCountSolutionProperty: CountSolution counts as Count does, with the
// same node count, and returns the solution Solve finds when there is one
// (the only one when the count is 1).
func TestCountSolutionProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := gridGen().Draw(t, "grid")
		limit := rapid.IntRange(1, 3).Draw(t, "limit")
		var a, b solve.Solver
		n, sol := a.CountSolution(g, limit)
		if want := b.Count(g, limit); n != want || a.Stats() != b.Stats() {
			t.Fatalf("%s: CountSolution %d in %+v, Count %d in %+v", g, n, a.Stats(), want, b.Stats())
		}
		want, ok := b.Solve(g)
		if !ok {
			want = solve.Grid{}
		}
		if sol != want {
			t.Fatalf("%s: CountSolution found %s, Solve %s", g, sol, want)
		}
	})
}
