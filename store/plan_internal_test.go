package store

import (
	"context"
	"strings"
	"testing"
)

// The statements Query runs must walk the index that gives their order,
// never sort every match (USE TEMP B-TREE), so that a LIMIT stops early.
func TestQueryPlans(t *testing.T) {
	db := openTempBank(t, Options{})
	score := 10.0
	tests := []struct {
		name   string
		filter Filter
		order  Order
		want   string // in the plan
	}{
		{"IDAll", Filter{}, OrderID, "SCAN p"},
		{"IDLevel", Filter{Levels: []int{3}}, OrderID, "SCAN p"},
		{"IDLevelGivensRange", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 25}, OrderID, "SCAN p"},
		{"IDBucket", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 22}, OrderID, "SEARCH p USING INDEX puzzles_bucket (<expr>=?)"},
		{"IDBucketRating", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 22, RatingMin: 30, Minimal: true}, OrderID, "SEARCH p USING INDEX puzzles_bucket (<expr>=?)"},
		{"IDFamilyFields", Filter{Minimal: true, ScoreMin: &score, Technique: "x-wing"}, OrderID, "SCAN p"},
		{"RatingAll", Filter{}, OrderRating, "puzzles_er"},
		{"RatingLevels", Filter{Levels: []int{2, 3}, GivensMin: 22}, OrderRating, "puzzles_er"},
		{"RatingRange", Filter{RatingMin: 30, RatingMax: 40, Levels: []int{3}}, OrderRating, "puzzles_er (size=? AND er>? AND er<?)"},
		{"RandomLevel", Filter{Levels: []int{3}}, OrderRandom, "puzzles_key (size=? AND level=? AND sort_key>? AND sort_key<?)"},
		{"RandomLevels", Filter{Levels: []int{1, 5}}, OrderRandom, "puzzles_key (size=? AND level=? AND sort_key>? AND sort_key<?)"},
		{"RandomLevelGivens", Filter{Levels: []int{3}, GivensMin: 24, GivensMax: 24}, OrderRandom, "puzzles_key (size=? AND level=? AND sort_key>? AND sort_key<?)"},
		{"RandomLevelRating", Filter{Levels: []int{3, 4}, RatingMin: 30, Fresh: true, NotForClient: "c"}, OrderRandom, "puzzles_key (size=? AND level=? AND sort_key>? AND sort_key<?)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var (
				q    string
				args []any
				err  error
			)
			// The sizes as Query resolves them: the bank's, 9x9 when empty.
			if tt.filter, err = tt.filter.withSizes(context.Background(), db.db); err != nil {
				t.Fatal(err)
			}
			if tt.order == OrderRandom {
				// Three slots' key ranges, then the filter's arguments.
				var w string
				var fam bool
				w, args, fam, err = tt.filter.where("p", "p.family_id", indexable{level: true})
				q = slotsSQL(w, fam, false, 4)
				args = append([]any{int64(5), int64(9), int64(20), int64(30), int64(40), int64(50), 1, 0}, args...)
			} else {
				q, args, err = listSQL(tt.filter, QueryOptions{Order: tt.order})
			}
			if err != nil {
				t.Fatal(err)
			}
			checkPlan(t, db, tt.want, "TEMP B-TREE", q, args...)
		})
	}
}

// The rows a random pick keeps are read by their IDs, a search of the
// table's key each, never a scan.
func TestFetchPlan(t *testing.T) {
	db := openTempBank(t, Options{})
	checkPlan(t, db, "SEARCH p USING INTEGER PRIMARY KEY (rowid=?)", "SCAN", fetchSQL(4), int64(1), int64(5), int64(9), int64(1))
}

// checkPlan fails t unless the plan of q holds want and not never.
func checkPlan(t *testing.T, db *DB, want, never, q string, args ...any) {
	t.Helper()
	if got := queryPlan(t, db, q, args...); !strings.Contains(got, want) || strings.Contains(got, never) {
		t.Errorf("plan of %s:\n%s\nwant %q and no %q", q, got, want, never)
	}
}

