package gen_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/solve"
)

// TestSizedMoverKeepsSolutionAndSymmetry checks SizedMover's moves as
// TestMoverKeepsSolutionAndSymmetry checks Mover's, on the sizes up to
// 12x12 and each symmetry valid for them: one solution, the puzzle's
// own; givens taken from it; the symmetry of the givens kept; the same
// draws for the same seed; and the givens floor of a re-dig.
func TestSizedMoverKeepsSolutionAndSymmetry(t *testing.T) {
	var v solve.Sized
	for _, s := range grid.Shapes {
		if s.N > 12 {
			continue
		}
		for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Mirror, gen.Rot90} {
			if !sym.ValidFor(s) {
				continue
			}
			t.Run(s.String()+"/"+sym.String(), func(t *testing.T) {
				var d gen.SizedDigger
				var m, m2 gen.SizedMover
				rng := rand.New(rand.NewPCG(uint64(s.N), uint64(sym)))
				moved := 0
				// A minimal 12x12 puzzle rarely stays unique with a given
				// moved: its moves start from a band above.
				prof := gen.MinimalProfile(sym)
				if s.N == 12 {
					prof = gen.GivensProfile(50, 59, sym)
				}
				for i := range 10 {
					pz, err := d.GenerateContext(context.Background(), s, prof, rng)
					if err != nil {
						t.Fatal(err)
					}
					seed := rng.Uint64()
					check := func(what string, got gen.SizedPuzzle) {
						t.Helper()
						if n := v.Count(got.Grid, 2); n != 1 {
							t.Fatalf("puzzle %d, %s: %d solutions", i, what, n)
						}
						if sol, _ := v.Solution(got.Grid); !sol.Equal(pz.Solution) || !got.Solution.Equal(pz.Solution) {
							t.Fatalf("puzzle %d, %s: another solution", i, what)
						}
						if !sym.HoldsSized(got.Grid) || got.Symmetry != sym {
							t.Fatalf("puzzle %d, %s: symmetry %s lost:\n%s", i, what, sym, got.Grid)
						}
					}
					before := pz.Grid.Clone()
					for k := 1; k <= 2; k++ {
						a, ok := m.Swap(pz, k, rand.New(rand.NewPCG(seed, uint64(k))))
						b, ok2 := m2.Swap(pz, k, rand.New(rand.NewPCG(seed, uint64(k))))
						if !a.Grid.Equal(b.Grid) || ok != ok2 {
							t.Fatalf("puzzle %d: Swap with one seed made two puzzles", i)
						}
						if ok {
							moved++
							check("swap", a)
							if a.Grid.Equal(pz.Grid) {
								t.Errorf("puzzle %d: swap changed nothing", i)
							}
						}
					}
					floor := pz.Grid.Givens() + 1
					r := m.Redig(pz, 3, floor, rand.New(rand.NewPCG(seed, 9)))
					check("redig", r)
					if r.Grid.Givens() < floor {
						t.Errorf("puzzle %d: redig left %d givens, want %d or more", i, r.Grid.Givens(), floor)
					}
					// Fill lands in any range as wide as the largest orbit
					// (four cells).
					want := min(pz.Grid.Givens()+6, s.Cells()-4)
					f := m.Fill(pz, want, want+3, rand.New(rand.NewPCG(seed, 10)))
					check("fill", f)
					if n := f.Grid.Givens(); n < want || n > want+3 {
						t.Errorf("puzzle %d: fill to %d-%d gave %d givens", i, want, want+3, n)
					}
					for c, v := range pz.Grid.Cells {
						if v != 0 && f.Grid.Cells[c] != v {
							t.Fatalf("puzzle %d: fill changed given %d", i, c)
						}
					}
					if !pz.Grid.Equal(before) {
						t.Fatalf("puzzle %d: a move changed the puzzle it moved from", i)
					}
				}
				if moved == 0 && s.N > 4 {
					t.Error("no swap found a puzzle")
				}
			})
		}
	}
}
