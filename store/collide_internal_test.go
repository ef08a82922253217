package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeyCollisions makes every string hash to one sort key: strings
// must still be told apart by their text, duplicates found wherever they
// were stored, and a batch that finds no free key must write nothing;
// with the key index live, and in bulk mode, where the writer keeps the
// keys in memory.
func TestKeyCollisions(t *testing.T) {
	keyOf = func(string) int64 { return 42 }
	defer func() { keyOf = SortKeyOf }()
	for _, tt := range []struct {
		name string
		opt  Options
	}{
		{"Live", Options{}},
		{"Bulk", Options{DeferIndexes: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, err := Open(context.Background(), filepath.Join(t.TempDir(), "bank.db"), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if got, want := db.bulk != nil, tt.opt.DeferIndexes; got != want {
				t.Fatalf("bulk mode = %v, want %v", got, want)
			}
			testKeyCollisions(t, db)
			if got, want := db.bulk != nil, tt.opt.DeferIndexes; got != want {
				t.Errorf("bulk mode after the batches = %v, want %v", got, want)
			}
			// The key index builds over what the batches stored: no two
			// rows share a key.
			if err := db.BuildIndexes(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := db.IntegrityCheck(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
}

func testKeyCollisions(t *testing.T, db *DB) {
	ctx := context.Background()
	g := func(n int) string { return strings.ReplaceAll(fmt.Sprintf("%081d", n), "0", ".") }
	family := func(canon int, puzzles ...int) NewFamily {
		f := NewFamily{Family: Family{Canon: g(canon), ER: 30, Level: 2, Givens: 25, Source: "gen"}}
		for _, p := range puzzles {
			f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: g(p), Solution: g(999)})
		}
		return f
	}
	for _, tt := range []struct {
		name  string
		batch []NewFamily
		want  WriteResult
	}{
		{"New", []NewFamily{family(1, 11, 12, 13, 12)}, WriteResult{Families: 1, Puzzles: 3, DupPuzzles: 1}},
		{"OldAndNew", []NewFamily{family(1, 12, 14), family(2, 13)}, WriteResult{Families: 1, Puzzles: 1, DupFamilies: 1, DupPuzzles: 2}},
		{"AllOld", []NewFamily{family(1, 14, 11)}, WriteResult{DupFamilies: 1, DupPuzzles: 2}},
	} {
		got, err := db.WriteBatch(ctx, tt.batch)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got.Levels = [6]int{} // TestWriteBatchCapped tests them
		if got != tt.want {
			t.Errorf("%s: WriteBatch = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	keys := map[int64]bool{}
	for _, p := range []int{11, 12, 13, 14} {
		r, err := db.PuzzleByString(ctx, g(p))
		if err != nil {
			t.Fatalf("PuzzleByString(%d): %v", p, err)
		}
		if r.Puzzle != g(p) || r.SortKey < 42 || r.SortKey >= 42+probeWindow || keys[r.SortKey] {
			t.Errorf("PuzzleByString(%d) = %s with key %d", p, r.Puzzle, r.SortKey)
		}
		keys[r.SortKey] = true
	}
	if _, err := db.PuzzleByString(ctx, g(15)); !errors.Is(err, ErrNotFound) {
		t.Errorf("PuzzleByString(15) error = %v, want ErrNotFound", err)
	}

	// Four keys of the window are taken; thirteen more strings cannot all
	// find one.
	var many []int
	for p := 100; p < 113; p++ {
		many = append(many, p)
	}
	if _, err := db.WriteBatch(ctx, []NewFamily{family(3, many...)}); err == nil {
		t.Fatal("WriteBatch with a full key window succeeded")
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Families != 2 || st.Puzzles != 4 {
		t.Errorf("after the failed batch: %d families, %d puzzles, want 2, 4", st.Families, st.Puzzles)
	}
	// The failed batch left no trace in the writer either: its strings
	// are new, the stored ones still duplicates.
	got, err := db.WriteBatch(ctx, []NewFamily{family(1, 11, 100, 101)})
	if err != nil {
		t.Fatal(err)
	}
	if want := (WriteResult{Puzzles: 2, DupFamilies: 1, DupPuzzles: 1}); got != want {
		t.Errorf("after the failed batch: WriteBatch = %+v, want %+v", got, want)
	}
}
