package store_test

import (
	"context"
	"testing"

	"sudokubank/store"
)

// CountUpToAtMost is the number of matches up to an ID, as a query up to
// that ID reads them, up to most, and most+1 past it.
func TestCountUpToAtMost(t *testing.T) {
	ctx := context.Background()
	db := mustLevelsBank(t, 40, 4) // 80 puzzles, 20 of each level
	minimal := store.Filter{Levels: []int{2}, Minimal: true}
	for _, f := range []store.Filter{{}, {Levels: []int{2}}, {Levels: []int{2}, GivensMin: 25, GivensMax: 25}, {Minimal: true}, minimal} {
		for _, id := range []int64{1, 7, 40, 80, 1000} {
			var all int64
			if err := db.Query(ctx, f, store.QueryOptions{UpToID: id}, func(store.Row) error { all++; return nil }); err != nil {
				t.Fatal(err)
			}
			for _, most := range []int64{0, 1, 5, all - 1, all, all + 3} {
				if most < 0 {
					continue
				}
				got, err := db.CountUpToAtMost(ctx, f, id, most)
				if err != nil {
					t.Fatal(err)
				}
				if want := min(all, most+1); got != want {
					t.Errorf("%+v up to ID %d, at most %d: %d, want %d (of %d)", f, id, most, got, want, all)
				}
			}
		}
	}
}
