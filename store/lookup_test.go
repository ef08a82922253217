package store_test

import (
	"context"
	"errors"
	"testing"

	"sudokubank/gen"
	sgrid "sudokubank/grid"
	"sudokubank/solve"
	"sudokubank/store"
)

// TestFamilyByCanon looks families up by their canonical forms, and a
// form the bank does not hold.
func TestFamilyByCanon(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	MustWrite(t, db, []store.NewFamily{fam(1, 2, 30, 2), fam(2, 3, 28, 1), fam(3, 3, 28, 3)})
	for n := 1; n <= 3; n++ {
		f, err := db.FamilyByCanon(ctx, grid("c", n))
		if err != nil || f.Canon != grid("c", n) || f.Seed != uint64(n) {
			t.Errorf("FamilyByCanon(family %d's form) = %d %s, %v", n, f.ID, f.Canon, err)
		}
	}
	for _, c := range []string{grid("c", 4), "short"} {
		if _, err := db.FamilyByCanon(ctx, c); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FamilyByCanon(%q) error = %v, want ErrNotFound", c, err)
		}
	}
}

// TestFirstPuzzleOf finds the first stored puzzle of each family, among
// families of the same level and givens.
func TestFirstPuzzleOf(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	MustWrite(t, db, []store.NewFamily{fam(1, 2, 30, 2), fam(2, 3, 28, 1), fam(3, 3, 28, 3)})
	for n := 1; n <= 3; n++ {
		f, err := db.FamilyByCanon(ctx, grid("c", n))
		if err != nil {
			t.Fatal(err)
		}
		r, err := db.FirstPuzzleOf(ctx, f)
		if err != nil || r.FamilyID != f.ID || r.Puzzle != grid("p0-", n) {
			t.Errorf("FirstPuzzleOf(family %d) = %d %s, %v; want its first variant %s", n, r.FamilyID, r.Puzzle, err, grid("p0-", n))
		}
	}
	if _, err := db.FirstPuzzleOf(ctx, store.Family{ID: 99, Level: 3, Givens: 28}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FirstPuzzleOf(no such family) error = %v, want ErrNotFound", err)
	}
}

// TestLookup finds a stored puzzle as given, an isomorph of it by its
// family with the transform from the stored puzzle, and nothing for a
// puzzle of no stored family.
func TestLookup(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	p := solve.GridOf("000000010400000000020000000000050407008000300001090000300400200050100000000806000")
	sol, ok := solve.Solve(p)
	if !ok {
		t.Fatal("the test puzzle has no solution")
	}
	canon, _ := gen.Canon(p)
	nf := fam(1, 5, 17, 0)
	nf.Canon = canon.String()
	nf.Puzzles = []store.Puzzle{{Puzzle: p.String(), Solution: sol.String(), Transform: "t0"}}
	MustWrite(t, db, []store.NewFamily{nf})

	m, err := db.Lookup(ctx, p)
	if err != nil || !m.Found || !m.Exact || !m.HasRow || m.Row.Puzzle != p.String() || m.Family.Canon != canon.String() {
		t.Errorf("Lookup(stored puzzle) = %+v, %v; want it found as given", m, err)
	}
	iso := gen.Turn90().Then(gen.MirrorLR()).Apply(p)
	m, err = db.Lookup(ctx, iso)
	if err != nil || !m.Found || m.Exact || !m.HasRow || m.Row.Puzzle != p.String() || m.To.Apply(p) != iso {
		t.Errorf("Lookup(isomorph) = %+v, %v; want the stored puzzle and a transform to the isomorph", m, err)
	}
	other := solve.GridOf("100000002090400050006000700050903000000070000000850040700000600030009080002000001")
	if m, err := db.Lookup(ctx, other); err != nil || m.Found {
		t.Errorf("Lookup(unstored puzzle) = %+v, %v; want not found", m, err)
	}
}

// TestMatchAsGiven checks the row of a puzzle the bank holds only as an
// isomorph: the puzzle and solution as given, no ID or transform, the
// family's grade, and the symmetry of the puzzle given; from the family
// alone where the match has no row.
func TestMatchAsGiven(t *testing.T) {
	p := solve.GridOf("000000010400000000020000000000050407008000300001090000300400200050100000000806000")
	iso := gen.Turn90().Then(gen.MirrorLR()).Apply(p)
	sol, _ := solve.Solve(iso)
	given := nineOf(iso)
	f := fam(1, 5, 17, 0).Family
	f.ID = 7
	stored := store.Row{ID: 3, FamilyID: 7, Puzzle: p.String(), Transform: "t0", Givens: 17, Level: 5, ER: 60, Symmetry: "rot180", Minimal: true}
	for _, m := range []store.Match{
		{Found: true, Family: f, Row: stored, HasRow: true},
		{Found: true, Family: f},
	} {
		r, err := m.AsGiven(given)
		if err != nil {
			t.Fatal(err)
		}
		if r.ID != 0 || r.FamilyID != 7 || r.Puzzle != iso.String() || r.Solution != sol.String() || r.Transform != "" ||
			r.Level != 5 || r.Givens != 17 || r.Symmetry != gen.DetectSymmetry(iso).String() {
			t.Errorf("AsGiven (row %v) = %+v", m.HasRow, r)
		}
	}
	if got, _ := (store.Match{Found: true, Family: f}).AsGiven(given); got.ER != f.ER || got.Hardest != f.Hardest {
		t.Errorf("AsGiven without a row = %+v, want the family's grade", got)
	}
	if _, err := (store.Match{Found: true, Family: f}).AsGiven(nineOf(solve.GridOf("11" + iso.String()[2:]))); err == nil {
		t.Error("AsGiven of a puzzle with no solution: no error")
	}
}

// nineOf returns the 9x9 grid g as a grid.Grid.
func nineOf(g solve.Grid) sgrid.Grid { return sgrid.Grid{Shape: sgrid.Nine, Cells: g[:]} }
