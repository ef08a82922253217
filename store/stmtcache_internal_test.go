package store

import (
	"context"
	"strings"
	"testing"
)

// A reader keeps the bucket counts of a random pick between queries,
// and sees every commit of a writer at its next query: the counts it
// uses are the bank's, however little time passed.
func TestReaderCountsFollowCommits(t *testing.T) {
	ctx := context.Background()
	w := openTempBank(t, Options{})
	write := func(from, to int) {
		t.Helper()
		var batch []NewFamily
		for i := from; i < to; i++ {
			batch = append(batch, NewFamily{
				Family: Family{Canon: "9" + ninesDigits(i) + strings.Repeat(".", 60), ER: 20, Level: 2,
					Givens: 22, Hardest: "hidden-single", Symmetry: "none", Source: "gen"},
				Puzzles: []Puzzle{{Puzzle: "1" + ninesDigits(i) + strings.Repeat(".", 60), Solution: strings.Repeat("123456789", 9)}},
			})
		}
		if _, err := w.WriteBatch(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	write(0, 10)
	r, err := OpenReadOnly(ctx, w.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f := Filter{Levels: []int{2}}
	for round := range 4 {
		for range 2 { // the second from the kept answer
			_, n, err := randomOrderOf(ctx, r.reader(), f, 1)
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(10 + 3*round); n != want {
				t.Fatalf("round %d: the reader counts %d puzzles, want %d", round, n, want)
			}
		}
		write(10+3*round, 13+3*round)
	}
}

// A reader's random picks of any size run from a few statement texts,
// which it keeps prepared: the lists of slots and IDs come in powers of
// two.
func TestReaderKeepsFewStatements(t *testing.T) {
	ctx := context.Background()
	w := levelsBank(t)
	r, err := OpenReadOnly(ctx, w.path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for limit := 1; limit <= 100; limit++ {
		for _, f := range []Filter{{Levels: []int{1}}, {Levels: []int{4, 5}}} {
			o := QueryOptions{Order: OrderRandom, Limit: limit, Seed: uint64(limit)}
			if err := r.Query(ctx, f, o, func(Row) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Per filter: the counts, and a few sizes each of slots and of IDs.
	if n := len(r.stmts.stmts); n > 30 {
		t.Errorf("%d statements kept for random picks of 1 to 100 puzzles, want 30 at most", n)
	}
}
