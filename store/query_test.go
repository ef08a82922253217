package store_test

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sudokubank/store"
)

// filterBank writes n random families (seeded) with 0..3 variants each
// and returns them, so tests can compute what a filter should select.
func filterBank(t *testing.T, n int) (*store.DB, []store.NewFamily) {
	t.Helper()
	db, _ := MustOpenTemp(t)
	rng := rand.New(rand.NewPCG(1, 2))
	syms := []string{"none", "rot180", "mirror"}
	techs := []string{"naked-single", "x-wing", "swordfish"}
	var fams []store.NewFamily
	for i := range n {
		f := fam(i, 1+rng.IntN(5), 20+rng.IntN(10), rng.IntN(4))
		f.ER = 10 + rng.IntN(80)
		f.Score = float64(rng.IntN(1000)) / 10
		if i%50 == 0 {
			f.Score = 0 // a real bound at zero
		}
		f.Symmetry = syms[rng.IntN(len(syms))]
		f.Minimal = rng.IntN(2) == 0
		f.Hardest = techs[rng.IntN(len(techs))]
		f.Techniques = map[string]int{f.Hardest: 1 + rng.IntN(3)}
		if rng.IntN(2) == 0 {
			f.Techniques["naked-single"] = 10
		}
		if rng.IntN(4) == 0 {
			f.Source = "import:ksudoku"
		}
		fams = append(fams, f)
	}
	// Every other family is written as bankgen writes them now, its counts
	// in a runs path; the others as banks written before hold them, in
	// family_techniques: a bank that was topped up holds both.
	written := slices.Clone(fams)
	for i := range written {
		if i%2 == 1 {
			continue
		}
		var steps []string
		for _, slug := range slices.Sorted(maps.Keys(written[i].Techniques)) {
			for range written[i].Techniques[slug] {
				steps = append(steps, slug)
			}
		}
		path, err := store.EncodePath(steps)
		if err != nil {
			t.Fatal(err)
		}
		written[i].Techniques, written[i].Path = nil, path
	}
	for i := 0; i < len(written); i += 50 {
		MustWrite(t, db, written[i:min(i+50, len(written))])
	}
	return db, fams
}

func ptr(x float64) *float64 { return &x }

