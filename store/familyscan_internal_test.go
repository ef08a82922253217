package store

import (
	"context"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// familiesBank returns a bank of 600 families of every level, with 1 to
// 4 variants each, whose symmetry, minimality, source, hardest step,
// techniques and score vary, so that each filter on the families' own
// columns passes some of them and not others; a few rot90 families are
// rare, as in a bank of rot180 puzzles, and one family has a source of
// its own.
func familiesBank(t *testing.T) *DB {
	t.Helper()
	db := openTempBank(t, Options{})
	var batch []NewFamily
	for i := range 600 {
		sym := []string{"none", "mirror", "rot180"}[i%3]
		if i%50 == 7 {
			sym = "rot90"
		}
		hardest := []string{"hidden-single", "naked-pair", "x-wing"}[i%5%3]
		path, err := EncodePath([]string{"hidden-single", hardest, "hidden-single"})
		if err != nil {
			t.Fatal(err)
		}
		source := "gen"
		switch {
		case i == 123:
			source = "lone"
		case i%7 == 0:
			source = "imp"
		}
		level := 1 + i%5
		f := NewFamily{Family: Family{
			Canon: "9" + ninesDigits(i) + strings.Repeat(".", 60), ER: 10*level + i%7, Level: level,
			Givens: 22 + i%6, Hardest: hardest, Path: path, Symmetry: sym, Minimal: i%4 == 1,
			Source: source, Score: float64(i % 11),
		}}
		for v := range 1 + i%4 {
			f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: string(rune('1'+v)) + ninesDigits(i) + strings.Repeat(".", 60), Solution: strings.Repeat("123456789", 9)})
		}
		batch = append(batch, f)
	}
	if _, err := db.WriteBatch(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	return db
}

// familyFilters are filters on the families' own columns, alone and with
// the puzzles' levels, givens and ratings, and with reservations.
func familyFilters() []Filter {
	three, seven := 3.0, 7.0
	return []Filter{
		{Symmetry: "rot90"}, {Symmetry: "mirror"}, {Symmetry: "rot90", Levels: []int{3}},
		{Minimal: true}, {Minimal: true, Levels: []int{1, 4}, GivensMin: 23, GivensMax: 25},
		{Source: "imp"}, {Source: "imp", RatingMin: 22, RatingMax: 44}, {Source: "lone"},
		{Hardest: "x-wing"}, {Hardest: "naked-pair", Levels: []int{2, 5}, GivensMin: 24, GivensMax: 24},
		{ScoreMin: &three, ScoreMax: &seven}, {ScoreMin: &seven, Minimal: true, Fresh: true},
		{Technique: "x-wing"}, {Technique: "naked-pair", Symmetry: "none"},
		{Symmetry: "rot180", NotForClient: "bob"}, {Symmetry: "nothing-has-it"},
		{Symmetry: "mirror", Size: 9},
	}
}

