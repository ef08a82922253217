package store

import (
	"strings"
	"testing"
)

// The technique counts are checked in one pass that holds nothing per
// family: a subquery run for each family reads the puzzles by family, a
// search a family even where puzzles_family stands and a scan where a bulk
// load has dropped it (hours on a large bank), and an
// automatic index built on a grouped subquery would hold a row a family.
func TestCheckTechniqueCountsPlan(t *testing.T) {
	db := openTempBank(t, Options{})
	mustOnePassPlan(t, db.db, checkTechniqueCountsSQL, true)
}

// A family from before schema 5 names its techniques in
// family_techniques, not its path: the check counts them from there.
func TestCheckOldTechniques(t *testing.T) {
	db := checkedBank(t)
	if _, err := db.db.Exec(`UPDATE families SET path = '' WHERE id = 1;
		INSERT INTO family_techniques (family_id, technique, uses) VALUES (1, 'hidden-single', 2), (1, 'naked-single', 1)`); err != nil {
		t.Fatal(err)
	}
	for _, quick := range []bool{false, true} {
		if r := mustCheck(t, db, quick); !r.OK() {
			t.Fatalf("quick %v: problems %q", quick, r.Problems)
		}
	}
	if _, err := db.db.Exec(`DELETE FROM family_techniques WHERE family_id = 1 AND technique = 'naked-single'`); err != nil {
		t.Fatal(err)
	}
	r := mustCheck(t, db, true)
	if !strings.Contains(strings.Join(r.Problems, "\n"), "technique_counts: level 2 naked-single") {
		t.Errorf("problems %q, want one for naked-single", r.Problems)
	}
}
