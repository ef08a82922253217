package solve_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"sudokubank/solve"
)

// minimalFixture holds minimal puzzles dug from random grids, the kind
// of puzzle the dig-hole generator makes, for BenchmarkCount: the shared
// sets have none. TestMinimalFixture rebuilds it from a fixed seed.
const minimalFixture = "testdata/minimal.txt"

// minimalFixtureSize is the number of puzzles in minimalFixture.
const minimalFixtureSize = 1000

// digMinimal draws a random grid from rng and empties its cells in a
// random order, each one only while the puzzle keeps a unique solution,
// so that the result is minimal.
func digMinimal(v *solve.Solver, rng *rand.Rand) solve.Grid {
	p, ok := v.SolveRandom(solve.Grid{}, rng, 0)
	if !ok {
		panic("no random grid")
	}
	for _, c := range rng.Perm(81) {
		d := p[c]
		p[c] = 0
		if v.Count(p, 2) != 1 {
			p[c] = d
		}
	}
	return p
}

// TestMinimalFixture checks testdata/minimal.txt against its seed (its
// first 50 puzzles with -short) and rewrites it with -update. A puzzle
// that differs means the solver's counts or SolveRandom's grids changed.
func TestMinimalFixture(t *testing.T) {
	var v solve.Solver
	rng := rand.New(rand.NewPCG(2026, 30))
	n := minimalFixtureSize
	if testing.Short() && !*update {
		n = 50
	}
	lines := make([]string, n)
	for i := range lines {
		lines[i] = digMinimal(&v, rng).String()
	}
	if *update {
		if err := os.WriteFile(minimalFixture, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got := readPuzzles(t, minimalFixture)
	if len(got) != minimalFixtureSize {
		t.Fatalf("%s has %d puzzles, want %d (regenerate with -update)", minimalFixture, len(got), minimalFixtureSize)
	}
	for i, want := range lines {
		if got[i].String() != want {
			t.Fatalf("%s:%d: %s, the seed gives %s (regenerate with -update)", minimalFixture, i+1, got[i], want)
		}
		if !isMinimal(&v, got[i]) {
			t.Fatalf("%s:%d: %s is not minimal", minimalFixture, i+1, got[i])
		}
	}
}

// isMinimal reports whether p has one solution and loses that when any
// of its givens is emptied.
func isMinimal(v *solve.Solver, p solve.Grid) bool {
	if v.Count(p, 2) != 1 {
		return false
	}
	for c, d := range p {
		if d != 0 {
			p[c] = 0
			n := v.Count(p, 2)
			p[c] = d
			if n == 1 {
				return false
			}
		}
	}
	return true
}
