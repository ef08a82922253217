package store

import (
	"context"
	"testing"
)

// A filter no family passes answers without reading a puzzle, in every
// order: with the puzzles table gone, the query still answers, with no
// rows. One some family passes still reads the puzzles.
func TestNoFamilyReadsNoPuzzle(t *testing.T) {
	ctx := context.Background()
	db := rareBank(t) // every family's symmetry is "none"
	if _, err := db.db.ExecContext(ctx, "ALTER TABLE puzzles RENAME TO puzzles_gone"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{{Symmetry: "rot90"}, {Symmetry: "mirror", Levels: []int{5}}, {Source: "nowhere", Minimal: true}, {Hardest: "jellyfish", Symmetry: "rot180"}} {
		for _, o := range []QueryOptions{{Order: OrderID, Limit: 10}, {Order: OrderRating}, {Order: OrderRandom, Limit: 3, Seed: 1}, {Order: OrderID, AfterID: 5, UpToID: 100}} {
			n := 0
			if err := query(ctx, db.db, f, o, func(Row) error { n++; return nil }); err != nil || n != 0 {
				t.Errorf("filter %+v, options %+v: %d rows, %v; want none, at once", f, o, n, err)
			}
		}
	}
	if err := query(ctx, db.db, Filter{Symmetry: "none"}, QueryOptions{Limit: 1}, func(Row) error { return nil }); err == nil {
		t.Errorf("a filter families pass answered without the puzzles table")
	}
}

// onFamilies says a filter has a condition on the families' columns
// exactly when where() needs the families table for it.
func TestOnFamiliesAgreesWithWhere(t *testing.T) {
	score, client := 2.5, "acme"
	for _, f := range []Filter{{}, {Levels: []int{2}}, {RatingMin: 20, RatingMax: 40}, {GivensMin: 22, GivensMax: 22}, {Size: 6},
		{ScoreMin: &score}, {ScoreMax: &score}, {Technique: "x-wing"}, {Hardest: "x-wing"}, {Symmetry: "rot180"}, {Minimal: true},
		{Source: "gen"}, {RunID: 3}, {Fresh: true}, {NotForClient: client}, {Unreserved: true}, {packFor: &client}} {
		_, _, family, err := f.where("p", "p.family_id", indexable{})
		if err != nil || family != f.onFamilies() {
			t.Errorf("filter %+v: where joins the families %v (%v), onFamilies says %v", f, family, err, f.onFamilies())
		}
	}
}
