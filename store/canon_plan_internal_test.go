package store

import (
	"strings"
	"testing"
)

// ForEachCanon must read the table in its stored order, once, and not
// sort: no index holds the forms, and a sort of ten million of them would
// come before the first row.
func TestForEachCanonPlan(t *testing.T) {
	plan := queryPlan(t, openTempBank(t, Options{}), forEachCanonSQL)
	if !strings.Contains(plan, "SCAN families") || strings.Contains(plan, "INDEX") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("plan of %q:\n%s\nwant a scan of the table, no index, no sort", forEachCanonSQL, plan)
	}
}
