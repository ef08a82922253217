package store_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	grids "sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

// mustSizedFamily returns the first family of shape s that the sized
// pipeline builds from seed 1 at one of levels, with one variant.
func mustSizedFamily(tb testing.TB, s grids.Shape, levels []grade.Level) store.NewFamily {
	tb.Helper()
	b := pipeline.NewSizedBuilder(pipeline.BuildOptions{Shape: s, Levels: levels, Variants: 1})
	for i := range uint64(100) {
		if res := b.Build(context.Background(), pipeline.Item{Seed: 1, Index: i}); res.Reason == pipeline.Kept {
			return res.Value
		}
	}
	tb.Fatalf("no %s family built", s)
	return store.NewFamily{}
}

// TestLookupGrid finds puzzles of several sizes as given, as isomorphs
// (a random transform of a stored puzzle, with a transform from the
// stored puzzle to it), and not at all; a 9x9 puzzle as Lookup finds it.
func TestLookupGrid(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	six := mustSizedFamily(t, mustShape(t, 6), []grade.Level{grade.Medium, grade.Difficult})
	twelve := mustSizedFamily(t, mustShape(t, 12), []grade.Level{grade.ExtremelyEasy})
	// 9x9 families are keyed by gen.Canon's form, which LookupGrid uses
	// for them as Lookup does.
	p9 := solve.GridOf("000000010400000000020000000000050407008000300001090000300400200050100000000806000")
	sol9, _ := solve.Solve(p9)
	canon9, _ := gen.Canon(p9)
	nine := fam(1, 5, 17, 0)
	nine.Canon = canon9.String()
	nine.Puzzles = []store.Puzzle{{Puzzle: p9.String(), Solution: sol9.String(), Transform: "t0"}}
	MustWrite(t, db, []store.NewFamily{six, twelve, nine})
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range []store.NewFamily{six, twelve, nine} {
		p := mustGridOf(t, f.Puzzles[0].Puzzle)
		t.Run(p.Shape.String(), func(t *testing.T) {
			m, err := db.LookupGrid(ctx, p)
			if err != nil || !m.Found || !m.Exact || !m.HasRow || m.Row.Puzzle != p.String() || m.Family.Canon != f.Canon {
				t.Errorf("LookupGrid(stored puzzle) = %+v, %v; want it found as given", m, err)
			}
			var iso grids.Grid
			for stored := true; stored; {
				iso = grids.RandomTransform(p.Shape, rng).Apply(p)
				stored = false
				for _, q := range f.Puzzles {
					stored = stored || q.Puzzle == iso.String()
				}
			}
			m, err = db.LookupGrid(ctx, iso)
			if err != nil || !m.Found || m.Exact || !m.HasRow || m.Family.Canon != f.Canon {
				t.Fatalf("LookupGrid(isomorph) = %+v, %v; want the family", m, err)
			}
			if got := m.To.Apply(mustGridOf(t, m.Row.Puzzle)); !got.Equal(iso) {
				t.Errorf("LookupGrid(isomorph): %s takes stored %s to %s, want %s", m.To, m.Row.Puzzle, got, iso)
			}
		})
	}
	// The stored 6x6 puzzle with one given more is of no stored family.
	other := mustGridOf(t, six.Puzzles[0].Puzzle)
	sol := mustGridOf(t, six.Puzzles[0].Solution)
	for c, v := range other.Cells {
		if v == 0 {
			other.Cells[c] = sol.Cells[c]
			break
		}
	}
	if m, err := db.LookupGrid(ctx, other); err != nil || m.Found {
		t.Errorf("LookupGrid(unstored puzzle) = %+v, %v; want not found", m, err)
	}
}

func mustShape(tb testing.TB, n int) grids.Shape {
	tb.Helper()
	s, err := grids.ShapeOf(n)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func mustGridOf(tb testing.TB, s string) grids.Grid {
	tb.Helper()
	g, err := grids.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
