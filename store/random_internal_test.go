package store

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// queryRandom reads slot after slot, and may read every row instead
// once the slots it would still need cost more: either way, and with the
// slots' key ranges cut into statements anywhere, it must give exactly
// the first rows of the random order among all the rows the filter
// selects. That is checked here against the order applied to every
// match, on levels of very different sizes, for small and large limits,
// with and without one puzzle per family.
func TestQueryRandomMatchesOrder(t *testing.T) {
	ctx := context.Background()
	db := levelsBank(t)
	if _, _, err := db.CreatePack(ctx, PackSpec{Name: "a", Client: "acme"}, Filter{Levels: []int{1, 2}}, QueryOptions{Order: OrderRandom, Seed: 1}, 300); err != nil {
		t.Fatal(err)
	}

	// ordered returns every match, in the random order of the seed.
	type key struct {
		f    string
		seed uint64
	}
	orders := map[key][]ranked{}
	ordered := func(f Filter, seed uint64) []ranked {
		k := key{fmt.Sprintf("%+v", f), seed}
		if all, ok := orders[k]; ok {
			return all
		}
		ord, _, err := randomOrderOf(ctx, db.db, f, seed)
		if err != nil {
			t.Fatal(err)
		}
		var all []ranked
		if err := db.Query(ctx, f, QueryOptions{}, func(r Row) error {
			all = append(all, ranked{ord.rank(&r), r})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		sortRanked(all)
		orders[k] = all
		return all
	}
	// canonKeys holds each family's canon_key, its key in a sample of
	// families.
	canonKeys := map[int64]int64{}
	{
		var fams []struct {
			ID  int64 `db:"id"`
			Key int64 `db:"canon_key"`
		}
		if err := db.db.SelectContext(ctx, &fams, "SELECT id, canon_key FROM families"); err != nil {
			t.Fatal(err)
		}
		for _, f := range fams {
			canonKeys[f.ID] = f.Key
		}
	}
	// families returns the first Limit families that match in the
	// families' random order of the seed, and of each the variant whose
	// ID hashes lowest under the order's salt.
	families := func(f Filter, o QueryOptions) []int64 {
		ord, _, err := orderOf(ctx, db.db, f, o.Seed, true)
		if err != nil {
			t.Fatal(err)
		}
		variants := map[int64][]int64{}
		for _, r := range ordered(f, o.Seed) {
			variants[r.row.FamilyID] = append(variants[r.row.FamilyID], r.row.ID)
		}
		fams := slices.Collect(maps.Keys(variants))
		slices.SortFunc(fams, func(a, b int64) int {
			return compareRank(ord.rankOf(canonKeys[a], a), ord.rankOf(canonKeys[b], b))
		})
		var ids []int64
		for _, fam := range fams[:min(len(fams), o.Limit)] {
			ids = append(ids, slices.MinFunc(variants[fam], func(a, b int64) int {
				return cmp.Compare(mix64(ord.salt^variantSalt^uint64(a)), mix64(ord.salt^variantSalt^uint64(b)))
			}))
		}
		return ids
	}
	// reference takes the first Limit of the order, or of the families'
	// order one a family.
	reference := func(f Filter, o QueryOptions) []int64 {
		if o.OnePerFamily {
			return families(f, o)
		}
		seen := map[int64]bool{}
		var ids []int64
		for _, r := range ordered(f, o.Seed) {
			if len(ids) == o.Limit {
				break
			}
			if o.OnePerFamily && seen[r.row.FamilyID] {
				continue
			}
			seen[r.row.FamilyID] = true
			ids = append(ids, r.row.ID)
		}
		return ids
	}
	defer func(b float64, a, n int) { scanBias, scanAfter, rangesPerStatement = b, a, n }(scanBias, scanAfter, rangesPerStatement)
	for _, plan := range []struct {
		name   string
		bias   float64
		after  int
		ranges int
	}{
		{"AsChosen", 1, 0, 4000},
		{"SlotsOnly", 0, 0, 4000},
		{"SlotsInSmallStatements", 0, 0, 50},
		{"ScanAtOnce", 1e30, 0, 4000},
		{"ScanAfterOneBatch", 0, 1, 4000},
	} {
		scanBias, scanAfter, rangesPerStatement = plan.bias, plan.after, plan.ranges
		t.Run(plan.name, func(t *testing.T) {
			for _, f := range []Filter{
				{}, {Levels: []int{1, 5}}, {Levels: []int{4, 5}}, {Levels: []int{3}},
				{Levels: []int{1, 5}, Unreserved: true}, {Fresh: true, RatingMin: 33},
				{Levels: []int{2, 3}, GivensMin: 25, GivensMax: 27, NotForClient: "bob"},
			} {
				for _, limit := range []int{1, 60, 400, 5000} {
					for _, one := range []bool{false, true} {
						for seed := range uint64(2) {
							o := QueryOptions{Order: OrderRandom, Limit: limit, Seed: seed, OnePerFamily: one}
							var got []int64
							if err := db.Query(ctx, f, o, func(r Row) error { got = append(got, r.ID); return nil }); err != nil {
								t.Fatal(err)
							}
							if want := reference(f, o); !slices.Equal(got, want) {
								t.Errorf("%+v, limit %d, one a family %v, seed %d: got %d rows, want %d, or another order",
									f, limit, one, seed, len(got), len(want))
							}
						}
					}
				}
			}
		})
	}
}

// levelsBank returns a bank of 1,500 families whose levels' shares fall
// steeply with the level, each with 1 to 3 variants.
func levelsBank(t *testing.T) *DB {
	t.Helper()
	db := openTempBank(t, Options{})
	var batch []NewFamily
	for i := range 1500 {
		level := 1
		switch {
		case i%40 == 0:
			level = 5
		case i%10 == 0:
			level = 4
		case i%4 == 0:
			level = 3
		case i%2 == 0:
			level = 2
		}
		f := NewFamily{Family: Family{
			Canon: "9" + ninesDigits(i) + strings.Repeat(".", 60), ER: 10*level + i%7, Level: level,
			Givens: 22 + i%10, Hardest: "hidden-single", Symmetry: "none", Source: "gen",
		}}
		for v := range 1 + i%3 {
			f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: string(rune('1'+v)) + ninesDigits(i) + strings.Repeat(".", 60), Solution: strings.Repeat("123456789", 9)})
		}
		batch = append(batch, f)
	}
	if _, err := db.WriteBatch(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	return db
}

// A small sample reads the slots it needs, one statement of them, and
// the rows it keeps by ID, not every row; a sample of more than there are reads every row.
func TestQueryRandomReadsSlots(t *testing.T) {
	ctx := context.Background()
	db := levelsBank(t)
	for _, tt := range []struct {
		f     Filter
		limit int
		slots bool
	}{
		{Filter{Levels: []int{1}}, 10, true},
		{Filter{}, 50, true},
		{Filter{Levels: []int{2, 5}, Fresh: true}, 20, true},
		{Filter{Levels: []int{1}}, 100_000, false},
	} {
		q := &statements{QueryerContext: db.db}
		n := 0
		if err := query(ctx, q, tt.f, QueryOptions{Order: OrderRandom, Limit: tt.limit, Seed: 3}, func(Row) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		// A read by slots is one statement of key ranges (VALUES), then
		// one that reads the rows it keeps by ID; anything else that
		// reads puzzles reads them all.
		var slotReads, fetches, scans int
		for _, s := range q.ran {
			switch {
			case strings.Contains(s, "VALUES"):
				slotReads++
			case strings.Contains(s, "WHERE p.id IN ("):
				fetches++
			case strings.Contains(s, "FROM puzzles p"):
				scans++
			}
		}
		slots := slotReads == 1 && fetches == 1 && scans == 0
		if slots != tt.slots || !tt.slots && (slotReads > 0 || scans == 0) {
			t.Errorf("%+v, limit %d (%d rows): %d statements read slots, %d rows by ID, %d read every row; want by slots %v",
				tt.f, tt.limit, n, slotReads, fetches, scans, tt.slots)
		}
	}
}

// The slots cut the keys into ranges that cover each key once, and the
// permutation of the slots is one: a key is in the ranges of its slot,
// which come to 2^shift keys, and the slot at a slot's place is that
// slot.
func TestRandomOrderSlots(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.Int64Range(0, 1<<40).Draw(t, "n")
		ord := newRandomOrder(rapid.Uint64().Draw(t, "seed"), n)
		if ord.slots() < uint64(n) {
			t.Fatalf("%d slots for %d puzzles", ord.slots(), n)
		}
		key := rapid.Int64Range(0, keyMask).Draw(t, "key")
		slot := ord.slotOf(key)
		if slot >= ord.slots() {
			t.Fatalf("key %d: slot %d of %d", key, slot, ord.slots())
		}
		var size uint64
		in := false
		for _, r := range ord.keys(slot) {
			size += uint64(r[1]-r[0]) + 1
			in = in || r[0] <= key && key <= r[1]
		}
		if !in || size != 1<<ord.shift {
			t.Fatalf("key %d, slot %d: ranges %v (%d keys) miss it or are not %d keys", key, slot, ord.keys(slot), size, uint64(1)<<ord.shift)
		}
		place := ord.place(slot)
		if place >= ord.slots() || ord.slotAt(place) != slot {
			t.Fatalf("slot %d: place %d, whose slot is %d", slot, place, ord.slotAt(place))
		}
	})
}

