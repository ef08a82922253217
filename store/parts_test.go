package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"sudokubank/internal/banktest"
	"sudokubank/store"
)

// TestLevelParts narrows the filter to each level in turn, in the order
// of the counts, and keeps the rest of the filter.
func TestLevelParts(t *testing.T) {
	f := store.Filter{GivensMin: 25, Levels: []int{1, 2, 3}}
	got := store.LevelParts(f, []store.LevelCount{{Level: 5, N: 3}, {Level: 2, N: 7}})
	if len(got) != 2 {
		t.Fatalf("LevelParts = %+v, want 2 parts", got)
	}
	for i, want := range []struct{ level, n int }{{5, 3}, {2, 7}} {
		p := got[i]
		if !slices.Equal(p.Filter.Levels, []int{want.level}) || p.N != want.n || p.Filter.GivensMin != 25 {
			t.Errorf("part %d = %+v, want level %d, %d puzzles, the filter's givens", i, p, want.level, want.n)
		}
	}
	if !slices.Equal(f.Levels, []int{1, 2, 3}) {
		t.Errorf("LevelParts changed the filter's levels to %v", f.Levels)
	}
}

// TestSelectParts selects per level what CreatePackParts would record,
// without recording it, and names the part that falls short.
func TestSelectParts(t *testing.T) {
	ctx := context.Background()
	db := mustLevelsBank(t, 30, 3)
	parts := store.LevelParts(store.Filter{}, []store.LevelCount{{Level: 3, N: 2}, {Level: 1, N: 5}})
	o := store.QueryOptions{Order: store.OrderRandom, Seed: 4}
	got, err := db.SelectParts(ctx, parts, o)
	if err != nil {
		t.Fatal(err)
	}
	if packs, err := db.Packs(ctx); err != nil || len(packs) != 0 {
		t.Errorf("SelectParts recorded %d packs (%v), want none", len(packs), err)
	}
	_, want, err := db.CreatePackParts(ctx, store.PackSpec{Name: "p"}, parts, o, store.PackHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("SelectParts = %v\nCreatePackParts = %v", got, want)
	}
	parts[1].N = 11
	_, err = db.SelectParts(ctx, parts, o)
	var short *store.ShortError
	if !errors.As(err, &short) || !errors.Is(err, store.ErrNotEnough) || *short != (store.ShortError{Part: 1, Found: 10, Want: 11, Matching: 10}) {
		t.Errorf("a part short: %v (%+v), want part 1: 10 of 11", err, short)
	}
}

// TestMixParts shuffles the same way for the same seed, and keeps every
// row.
func TestMixParts(t *testing.T) {
	rows := func() []store.Row {
		var rs []store.Row
		for i := range 20 {
			rs = append(rs, store.Row{ID: int64(i + 1), Level: 1 + i/10})
		}
		return rs
	}
	a, b, c := rows(), rows(), rows()
	store.MixParts(a, 7)
	store.MixParts(b, 7)
	store.MixParts(c, 8)
	if !slices.Equal(a, b) {
		t.Errorf("one seed, two orders:\n%v\n%v", a, b)
	}
	if slices.Equal(a, c) || slices.Equal(a, rows()) {
		t.Errorf("seeds 7 and 8 give %v and %v; want a shuffle each", a, c)
	}
	slices.SortFunc(a, func(x, y store.Row) int { return int(x.ID - y.ID) })
	if !slices.Equal(a, rows()) {
		t.Errorf("MixParts lost or repeated rows: %v", a)
	}
}

// TestFindPack finds a pack by name, else by ID, and says which packs
// share a name.
func TestFindPack(t *testing.T) {
	ctx := context.Background()
	db, path := MustOpenTemp(t)
	var batch []store.NewFamily
	for i := range 9 {
		batch = append(batch, fam(i, 2, 25, 1))
	}
	MustWrite(t, db, batch)
	var ids []int64
	for _, name := range []string{"acme", "7", "globex"} {
		p, _, err := db.CreatePack(ctx, store.PackSpec{Name: name}, store.Filter{}, store.QueryOptions{}, 2)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	for _, tt := range []struct {
		name string
		want int64
	}{{"acme", ids[0]}, {"7", ids[1]}, {"3", ids[2]}} {
		if p, err := db.FindPack(ctx, tt.name); err != nil || p.ID != tt.want {
			t.Errorf("FindPack(%q) = pack %d, %v; want pack %d", tt.name, p.ID, err, tt.want)
		}
	}
	for _, name := range []string{"initech", "99", ""} {
		if p, err := db.FindPack(ctx, name); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FindPack(%q) = pack %d, %v; want ErrNotFound", name, p.ID, err)
		}
	}
	// A bank recorded before names were unique.
	banktest.MustExec(t, path, "UPDATE packs SET name = 'acme' WHERE name = 'globex'")
	if named, err := db.PacksNamed(ctx, "acme"); err != nil || len(named) != 2 {
		t.Errorf("PacksNamed(acme) = %d packs, %v; want 2", len(named), err)
	}
	_, err := db.FindPack(ctx, "acme")
	var shared *store.SharedNameError
	if !errors.As(err, &shared) || !slices.Equal(shared.IDs, []int64{ids[0], ids[2]}) {
		t.Errorf("FindPack(acme) with two packs of that name: %v, want their IDs %v", err, []int64{ids[0], ids[2]})
	}
}
