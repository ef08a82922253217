package store

import (
	"strings"
	"testing"
)

// ForEachCanon must read the index of the canonical forms, a tenth of the
// families table's size, and not sort.
func TestForEachCanonPlan(t *testing.T) {
	plan := queryPlan(t, openTempBank(t), forEachCanonSQL)
	if !strings.Contains(plan, "COVERING INDEX") || strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("plan of %q:\n%s\nwant a scan of a covering index, no sort", forEachCanonSQL, plan)
	}
}
