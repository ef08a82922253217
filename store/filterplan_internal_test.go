package store

import (
	"context"
	"strings"
	"testing"
)

// ReadsOnlyMatchesByID and CountsFromIndex say what the statements of
// listSQL and countPuzzlesSQL do: a caller bounds a read by them.
func TestFilterPlanReports(t *testing.T) {
	db := openTempBank(t, Options{})
	score := 10.0
	tests := []struct {
		name           string
		filter         Filter
		onlyMatches    bool // an ID-order read takes every row it reads
		countFromIndex bool // a count reads no family
	}{
		{"All", Filter{}, true, true},
		{"Size", Filter{Size: 9}, false, true},
		{"Bucket", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 22}, true, true},
		{"BucketOfSize", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 22, Size: 9}, true, true},
		{"BucketRating", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 22, RatingMin: 30}, false, true},
		{"BucketSymmetry", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 22, Symmetry: "rot90"}, false, false},
		{"Levels", Filter{Levels: []int{2, 3}, GivensMin: 22, GivensMax: 22}, false, true},
		{"GivensRange", Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 25}, false, true},
		{"Level", Filter{Levels: []int{3}}, false, true},
		{"Rating", Filter{RatingMin: 30}, false, true},
		{"Score", Filter{ScoreMin: &score}, false, false},
		{"Technique", Filter{Technique: "x-wing"}, false, false},
		{"Minimal", Filter{Minimal: true}, false, false},
		{"Unreserved", Filter{Unreserved: true}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.filter.ReadsOnlyMatchesByID(); got != tt.onlyMatches {
				t.Errorf("ReadsOnlyMatchesByID() = %v, want %v", got, tt.onlyMatches)
			}
			if got := tt.filter.CountsFromIndex(); got != tt.countFromIndex {
				t.Errorf("CountsFromIndex() = %v, want %v", got, tt.countFromIndex)
			}
			f, err := tt.filter.withSizes(context.Background(), db.db)
			if err != nil {
				t.Fatal(err)
			}
			// Every row an ID-order read takes is a match: a search of
			// one bucket with no other condition, or no condition.
			q, args, err := listSQL(f, QueryOptions{Order: OrderID})
			if err != nil {
				t.Fatal(err)
			}
			if tt.onlyMatches {
				where := q[strings.Index(q, " WHERE ")+len(" WHERE ") : strings.Index(q, " ORDER BY")]
				if where != "1" && (strings.Contains(where, " AND ") || !strings.Contains(queryPlan(t, db, q, args...), "USING INDEX puzzles_bucket")) {
					t.Errorf("an ID-order read of %+v checks %q row by row", tt.filter, where)
				}
			}
			// A count from an index looks up nothing for each puzzle: no
			// family, no reservation.
			c, _, err := countPuzzlesSQL(f)
			if err != nil {
				t.Fatal(err)
			}
			if joins := strings.Contains(c, "families") || strings.Contains(c, "f.") || strings.Contains(c, "EXISTS"); joins == tt.countFromIndex {
				t.Errorf("count %s: reads families %v, want %v", c, joins, !tt.countFromIndex)
			}
		})
	}
}

// The bounded count of CountUpToAtMost searches the index the count
// does, never scans the table, for a filter CountsFromIndex.
func TestCountUpToPlan(t *testing.T) {
	db := openTempBank(t, Options{})
	for _, tt := range []struct {
		filter Filter
		want   string
	}{
		{Filter{Levels: []int{3}}, "puzzles_key (size=? AND level=?)"},
		{Filter{Levels: []int{3}, GivensMin: 22, GivensMax: 22}, "COVERING INDEX puzzles_bucket (<expr>=? AND rowid<?)"},
		{Filter{Levels: []int{3}, GivensMin: 20, GivensMax: 25}, "puzzles_bucket (<expr>>? AND <expr><?)"},
		{Filter{RatingMin: 30, RatingMax: 40}, "puzzles_er (size=? AND er>? AND er<?)"},
	} {
		f, err := tt.filter.withSizes(context.Background(), db.db)
		if err != nil {
			t.Fatal(err)
		}
		q, args, err := countUpToSQL(f)
		if err != nil {
			t.Fatal(err)
		}
		checkPlan(t, db, tt.want, "SCAN p", q, append(args, int64(100), int64(10))...)
	}
}