// A random pick with a filter on the families' own columns reads the
// families that pass and then their puzzles, where puzzles_family is
// there, or every puzzle without it: either way, and whatever plan the
// pick starts with, it gives the first rows of the random order among
// every puzzle that matches, for any seed and limit: the rows it gave
// when it read every puzzle whole.
func TestFamiliesFirstMatchesOrder(t *testing.T) {
	ctx := context.Background()
	db := familiesBank(t)
	if _, _, err := db.CreatePack(ctx, PackSpec{Name: "a", Client: "acme"}, Filter{Levels: []int{1, 2}}, QueryOptions{Order: OrderRandom, Seed: 1}, 100); err != nil {
		t.Fatal(err)
	}
	filters := familyFilters()
	// all holds every match of each filter in ID order, as the plain
	// query reads them, which the orders rank.
	all := make([][]Row, len(filters))
	for i, f := range filters {
		if err := db.Query(ctx, f, QueryOptions{}, func(r Row) error { all[i] = append(all[i], r); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	// reference is the first limit matches by rank.
	reference := func(i int, seed uint64, limit int) []int64 {
		ord, _, err := randomOrderOf(ctx, db.db, filters[i], seed)
		if err != nil {
			t.Fatal(err)
		}
		rows := slices.Clone(all[i])
		slices.SortFunc(rows, func(a, b Row) int { return compareRank(ord.rank(&a), ord.rank(&b)) })
		var ids []int64
		for _, r := range rows[:min(len(rows), limit)] {
			ids = append(ids, r.ID)
		}
		return ids
	}
	defer func(b float64, a int) { scanBias, scanAfter = b, a }(scanBias, scanAfter)
	check := func(t *rapid.T, indexed bool) {
		i := rapid.IntRange(0, len(filters)-1).Draw(t, "filter")
		seed := rapid.Uint64().Draw(t, "seed")
		limit := rapid.SampledFrom([]int{1, 2, 5, 10, 40, 300, 5000}).Draw(t, "limit")
		plan := rapid.IntRange(0, 2).Draw(t, "plan")
		scanBias, scanAfter = []float64{1, 1e30, 1}[plan], []int{0, 0, 1}[plan]
		rec := &statements{QueryerContext: db.db}
		var got []int64
		if err := query(ctx, rec, filters[i], QueryOptions{Order: OrderRandom, Limit: limit, Seed: seed}, func(r Row) error {
			got = append(got, r.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if want := reference(i, seed, limit); !slices.Equal(got, want) {
			t.Fatalf("%+v, seed %d, limit %d, plan %d, puzzles_family %v: got %v, want %v", filters[i], seed, limit, plan, indexed, got, want)
		}
		// The families come first only where the index finds their
		// puzzles.
		for _, s := range rec.ran {
			if strings.Contains(s, "p.family_id FROM families f CROSS JOIN puzzles p") && !indexed {
				t.Fatalf("%+v without puzzles_family: ran %s", filters[i], s)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) { check(t, true) })
	if _, err := db.db.ExecContext(ctx, "DROP INDEX puzzles_family"); err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(t *rapid.T) { check(t, false) })
}

// A pick that reads every match reads the families that pass first
// where the filter is on their columns and puzzles_family is there;
// without the index, or for a filter on the puzzles' columns alone, it
// reads the puzzles; the rows are the same.
func TestFamiliesFirstChosen(t *testing.T) {
	ctx := context.Background()
	db := familiesBank(t)
	defer func(b float64) { scanBias = b }(scanBias)
	scanBias = 1e30
	run := func(f Filter) (ids []int64, families, puzzles int) {
		rec := &statements{QueryerContext: db.db}
		if err := query(ctx, rec, f, QueryOptions{Order: OrderRandom, Limit: 7, Seed: 5}, func(r Row) error {
			ids = append(ids, r.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, s := range rec.ran {
			switch {
			case strings.Contains(s, "p.sort_key, p.family_id FROM families f CROSS JOIN puzzles p"):
				families++
			case strings.Contains(s, "p.sort_key, p.family_id FROM puzzles p"):
				puzzles++
			}
		}
		return ids, families, puzzles
	}
	for _, tt := range []struct {
		f        Filter
		families bool
	}{
		{Filter{Symmetry: "rot90"}, true},
		{Filter{Minimal: true, Levels: []int{2}}, true},
		{Filter{Levels: []int{2}}, false},
		{Filter{Fresh: true}, false},
	} {
		ids, fams, puzzles := run(tt.f)
		if tt.families && (fams != 1 || puzzles != 0) || !tt.families && (fams != 0 || puzzles != 1) {
			t.Errorf("%+v: %d reads of the families first, %d of the puzzles; want families first %v", tt.f, fams, puzzles, tt.families)
		}
		if len(ids) == 0 {
			t.Errorf("%+v: no rows", tt.f)
		}
	}
	want, _, _ := run(Filter{Symmetry: "rot90"})
	if _, err := db.db.ExecContext(ctx, "DROP INDEX puzzles_family"); err != nil {
		t.Fatal(err)
	}
	got, fams, puzzles := run(Filter{Symmetry: "rot90"})
	if fams != 0 || puzzles != 1 || !slices.Equal(got, want) {
		t.Errorf("without puzzles_family: %d reads of the families first, %d of the puzzles, rows %v; want 0, 1, %v", fams, puzzles, got, want)
	}
}

// A pick with a filter few families pass reads them first at once, not
// slot after slot until the slots give too few; one most families pass
// reads the few slots it needs. The number of matches that decides it
// is counted from puzzles_family, and not past where the slots win.
func TestFamiliesFirstDecides(t *testing.T) {
	ctx := context.Background()
	db := familiesBank(t)
	for _, tt := range []struct {
		f           Filter
		limit, rows int
		families    bool
	}{
		{Filter{Source: "lone"}, 1, 1, true},
		{Filter{Source: "lone", Levels: []int{4}}, 9, 4, true},
		{Filter{Symmetry: "rot90"}, 10, 10, true},
		{Filter{Symmetry: "none"}, 1, 1, false},
		{Filter{Minimal: true}, 5, 5, false},
	} {
		rec := &statements{QueryerContext: db.db}
		n := 0
		if err := query(ctx, rec, tt.f, QueryOptions{Order: OrderRandom, Limit: tt.limit, Seed: 9}, func(Row) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		var slots, families int
		for _, s := range rec.ran {
			switch {
			case strings.Contains(s, "VALUES"):
				slots++
			case strings.Contains(s, "p.sort_key, p.family_id FROM families f CROSS JOIN puzzles p"):
				families++
			}
		}
		if n != tt.rows || tt.families && (slots != 0 || families != 1) || !tt.families && (slots == 0 || families != 0) {
			t.Errorf("%+v, limit %d: %d rows, %d reads of slots, %d of the families first; want families first %v", tt.f, tt.limit, n, slots, families, tt.families)
		}
	}
}

// The families first search puzzles_family for each family that passes,
// never scan the puzzles or sort; with levels they search families_sample
// by size and level instead of reading every family.
func TestFamiliesFirstPlan(t *testing.T) {
	db := openTempBank(t, Options{})
	for _, tt := range []struct {
		f    Filter
		want string
	}{
		{Filter{Symmetry: "rot90", sizes: []int{9}}, "SEARCH p USING INDEX puzzles_family (family_id=?)"},
		{Filter{Minimal: true, Source: "gen", GivensMin: 22, sizes: []int{9, 16}}, "SEARCH p USING INDEX puzzles_family (family_id=?)"},
		{Filter{Symmetry: "rot90", Levels: []int{3}, sizes: []int{9}}, "SEARCH f USING INDEX families_sample (size=? AND level=?)"},
		{Filter{Hardest: "x-wing", Levels: []int{4, 5}, RatingMin: 30, sizes: []int{9}}, "SEARCH f USING INDEX families_sample (size=? AND level=?)"},
	} {
		s, args, err := scanSQL(tt.f, true)
		if err != nil {
			t.Fatal(err)
		}
		checkPlan(t, db, tt.want, "SCAN p", s, args...)
		checkPlan(t, db, "puzzles_family", "TEMP B-TREE", s, args...)
	}
	// The count of matches reads no puzzle, only the index's entries.
	checkPlan(t, db, "SEARCH p USING COVERING INDEX puzzles_family (family_id=?)", "SCAN p",
		"SELECT count(*) FROM (SELECT 1 FROM families f CROSS JOIN puzzles p WHERE p.family_id = f.id AND f.symmetry = ? LIMIT ?)", "rot90", 10)
}
