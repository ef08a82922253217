package store_test

import (
	"context"
	"errors"
	"testing"

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
