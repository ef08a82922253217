package store_test

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"testing"

	"sudokubank/store"
)

func TestCreatePackWithArrangeOrdersPositions(t *testing.T) {
	ctx := context.Background()
	db := mustLevelsBank(t, 20, 5)

	byRatingDesc := func(rows []store.Row) {
		slices.SortStableFunc(rows, func(a, b store.Row) int { return cmp.Compare(b.ER, a.ER) })
	}
	pack, rows, err := db.CreatePackWith(ctx, store.PackSpec{Name: "p"}, store.Filter{},
		store.QueryOptions{Order: store.OrderRandom, Seed: 9}, 8, store.PackHooks{Arrange: byRatingDesc})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := db.PackRows(ctx, pack.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(stored), 8; got != want {
		t.Fatalf("PackRows has %d rows, want %d", got, want)
	}
	for i := range rows {
		if stored[i].ID != rows[i].ID {
			t.Errorf("position %d: stored puzzle %d, returned %d", i+1, stored[i].ID, rows[i].ID)
		}
		if i > 0 && rows[i].ER > rows[i-1].ER {
			t.Errorf("position %d: ER %d after %d, want falling", i+1, rows[i].ER, rows[i-1].ER)
		}
	}
}

func TestCreatePackWithBeforeCommitErrorRecordsNothing(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 10, 3)

	boom := errors.New("disk full")
	var sawPack store.Pack
	var sawRows int
	_, _, err := db.CreatePackWith(ctx, store.PackSpec{Name: "p", Client: "acme"}, store.Filter{},
		store.QueryOptions{}, 5, store.PackHooks{BeforeCommit: func(ctx context.Context, p store.Pack, rows []store.Row) error {
			sawPack, sawRows = p, len(rows)
			return boom
		}})
	if !errors.Is(err, boom) {
		t.Fatalf("CreatePackWith error = %v, want %v", err, boom)
	}
	if sawPack.ID == 0 || sawPack.Name != "p" || sawRows != 5 {
		t.Errorf("BeforeCommit saw pack %+v with %d rows", sawPack, sawRows)
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Packs != 0 || st.PackItems != 0 || st.Reserved != 0 {
		t.Errorf("after a failed BeforeCommit, Stats = %+v, want no packs, items or reservations", st)
	}
}

func TestDeletePack(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 10, 3)

	first, firstRows, err := db.CreatePack(ctx, store.PackSpec{Name: "a", Client: "acme"}, store.Filter{}, store.QueryOptions{}, 4)
	if err != nil {
		t.Fatal(err)
	}
	// The reprint overlaps the first pack: its reservations stay with
	// the first pack and must survive the reprint's deletion.
	second, _, err := db.CreatePack(ctx, store.PackSpec{Name: "b", Client: "acme"}, store.Filter{}, store.QueryOptions{}, 6)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.DeletePack(ctx, second.ID); err != nil {
		t.Fatal(err)
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := [3]int64{st.Packs, st.PackItems, st.Reserved}, [3]int64{1, 4, 4}; got != want {
		t.Errorf("after DeletePack, packs, items, reserved = %v, want %v", got, want)
	}
	rows, err := db.PackRows(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(firstRows) {
		t.Errorf("first pack has %d rows, want %d", len(rows), len(firstRows))
	}
	if err := db.DeletePack(ctx, second.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second DeletePack error = %v, want ErrNotFound", err)
	}
}

func TestFilterUnreserved(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 10, 3)
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "a", Client: "acme"}, store.Filter{}, store.QueryOptions{}, 4); err != nil {
		t.Fatal(err)
	}
	// A pack without a client reserves nothing.
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "b"}, store.Filter{}, store.QueryOptions{}, 2); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		f    store.Filter
		want int64
	}{
		{"Families", store.Filter{Unreserved: true}, 6},
		{"WithLevel", store.Filter{Unreserved: true, Levels: []int{2}}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := db.CountFamilies(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("CountFamilies(%+v) = %d, want %d", tt.f, got, tt.want)
			}
			puzzles, err := db.Count(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := puzzles, 3*tt.want; got != want {
				t.Errorf("Count(%+v) = %d, want %d", tt.f, got, want)
			}
		})
	}
}

// A pack whose context is cancelled while it is being made is not
// recorded, and the error says it was cancelled.
func TestCreatePackWithCancelled(t *testing.T) {
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 10, 3)
	ctx, cancel := context.WithCancel(context.Background())
	_, _, err := db.CreatePackWith(ctx, store.PackSpec{Name: "p"}, store.Filter{}, store.QueryOptions{}, 5,
		store.PackHooks{BeforeCommit: func(context.Context, store.Pack, []store.Row) error {
			cancel()
			return nil
		}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("CreatePackWith error = %v, want context.Canceled", err)
	}
	st, err := db.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Packs != 0 || st.PackItems != 0 {
		t.Errorf("after a cancelled pack, Stats = %+v, want no packs", st)
	}
}