// A count that reads the puzzles searches the (level, givens) index,
// puzzles_bucket, for the filter's levels and givens: one number or a
// range of numbers a level, never a scan of the table.
func TestCountPlans(t *testing.T) {
	db := openTempBank(t, Options{})
	tests := []struct {
		name   string
		filter Filter
		want   string // in the plan
	}{
		{"Bucket", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 22, RatingMin: 30}, "SEARCH p USING INDEX puzzles_bucket (<expr>=?)"},
		{"BucketsOfLevels", Filter{Levels: []int{2, 3}, GivensMin: 22, GivensMax: 22, Minimal: true}, "SEARCH p USING INDEX puzzles_bucket (<expr>=?)"},
		{"GivensRange", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 25, RatingMin: 30}, "SEARCH p USING INDEX puzzles_bucket (<expr>>? AND <expr><?)"},
		{"GivensMin", Filter{Levels: []int{3}, GivensMin: 22, Fresh: true}, "SEARCH p USING INDEX puzzles_bucket (<expr>>? AND <expr><?)"},
		{"GivensRangeOfLevels", Filter{Levels: []int{2, 3}, GivensMin: 22, GivensMax: 25, Minimal: true}, "SEARCH p USING INDEX puzzles_bucket (<expr>>? AND <expr><?)"},
		{"Level", Filter{Levels: []int{3}, Minimal: true}, "SEARCH p USING INDEX puzzles_key (size=? AND level=?)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tt.filter.withSizes(context.Background(), db.db)
			if err != nil {
				t.Fatal(err)
			}
			q, args, err := countPuzzlesSQL(f)
			if err != nil {
				t.Fatal(err)
			}
			checkPlan(t, db, tt.want, "SCAN p", q, args...)
		})
	}
}

// The rare-technique plan reads each bucket by a search of its number in
// puzzles_bucket. INDEXED BY alone would let a condition the index does
// not match scan the whole index instead.
func TestRarePlan(t *testing.T) {
	db := openTempBank(t, Options{})
	g := Filter{Minimal: true}
	w, wargs, _, err := g.where("p", "p.family_id", indexable{})
	if err != nil {
		t.Fatal(err)
	}
	q := rareBucketSQL(w, 2)
	args := append([]any{bucketOf(9, 3, 22), int64(1), int64(2)}, wargs...)
	checkPlan(t, db, "SEARCH p USING INDEX puzzles_bucket (<expr>=?)", "SCAN p", q, args...)
}

// Where puzzles_family stands the rare-technique plan reads each family's
// puzzles by a search of it, never a scan of the table or the index.
func TestRareFamilyPlan(t *testing.T) {
	db := openTempBank(t, Options{})
	g := Filter{Minimal: true}
	w, wargs, err := rareFilter(g)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]any{int64(1), int64(2)}, wargs...)
	checkPlan(t, db, "SEARCH p USING INDEX puzzles_family (family_id=?)", "SCAN p", rareFamilySQL(w, 2), args...)
}

// The writer's lookups of a batch's rows must search the unique indexes,
// one probe a row, never scan the bank.
func TestWritePlans(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	if _, err := db.db.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS "+rowsTable+" USING "+rowsModule); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, sql, want string }{
		{"Families", findFamiliesSQL, "SEARCH f USING INDEX families_canon_key (canon_key>? AND canon_key<?)"},
		{"FamiliesByID", familiesByIDSQL, "SEARCH f USING INTEGER PRIMARY KEY (rowid=?)"},
		{"Puzzles", findPuzzlesSQL, "SEARCH p USING INDEX puzzles_key (size=? AND level=? AND sort_key>? AND sort_key<?)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := queryPlan(t, db, tt.sql, int64(1))
			if !strings.Contains(got, tt.want) {
				t.Errorf("plan:\n%s\nwant %q", got, tt.want)
			}
		})
	}
}

// A sample of families reads its slots by one search of families_sample
// a range, size and level, checks that a family has a puzzle by a search
// of puzzles_family, and finds a picked family's variants there too:
// never a scan of either table.
func TestFamilySamplePlans(t *testing.T) {
	db := openTempBank(t, Options{})
	for _, f := range []Filter{{Levels: []int{3}}, {Levels: []int{1, 5}, Fresh: true, NotForClient: "c"}, {Levels: []int{2}, GivensMin: 24, GivensMax: 26, RatingMin: 30}} {
		f, err := f.withSizes(context.Background(), db.db)
		if err != nil {
			t.Fatal(err)
		}
		w, args, _, err := f.where("f", "f.id", indexable{level: true})
		if err != nil {
			t.Fatal(err)
		}
		q := familySlotsSQL(w, 4)
		args = append([]any{int64(5), int64(9), int64(20), int64(30), int64(40), int64(50), 1, 0}, args...)
		checkPlan(t, db, "INDEX families_sample (size=? AND level=? AND canon_key>? AND canon_key<?)", "SCAN f", q, args...)
		checkPlan(t, db, "USING INDEX puzzles_family FOR IN-OPERATOR", "SCAN puzzles", q, args...)
	}
	checkPlan(t, db, "SEARCH p USING COVERING INDEX puzzles_family (family_id=?)", "SCAN", variantsSQL(4), int64(1), int64(5), int64(9), int64(1))
}
