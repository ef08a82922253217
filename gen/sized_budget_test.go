package gen_test

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/solve"
)

// budgetShapes are the shapes whose minimal digs the budget tests make:
// fast enough to dig many times, with checks long enough to be cut.
func budgetShapes() []grid.Shape {
	var ss []grid.Shape
	for _, s := range grid.Shapes {
		if s.N >= 6 && s.N <= 12 {
			ss = append(ss, s)
		}
	}
	return ss
}

// TestSizedCheckWithinAgrees: on the givens of minimal digs, and of digs
// with a few more cells emptied, the budgeted check says what the
// unbounded one says whenever it is decided, and is never decided
// wrongly as unique.
func TestSizedCheckWithinAgrees(t *testing.T) {
	for _, s := range budgetShapes() {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var d gen.SizedDigger
			var v, w solve.Sized
			rapid.Check(t, func(t *rapid.T) {
				pz, err := d.GenerateContext(context.Background(), s, gen.MinimalProfile(gen.NoSymmetry), newRand(rapid.Uint64().Draw(t, "seed")))
				if err != nil {
					t.Fatal(err)
				}
				var givens []int
				for c, x := range pz.Grid.Cells {
					if x != 0 {
						givens = append(givens, c)
					}
				}
				g := pz.Grid.Clone()
				for _, i := range rapid.SliceOfNDistinct(rapid.IntRange(0, len(givens)-1), 0, 3, rapid.ID[int]).Draw(t, "holes") {
					g.Cells[givens[i]] = 0
				}
				c := givens[rapid.IntRange(0, len(givens)-1).Draw(t, "cell")]
				budget := rapid.IntRange(0, 200).Draw(t, "budget")
				want := w.HasOtherSolution(g, c, pz.Solution)
				got, decided := v.HasOtherSolutionWithin(g, c, pz.Solution, budget)
				if decided && got != want {
					t.Fatalf("%s, %s, budget %d: decided %v, HasOtherSolution %v", g, s.CellName(c), budget, got, want)
				}
			})
		})
	}
}

// TestSizedDigTinyBudget: digs whose checks may use a handful of nodes
// still give puzzles with one solution, the one dug; a dig that had a
// check cut is not Minimal, and one that is Minimal is.
func TestSizedDigTinyBudget(t *testing.T) {
	for _, s := range budgetShapes() {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var z solve.Sized
			cutSeen := false
			for seed := range uint64(12) {
				d := gen.SizedDigger{CheckNodes: int(seed % 4)}
				pz, err := d.GenerateContext(context.Background(), s, gen.MinimalProfile(gen.NoSymmetry), newRand(seed))
				if err != nil {
					t.Fatal(err)
				}
				if n := z.Count(pz.Grid, 2); n != 1 {
					t.Fatalf("seed %d: %s has %d solutions", seed, pz.Grid, n)
				}
				if sol, _ := z.Solution(pz.Grid); !sol.Equal(pz.Solution) {
					t.Fatalf("seed %d: %s solves to %s, dug from %s", seed, pz.Grid, sol, pz.Solution)
				}
				cut := gen.SizedDiggerCuts(&d) > 0
				cutSeen = cutSeen || cut
				if cut && pz.Minimal {
					t.Errorf("seed %d: %s is Minimal after a cut check", seed, pz.Grid)
				}
				if pz.Minimal && !refMinimalSized(pz.Grid) {
					t.Errorf("seed %d: %s is Minimal but a given can go", seed, pz.Grid)
				}
				if !cut && !pz.Minimal {
					t.Errorf("seed %d: %s is not Minimal, though no check was cut", seed, pz.Grid)
				}
			}
			if !cutSeen {
				t.Error("no dig had a check cut: the budget is not tested")
			}
		})
	}
}

// TestSizedDigBudgetDeterministic: with a budget that cuts checks, a seed
// gives the same puzzle on a fresh digger and on one reused across
// budgets and shapes.
func TestSizedDigBudgetDeterministic(t *testing.T) {
	var shared gen.SizedDigger
	for _, s := range budgetShapes() {
		for _, budget := range []int{1, 3, 10} {
			t.Run(fmt.Sprintf("N=%d/Budget=%d", s.N, budget), func(t *testing.T) {
				fresh := gen.SizedDigger{CheckNodes: budget}
				a, err := fresh.GenerateContext(context.Background(), s, gen.MinimalProfile(gen.NoSymmetry), newRand(9))
				if err != nil {
					t.Fatal(err)
				}
				shared.CheckNodes = budget
				b, err := shared.GenerateContext(context.Background(), s, gen.MinimalProfile(gen.NoSymmetry), newRand(9))
				if err != nil {
					t.Fatal(err)
				}
				if !a.Grid.Equal(b.Grid) || a.Minimal != b.Minimal {
					t.Errorf("seed 9: %v (minimal %v), then %v (minimal %v)", a.Grid, a.Minimal, b.Grid, b.Minimal)
				}
			})
		}
	}
}

// TestSizedIsMinimalBudget: IsMinimal with a budget too small to decide
// the checks of a minimal puzzle says false, never true unproven.
func TestSizedIsMinimalBudget(t *testing.T) {
	s, err := grid.ShapeOf(12)
	if err != nil {
		t.Fatal(err)
	}
	var d gen.SizedDigger
	pz, err := d.GenerateContext(context.Background(), s, gen.MinimalProfile(gen.NoSymmetry), newRand(4))
	if err != nil {
		t.Fatal(err)
	}
	if !pz.Minimal || !d.IsMinimal(pz.Grid) {
		t.Fatalf("%s: Minimal %v, IsMinimal %v with the default budget", pz.Grid, pz.Minimal, d.IsMinimal(pz.Grid))
	}
	tiny := gen.SizedDigger{CheckNodes: 1}
	if tiny.IsMinimal(pz.Grid) {
		t.Errorf("%s: IsMinimal with 1 node a check = true", pz.Grid)
	}
}