func TestFilters(t *testing.T) {
	ctx := context.Background()
	db, fams := filterBank(t, 300)
	tests := []struct {
		name   string
		filter store.Filter
		keep   func(f store.Family) bool
	}{
		{"All", store.Filter{}, func(store.Family) bool { return true }},
		{"Levels", store.Filter{Levels: []int{2, 4}}, func(f store.Family) bool { return f.Level == 2 || f.Level == 4 }},
		{"RatingRange", store.Filter{RatingMin: 30, RatingMax: 55}, func(f store.Family) bool { return f.ER >= 30 && f.ER <= 55 }},
		{"RatingMinOnly", store.Filter{RatingMin: 70}, func(f store.Family) bool { return f.ER >= 70 }},
		{"GivensRange", store.Filter{GivensMin: 22, GivensMax: 24}, func(f store.Family) bool { return f.Givens >= 22 && f.Givens <= 24 }},
		{"LevelAndGivens", store.Filter{Levels: []int{3}, GivensMin: 25, GivensMax: 25}, func(f store.Family) bool { return f.Level == 3 && f.Givens == 25 }},
		{"ScoreRange", store.Filter{ScoreMin: ptr(10), ScoreMax: ptr(50.5)}, func(f store.Family) bool { return f.Score >= 10 && f.Score <= 50.5 }},
		{"ScoreMaxZero", store.Filter{ScoreMax: ptr(0)}, func(f store.Family) bool { return f.Score <= 0 }},
		{"Technique", store.Filter{Technique: "x-wing"}, func(f store.Family) bool { return f.Techniques["x-wing"] > 0 }},
		// No family uses it; TestTechniqueFilterIsWhole has slugs that
		// are parts of others.
		{"TechniqueUnused", store.Filter{Technique: "single"}, func(f store.Family) bool { return false }},
		{"Hardest", store.Filter{Hardest: "swordfish"}, func(f store.Family) bool { return f.Hardest == "swordfish" }},
		{"Symmetry", store.Filter{Symmetry: "rot180"}, func(f store.Family) bool { return f.Symmetry == "rot180" }},
		{"Minimal", store.Filter{Minimal: true}, func(f store.Family) bool { return f.Minimal }},
		{"Source", store.Filter{Source: "import:ksudoku"}, func(f store.Family) bool { return f.Source == "import:ksudoku" }},
		{"Combined", store.Filter{Levels: []int{1, 2, 3}, Minimal: true, Technique: "naked-single", GivensMax: 26},
			func(f store.Family) bool {
				return f.Level <= 3 && f.Minimal && f.Techniques["naked-single"] > 0 && f.Givens <= 26
			}},
		{"QuoteInValue", store.Filter{Source: "x' OR 1=1 --"}, func(store.Family) bool { return false }},
		// A rating bound that every family meets keeps Count off the
		// buckets table: it reads the puzzles through puzzles_bucket, by
		// numbers of level * 100 + givens, which must stay within each
		// level's band whatever the bounds on givens.
		{"BucketRating", store.Filter{Levels: []int{3}, GivensMin: 25, GivensMax: 25, RatingMin: 1}, func(f store.Family) bool { return f.Level == 3 && f.Givens == 25 }},
		{"BucketsOfLevels", store.Filter{Levels: []int{2, 3}, GivensMin: 24, GivensMax: 24, RatingMin: 1}, func(f store.Family) bool {
			return (f.Level == 2 || f.Level == 3) && f.Givens == 24
		}},
		{"GivensRangeOfLevels", store.Filter{Levels: []int{5, 1, 3, 3}, GivensMin: 22, GivensMax: 26, RatingMin: 1}, func(f store.Family) bool {
			return f.Level%2 == 1 && f.Givens >= 22 && f.Givens <= 26
		}},
		{"GivensMinOfLevel", store.Filter{Levels: []int{4}, GivensMin: 27, RatingMin: 1}, func(f store.Family) bool { return f.Level == 4 && f.Givens >= 27 }},
		{"GivensMaxOfLevels", store.Filter{Levels: []int{2, 4}, GivensMax: 23, RatingMin: 1}, func(f store.Family) bool {
			return (f.Level == 2 || f.Level == 4) && f.Givens <= 23
		}},
		{"GivensMaxPastBand", store.Filter{Levels: []int{2}, GivensMin: 21, GivensMax: 150, RatingMin: 1}, func(f store.Family) bool { return f.Level == 2 && f.Givens >= 21 }},
		{"GivensMinPastBand", store.Filter{Levels: []int{2}, GivensMin: 120, RatingMin: 1}, func(store.Family) bool { return false }},
		{"GivensPastBand", store.Filter{Levels: []int{2}, GivensMin: 120, GivensMax: 120, RatingMin: 1}, func(store.Family) bool { return false }},
		{"GivensBelowBand", store.Filter{Levels: []int{3}, GivensMax: -1, RatingMin: 1}, func(store.Family) bool { return false }},
		// The bank holds 9x9 grids.
		{"Size9", store.Filter{Size: 9, Levels: []int{2}}, func(f store.Family) bool { return f.Level == 2 }},
		{"Size16", store.Filter{Size: 16}, func(store.Family) bool { return false }},
		{"Size4Technique", store.Filter{Size: 4, Levels: []int{2}, Technique: "x-wing"}, func(store.Family) bool { return false }},
	}
	// Filters that select nothing on purpose.
	none := []string{"QuoteInValue", "TechniqueUnused", "GivensMinPastBand", "GivensPastBand", "GivensBelowBand", "Size16", "Size4Technique"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []string
			wantFams := 0
			for _, f := range fams {
				if tt.keep(f.Family) {
					wantFams++
					for _, p := range f.Puzzles {
						want = append(want, p.Puzzle)
					}
				}
			}
			if len(want) == 0 && !slices.Contains(none, tt.name) {
				t.Fatalf("test bank has no puzzle for this filter")
			}
			got := puzzleStrings(t, db, tt.filter, store.QueryOptions{})
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Query selected %d puzzles, want %d", len(got), len(want))
			}
			// A random order takes the same rows, once each.
			rnd := puzzleStrings(t, db, tt.filter, store.QueryOptions{Order: store.OrderRandom, Limit: len(want) + 1, Seed: 1})
			slices.Sort(rnd)
			if !slices.Equal(rnd, want) {
				t.Errorf("a random order selected %d puzzles, want %d", len(rnd), len(want))
			}
			n, err := db.Count(ctx, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(len(want)) {
				t.Errorf("Count = %d, want %d", n, len(want))
			}
			nf, err := db.CountFamilies(ctx, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if nf != int64(wantFams) {
				t.Errorf("CountFamilies = %d, want %d", nf, wantFams)
			}
		})
	}
}

