package store

import (
	"context"
	"strings"
	"testing"
)

// ForEachCanon must read the index of the canonical forms, a tenth of the
// families table's size, and not sort.
func TestForEachCanonPlan(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t)
	var details []string
	rows, err := db.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+forEachCanonSQL)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		details = append(details, detail)
	}
	plan := strings.Join(details, "\n")
	if !strings.Contains(plan, "COVERING INDEX") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("plan of %q:\n%s\nwant a scan of a covering index, no sort", forEachCanonSQL, plan)
	}
}
