package store_test

import (
	"context"
	"errors"
	"testing"

	"sudokubank/store"
)

// batchOf returns n families of k puzzles each, of mixed levels.
func batchOf(n, k int) []store.NewFamily {
	var b []store.NewFamily
	for i := range n {
		b = append(b, fam(i, 1+i%5, 20+i%30, k))
	}
	return b
}

// TestPrepareWritesTheSame writes one batch prepared into one bank and
// unprepared into another: every row must come out the same.
func TestPrepareWritesTheSame(t *testing.T) {
	ctx := context.Background()
	plain, _ := MustOpenTemp(t)
	prep, _ := MustOpenTemp(t)
	a, b := batchOf(40, 7), batchOf(40, 7)
	for i := range b {
		if err := store.Prepare(&b[i]); err != nil {
			t.Fatalf("Prepare(family %d): %v", i, err)
		}
	}
	// A repeat within the batch and a puzzle stored twice are skipped
	// alike either way.
	a, b = append(a, a[3]), append(b, b[3])
	ra, rb := MustWrite(t, plain, a), MustWrite(t, prep, b)
	if ra != rb {
		t.Fatalf("WriteResult prepared %+v, plain %+v", rb, ra)
	}
	for _, f := range a {
		for _, p := range f.Puzzles {
			x, err := plain.PuzzleByString(ctx, p.Puzzle)
			if err != nil {
				t.Fatal(err)
			}
			y, err := prep.PuzzleByString(ctx, p.Puzzle)
			if err != nil {
				t.Fatal(err)
			}
			if x != y {
				t.Fatalf("prepared row %+v, plain row %+v", y, x)
			}
		}
	}
}

// TestPrepareStale changes families after Prepare: WriteBatch must store
// what they hold when written, and refuse what is invalid by then.
func TestPrepareStale(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	prepared := func(n int) store.NewFamily {
		f := fam(n, 2, 30, 3)
		if err := store.Prepare(&f); err != nil {
			t.Fatal(err)
		}
		return f
	}

	f := prepared(1)
	old := f.Puzzles[1].Puzzle
	f.Puzzles[1].Puzzle = grid("new", 1)
	f.Puzzles[2].Transform = "changed"
	MustWrite(t, db, []store.NewFamily{f})
	if _, err := db.PuzzleByString(ctx, old); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the puzzle replaced after Prepare was stored (err %v)", err)
	}
	if _, err := db.PuzzleByString(ctx, f.Puzzles[1].Puzzle); err != nil {
		t.Errorf("the puzzle put in after Prepare: %v", err)
	}
	if r, err := db.PuzzleByString(ctx, f.Puzzles[2].Puzzle); err != nil || r.Transform != "changed" {
		t.Errorf("transform changed after Prepare: row %+v, %v", r, err)
	}

	for name, spoil := range map[string]func(*store.NewFamily){
		"short puzzle": func(f *store.NewFamily) { f.Puzzles[0].Puzzle = f.Puzzles[0].Puzzle[:80] },
		"bad solution": func(f *store.NewFamily) { f.Puzzles[2].Solution = "x" + f.Puzzles[2].Solution[1:] },
		"bad path":     func(f *store.NewFamily) { f.Path = "naked-single,hidden-single" },
		"no source":    func(f *store.NewFamily) { f.Source = "" },
		"puzzle gone": func(f *store.NewFamily) {
			f.Puzzles = append(f.Puzzles[:1:1], store.Puzzle{Puzzle: "1", Solution: solution})
		},
		"level too far": func(f *store.NewFamily) { f.Level = 6 },
	} {
		f := prepared(2)
		spoil(&f)
		if _, err := db.WriteBatch(ctx, []store.NewFamily{f}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s after Prepare: WriteBatch error %v, want ErrInvalid", name, err)
		}
	}
}

// TestPrepareInvalid: Prepare refuses what WriteBatch refuses.
func TestPrepareInvalid(t *testing.T) {
	f := fam(1, 2, 30, 2)
	f.Puzzles[1].Solution = f.Puzzles[1].Solution[:40]
	if err := store.Prepare(&f); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Prepare of a short solution: %v, want ErrInvalid", err)
	}
}