func TestFilterInvalidLevel(t *testing.T) {
	db, _ := MustOpenTemp(t)
	if _, err := db.Count(context.Background(), store.Filter{Levels: []int{6}}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Count(level 6) error = %v, want ErrInvalid", err)
	}
}

// TestFilterInvalidTechnique: a technique that is not a slug could match
// across two of a path's techniques (a comma or a space in it), so the
// store refuses it in counts and queries alike.
func TestFilterInvalidTechnique(t *testing.T) {
	db, _ := MustOpenTemp(t)
	ctx := context.Background()
	for _, tech := range []string{"full-house,hidden-single-box", "naked-single hidden-single", "X-Wing"} {
		f := store.Filter{Technique: tech}
		if _, err := db.Count(ctx, f); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Count(technique %q) error = %v, want ErrInvalid", tech, err)
		}
		if _, err := db.CountFamilies(ctx, f); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("CountFamilies(technique %q) error = %v, want ErrInvalid", tech, err)
		}
		err := db.Query(ctx, f, store.QueryOptions{Limit: 10}, func(store.Row) error { return nil })
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Query(technique %q) error = %v, want ErrInvalid", tech, err)
		}
		if _, _, err := db.TechniqueTotals(ctx, tech, nil); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("TechniqueTotals(%q) error = %v, want ErrInvalid", tech, err)
		}
	}
}

func TestQueryOrders(t *testing.T) {
	ctx := context.Background()
	db, _ := filterBank(t, 200)
	var rows []store.Row
	collect := func(r store.Row) error { rows = append(rows, r); return nil }

	if err := db.Query(ctx, store.Filter{}, store.QueryOptions{Order: store.OrderRating, Limit: 50}, collect); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 50 || !slices.IsSortedFunc(rows, func(a, b store.Row) int { return a.ER - b.ER }) {
		t.Errorf("OrderRating: %d rows, sorted %v", len(rows), slices.IsSortedFunc(rows, func(a, b store.Row) int { return a.ER - b.ER }))
	}
	rows = nil
	if err := db.Query(ctx, store.Filter{}, store.QueryOptions{Order: store.OrderID, OnePerFamily: true, Limit: 40}, collect); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for i, r := range rows {
		if seen[r.FamilyID] {
			t.Errorf("OnePerFamily: family %d twice", r.FamilyID)
		}
		seen[r.FamilyID] = true
		if i > 0 && rows[i-1].ID >= r.ID {
			t.Errorf("OrderID: %d before %d", rows[i-1].ID, r.ID)
		}
	}
	if len(rows) != 40 {
		t.Errorf("OnePerFamily Limit 40: %d rows", len(rows))
	}
	stop := errors.New("stop")
	if err := db.Query(ctx, store.Filter{}, store.QueryOptions{}, func(store.Row) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("Query error = %v, want the callback's", err)
	}
	if err := db.Query(ctx, store.Filter{}, store.QueryOptions{Order: store.OrderRandom}, collect); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("random order without limit: error = %v, want ErrInvalid", err)
	}
}

// TestQueryInvalidOptions: bad options are refused whatever the filter
// selects, also when no family uses its technique and the query has no
// row to read.
func TestQueryInvalidOptions(t *testing.T) {
	ctx := context.Background()
	db, _ := filterBank(t, 50)
	bad := map[string]store.QueryOptions{
		"random order without limit": {Order: store.OrderRandom},
		"order 9":                    {Order: store.Order(9), Limit: 10},
		"negative limit":             {Limit: -1},
	}
	for _, f := range []store.Filter{{}, {Technique: "naked-single"}, {Technique: "jellyfish"}} {
		for name, o := range bad {
			if err := db.Query(ctx, f, o, func(store.Row) error { return nil }); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("technique %q, %s: error = %v, want ErrInvalid", f.Technique, name, err)
			}
		}
	}
}

