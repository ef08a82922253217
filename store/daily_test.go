package store_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"sudokubank/store"
)

// A day's pick is the first puzzle the filter selects at or after the
// point in key order, wrapping past the last key, whether the families
// are older than the day (candidates) or all newer (the fallback); a
// filter that selects nothing is ErrNotFound.
func TestDayPickFirstFromPoint(t *testing.T) {
	ctx := context.Background()
	db := mustLevelsBank(t, 120, 3)
	var rows []store.Row
	if err := db.Query(ctx, store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		rows = append(rows, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// first is the brute-force answer: the least key at or after point,
	// else the least key.
	first := func(levels []int, point int64) int64 {
		var best, least *store.Row
		for i := range rows {
			r := &rows[i]
			if len(levels) > 0 && r.Level != levels[0] {
				continue
			}
			if least == nil || r.SortKey < least.SortKey {
				least = r
			}
			if r.SortKey >= point && (best == nil || r.SortKey < best.SortKey) {
				best = r
			}
		}
		if best == nil {
			best = least
		}
		return best.ID
	}
	rng := rand.New(rand.NewPCG(1, 2))
	points := []int64{0, 1<<63 - 1, rows[0].SortKey, rows[0].SortKey + 1}
	for range 20 {
		points = append(points, rng.Int64())
	}
	for _, levels := range [][]int{nil, {2}} {
		for _, point := range points {
			for _, before := range []time.Time{time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)} {
				got, err := db.DayPick(ctx, store.Filter{Levels: levels}, point, before)
				if err != nil {
					t.Fatal(err)
				}
				if want := first(levels, point); got.ID != want {
					t.Errorf("levels %v, point %d, made before %s: puzzle %d, want %d", levels, point, before.Format(time.DateOnly), got.ID, want)
				}
			}
		}
	}
	if _, err := db.DayPick(ctx, store.Filter{Levels: []int{5}}, 0, time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("level 5 of a bank without it: %v, want ErrNotFound", err)
	}
}

// Where few families are older than the day, the pick walks past the
// newer ones to the first old one from the point, however far.
func TestDayPickWalksPastNewer(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	old, day, later := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var batch []store.NewFamily
	for i := range 600 {
		f := fam(i, 1+i%3, 25, 1)
		f.CreatedAt = later
		if i%97 == 0 {
			f.CreatedAt = old
		}
		batch = append(batch, f)
	}
	MustWrite(t, db, batch)
	var rows []store.Row
	created := map[int64]bool{}
	if err := db.Query(ctx, store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		rows = append(rows, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		fam, err := db.Family(ctx, r.FamilyID)
		if err != nil {
			t.Fatal(err)
		}
		created[r.ID] = fam.CreatedAt.Before(day)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		point := rng.Int64()
		var best *store.Row
		pos := func(r *store.Row) uint64 { return uint64(r.SortKey-point) & (1<<63 - 1) }
		for i := range rows {
			if r := &rows[i]; created[r.ID] && (best == nil || pos(r) < pos(best)) {
				best = r
			}
		}
		got, err := db.DayPick(ctx, store.Filter{}, point, day)
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != best.ID {
			t.Errorf("point %d: puzzle %d, want %d, the first old one", point, got.ID, best.ID)
		}
	}
}
