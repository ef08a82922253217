package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"sudokubank/store"
)

// A released pack keeps its record and items but gives its families
// back: another client, a -fresh selection and the same client may pick
// them again, and the bank's counters still agree with its rows.
func TestReleasePack(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 6, 2)
	o := store.QueryOptions{Order: store.OrderRandom, Seed: 1}

	acme, _, err := db.CreatePack(ctx, store.PackSpec{Name: "acme-1", Client: "acme"}, store.Filter{}, o, 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []store.Filter{{NotForClient: "globex"}, {NotForClient: "acme"}, {Fresh: true}} {
		if n := mustCount(t, db, f); n != 0 {
			t.Fatalf("%+v matches %d puzzles while acme holds every family, want 0", f, n)
		}
	}
	if n, err := db.PackReservations(ctx, acme.ID); err != nil || n != 6 {
		t.Fatalf("PackReservations = %d, %v; want 6", n, err)
	}

	p, freed, err := db.ReleasePack(ctx, acme.ID)
	if err != nil {
		t.Fatal(err)
	}
	if freed != 6 || !p.Released() {
		t.Errorf("ReleasePack freed %d families, released %v; want 6, true", freed, p.Released())
	}
	for _, f := range []store.Filter{{NotForClient: "globex"}, {NotForClient: "acme"}, {Fresh: true}, {Unreserved: true}} {
		if n := mustCount(t, db, f); n != 12 {
			t.Errorf("%+v matches %d puzzles after the release, want all 12", f, n)
		}
	}
	packs, err := db.Packs(ctx)
	if err != nil || len(packs) != 1 || !packs[0].Released() || packs[0].ReleasedAt != p.ReleasedAt {
		t.Fatalf("Packs = %+v, %v; want the pack, released", packs, err)
	}
	if rows, err := db.PackRows(ctx, acme.ID); err != nil || len(rows) != 6 {
		t.Errorf("PackRows of the released pack: %d rows, %v; want its 6", len(rows), err)
	}
	if _, _, err := db.ReleasePack(ctx, acme.ID); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("a second release: %v, want ErrInvalid", err)
	}
	if _, _, err := db.ReleasePack(ctx, 99); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("release of no pack: %v, want ErrNotFound", err)
	}

	// Another client takes the families; the counts stay right, and
	// deleting the released pack changes no count.
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "globex-1", Client: "globex"}, store.Filter{NotForClient: "globex"}, o, 6); err != nil {
		t.Fatalf("a pack for another client after the release: %v", err)
	}
	mustCheck(t, db)
	if err := db.DeletePack(ctx, acme.ID); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, db)
}

// A family the client holds from two packs stays reserved to them when
// the first is released.
func TestReleasePackKeepsOtherPacks(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	manyVariants(t, db, 4, 1)
	o := store.QueryOptions{Order: store.OrderID}
	first, _, err := db.CreatePack(ctx, store.PackSpec{Name: "a", Client: "acme"}, store.Filter{}, o, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "b", Client: "acme"}, store.Filter{}, o, 2); err != nil {
		t.Fatal(err)
	}
	_, freed, err := db.ReleasePack(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if freed != 2 {
		t.Errorf("freed %d families, want the 2 no other pack of acme holds", freed)
	}
	if n := mustCount(t, db, store.Filter{NotForClient: "globex"}); n != 2 {
		t.Errorf("globex may take %d puzzles, want 2", n)
	}
	mustCheck(t, db)
}

// CreatePackParts fills each part from its own filter, and a part that
// falls short names itself.
func TestCreatePackParts(t *testing.T) {
	ctx := context.Background()
	db := mustLevelsBank(t, 30, 3)
	parts := []store.PackPart{{Filter: store.Filter{Levels: []int{3}}, N: 2}, {Filter: store.Filter{Levels: []int{1}}, N: 5}}
	_, rows, err := db.CreatePackParts(ctx, store.PackSpec{Name: "p"}, parts, store.QueryOptions{Order: store.OrderRandom, Seed: 4}, store.PackHooks{})
	if err != nil {
		t.Fatal(err)
	}
	var levels []int
	for _, r := range rows {
		levels = append(levels, r.Level)
	}
	if want := []int{3, 3, 1, 1, 1, 1, 1}; !slices.Equal(levels, want) {
		t.Errorf("levels %v, want %v", levels, want)
	}
	parts[1].N = 11
	_, _, err = db.CreatePackParts(ctx, store.PackSpec{Name: "q"}, parts, store.QueryOptions{Order: store.OrderRandom, Seed: 4}, store.PackHooks{})
	var short *store.ShortError
	if !errors.As(err, &short) || !errors.Is(err, store.ErrNotEnough) || *short != (store.ShortError{Part: 1, Found: 10, Want: 11, Matching: 10}) {
		t.Errorf("a part short: %v (%+v), want part 1: 10 of 11", err, short)
	}
}

func mustCount(tb testing.TB, db *store.DB, f store.Filter) int64 {
	tb.Helper()
	n, err := db.Count(context.Background(), f)
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

func mustCheck(tb testing.TB, db *store.DB) {
	tb.Helper()
	r, err := db.Check(context.Background(), true)
	if err != nil {
		tb.Fatal(err)
	}
	if !r.OK() {
		tb.Errorf("check: %v", r.Problems)
	}
}