func TestRandomSample(t *testing.T) {
	db, fams := filterBank(t, 400)
	level := map[string]int{}
	for _, f := range fams {
		for _, p := range f.Puzzles {
			level[p.Puzzle] = f.Level
		}
	}
	sample := func(f store.Filter, seed uint64, n int, one bool) []string {
		return puzzleStrings(t, db, f, store.QueryOptions{Order: store.OrderRandom, Seed: seed, Limit: n, OnePerFamily: one})
	}
	for _, tt := range []struct {
		name   string
		filter store.Filter
		one    bool
	}{
		{"OneLevel", store.Filter{Levels: []int{3}}, false},
		{"TwoLevels", store.Filter{Levels: []int{1, 5}}, false},
		{"AllLevels", store.Filter{}, false},
		{"OnePerFamily", store.Filter{Levels: []int{2}}, true},
		{"WithGivens", store.Filter{Levels: []int{4}, GivensMin: 25}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := sample(tt.filter, 42, 20, tt.one)
			b := sample(tt.filter, 42, 20, tt.one)
			if !slices.Equal(a, b) {
				t.Errorf("same seed, different samples:\n%v\n%v", a, b)
			}
			if len(a) != 20 {
				t.Errorf("sample has %d puzzles, want 20", len(a))
			}
			c := sample(tt.filter, 43, 20, tt.one)
			if slices.Equal(a, c) {
				t.Errorf("seeds 42 and 43 gave the same sample")
			}
			for _, p := range a {
				if len(tt.filter.Levels) > 0 && !slices.Contains(tt.filter.Levels, level[p]) {
					t.Errorf("sample has level %d puzzle %s", level[p], p)
				}
			}
		})
	}
	if a, b := sample(store.Filter{Levels: []int{3, 3}}, 5, 30, false), sample(store.Filter{Levels: []int{3}}, 5, 30, false); !slices.Equal(a, b) {
		t.Errorf("levels [3 3] sampled differently from [3]")
	}
	// Asking for more than there are returns each matching puzzle once,
	// whatever the seed (the walk wraps around).
	all := puzzleStrings(t, db, store.Filter{Levels: []int{3}}, store.QueryOptions{})
	for seed := range uint64(20) {
		got := sample(store.Filter{Levels: []int{3}}, seed, 100000, false)
		slices.Sort(got)
		slices.Sort(all)
		if !slices.Equal(got, all) {
			t.Fatalf("seed %d: full sample has %d puzzles, want the %d of level 3", seed, len(got), len(all))
		}
	}
	// Spread: over many seeds every level-3 puzzle should show up first
	// now and then; at least check many distinct first picks.
	first := map[string]bool{}
	for seed := range uint64(200) {
		first[sample(store.Filter{Levels: []int{3}}, seed, 1, false)[0]] = true
	}
	if len(first) < len(all)/4 {
		t.Errorf("200 seeds gave %d distinct first picks of %d puzzles", len(first), len(all))
	}
}

func TestFixedQueriesUseIndexes(t *testing.T) {
	// Lookups outside Query: by string, a pack's items, the
	// probes behind Fresh. (Without ANALYZE the planner's choice depends on
	// the schema only, so an empty bank shows the plan of a full one.)
	_, path := MustOpenTemp(t)
	for _, tt := range []struct{ name, sql, index string }{
		{"ByString", "SELECT p.id FROM puzzles p WHERE p.size = 9 AND p.level IN (1, 2, 3, 4, 5) AND p.sort_key BETWEEN 7 AND 22 AND p.puzzle = x'00'", "puzzles_key (size=? AND level=? AND sort_key>? AND sort_key<?)"},
		{"Pack", "SELECT i.puzzle_id FROM pack_items i WHERE i.pack_id = 3 ORDER BY i.position", "PRIMARY KEY"},
		{"FreshProbe", "SELECT 1 FROM packed_families k WHERE k.family_id = 3", "INTEGER PRIMARY KEY"},
		{"ClientProbe", "SELECT 1 FROM client_families c WHERE c.family_id = 3 AND c.client = 'acme'", "PRIMARY KEY"},
		{"BucketCount", "SELECT count(*) FROM puzzles p WHERE p.size * 10000 + p.level * 1000 + p.givens = 93022", "puzzles_bucket"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := strings.Join(rawPlan(t, path, tt.sql), "\n")
			if strings.Contains(plan, "SCAN") || !strings.Contains(plan, tt.index) {
				t.Errorf("plan for %s:\n%s\nwant a search using %s", tt.sql, plan, tt.index)
			}
		})
	}
}

