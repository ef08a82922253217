package gen_test

import (
	"math/rand/v2"
	"testing"

	"sudokubank/gen"
	"sudokubank/solve"
)

// TestMoverKeepsSolutionAndSymmetry checks every move's laws over puzzles
// of each symmetry: one solution, the puzzle's own; givens taken from
// it; the symmetry of the givens kept; and the same draws for the same
// seed.
func TestMoverKeepsSolutionAndSymmetry(t *testing.T) {
	for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Rot90, gen.Mirror, gen.Diagonal} {
		t.Run(sym.String(), func(t *testing.T) {
			var d gen.Digger
			var m, m2 gen.Mover
			rng := rand.New(rand.NewPCG(uint64(sym), 1))
			moved := 0
			for i := range 20 {
				pz := d.Generate(gen.GivensProfile(24, 30, sym), rng)
				seed := rng.Uint64()
				check := func(what string, got gen.Puzzle) {
					t.Helper()
					if n := solve.Count(got.Grid, 2); n != 1 {
						t.Fatalf("puzzle %d, %s: %d solutions", i, what, n)
					}
					if sol, _ := solve.Solve(got.Grid); sol != pz.Solution || got.Solution != pz.Solution {
						t.Fatalf("puzzle %d, %s: another solution", i, what)
					}
					if !sym.Holds(got.Grid) || got.Symmetry != sym {
						t.Fatalf("puzzle %d, %s: symmetry %s lost:\n%s", i, what, sym, got.Grid)
					}
				}
				for k := 1; k <= 2; k++ {
					a, ok := m.Swap(pz, k, rand.New(rand.NewPCG(seed, uint64(k))))
					b, ok2 := m2.Swap(pz, k, rand.New(rand.NewPCG(seed, uint64(k))))
					if a != b || ok != ok2 {
						t.Fatalf("puzzle %d: Swap with one seed made two puzzles", i)
					}
					if ok {
						moved++
						check("swap", a)
						if a.Grid == pz.Grid {
							t.Errorf("puzzle %d: swap changed nothing", i)
						}
					}
				}
				r := m.Redig(pz, 3, 22, rand.New(rand.NewPCG(seed, 9)))
				check("redig", r)
				if r.Grid.Givens() < 22 {
					t.Errorf("puzzle %d: redig left %d givens, want 22 or more", i, r.Grid.Givens())
				}
				// Fill lands in any range as wide as the largest orbit.
				f := m.Fill(pz, 36, 39, rand.New(rand.NewPCG(seed, 10)))
				check("fill", f)
				if n := f.Grid.Givens(); n < 36 || n > 39 {
					t.Errorf("puzzle %d: fill to 36-39 gave %d givens", i, n)
				}
				for c := range f.Grid {
					if pz.Grid[c] != 0 && f.Grid[c] != pz.Grid[c] {
						t.Fatalf("puzzle %d: fill changed given %d", i, c)
					}
				}
			}
			if moved == 0 {
				t.Error("no swap found a puzzle")
			}
		})
	}
}