// ninesDigits writes i as 20 digits 1-9 (base 9, each digit plus one), so
// that distinct numbers give distinct valid grid prefixes.
func ninesDigits(i int) string {
	b := []byte(fmt.Sprintf("%020s", strconv.FormatUint(uint64(i), 9)))
	for k := range b {
		b[k] = max(b[k], '0') + 1
	}
	return string(b)
}

// While a bulk writer has deferred families_sample and puzzles_family, a
// sample of families reads the families table and finds the variants by
// reading the puzzles: the same rows in the same order as with them.
func TestFamilySampleWithoutIndexes(t *testing.T) {
	ctx := context.Background()
	db := levelsBank(t)
	pick := func() []int64 {
		var ids []int64
		for _, f := range []Filter{{}, {Levels: []int{2, 3}, GivensMin: 25}} {
			for seed := range uint64(3) {
				o := QueryOptions{Order: OrderRandom, Limit: 70, Seed: seed, OnePerFamily: true}
				if err := query(ctx, db.db, f, o, func(r Row) error { ids = append(ids, r.ID); return nil }); err != nil {
					t.Fatal(err)
				}
			}
		}
		return ids
	}
	want := pick()
	for _, s := range []string{"DROP INDEX families_sample", "DROP INDEX puzzles_family"} {
		if _, err := db.db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if got := pick(); !slices.Equal(got, want) {
		t.Errorf("without the indexes: %d rows, want the %d picked with them, in order", len(got), len(want))
	}
}