func rawPlan(tb testing.TB, path, q string) []string {
	tb.Helper()
	db := openRaw(tb, path)
	rows, err := db.Query("EXPLAIN QUERY PLAN " + q)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			tb.Fatal(err)
		}
		out = append(out, detail)
	}
	return out
}

// Pages read with AfterID, each starting after the last ID of the one
// before, are the whole list in order, for plain and technique filters
// (whose rare plan the cursor must not take), and a cursor with a random
// order is refused.
func TestQueryAfterID(t *testing.T) {
	ctx := context.Background()
	db, _ := filterBank(t, 120)
	for _, f := range []store.Filter{{}, {Levels: []int{3}}, {Technique: "x-wing"}} {
		var all []int64
		if err := db.Query(ctx, f, store.QueryOptions{}, func(r store.Row) error {
			all = append(all, r.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var paged []int64
		after := int64(0)
		for {
			var page []int64
			if err := db.Query(ctx, f, store.QueryOptions{Limit: 7, AfterID: after}, func(r store.Row) error {
				page = append(page, r.ID)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			paged = append(paged, page...)
			after = page[len(page)-1]
		}
		if !slices.Equal(paged, all) || len(all) == 0 {
			t.Errorf("filter %+v: pages give %v, want %v", f, paged, all)
		}
	}
	err := db.Query(ctx, store.Filter{}, store.QueryOptions{Limit: 3, Order: store.OrderRandom, AfterID: 5}, func(store.Row) error { return nil })
	if !errors.Is(err, store.ErrInvalid) {
		t.Errorf("AfterID with a random order: %v, want ErrInvalid", err)
	}
}

// Windows of IDs read with AfterID and UpToID hold exactly the matches
// between the two, for plain and technique filters (whose rare plan, on
// a first page, must keep to the window too); CountUpToAtMost is the
// number of matches up to an ID, and LastID the highest ID of all.
func TestQueryUpToID(t *testing.T) {
	ctx := context.Background()
	db, _ := filterBank(t, 120)
	var every []int64
	if err := db.Query(ctx, store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		every = append(every, r.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	last, err := db.LastID(ctx)
	if err != nil || len(every) == 0 || last != every[len(every)-1] {
		t.Fatalf("LastID = %d, %v; want %d", last, err, every[len(every)-1])
	}
	for _, f := range []store.Filter{{}, {Levels: []int{3}}, {Technique: "x-wing"}, {Levels: []int{2, 4}, GivensMin: 25, GivensMax: 25}} {
		var all []int64
		if err := db.Query(ctx, f, store.QueryOptions{}, func(r store.Row) error {
			all = append(all, r.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(all) == 0 {
			t.Fatalf("filter %+v selects nothing", f)
		}
		for after := int64(0); after < last; after += 13 {
			var got, want []int64
			if err := db.Query(ctx, f, store.QueryOptions{AfterID: after, UpToID: after + 13}, func(r store.Row) error {
				got = append(got, r.ID)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for _, id := range all {
				if id > after && id <= after+13 {
					want = append(want, id)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("filter %+v, IDs %d to %d: got %v, want %v", f, after+1, after+13, got, want)
			}
		}
		for _, id := range []int64{0, 1, every[len(every)/2], last, last + 5} {
			n, err := db.CountUpToAtMost(ctx, f, id, int64(len(all)))
			want := int64(0)
			for _, a := range all {
				if a <= id {
					want++
				}
			}
			if err != nil || n != want {
				t.Errorf("filter %+v: CountUpToAtMost(%d) = %d, %v; want %d", f, id, n, err, want)
			}
		}
	}
	err = db.Query(ctx, store.Filter{}, store.QueryOptions{Limit: 3, Order: store.OrderRandom, UpToID: 5}, func(store.Row) error { return nil })
	if !errors.Is(err, store.ErrInvalid) {
		t.Errorf("UpToID with a random order: %v, want ErrInvalid", err)
	}
}
