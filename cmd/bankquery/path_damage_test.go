package main_test

import (
	"strings"
	"testing"

	"sudokubank/internal/banktest"
)

// TestShowDamagedPath shows a puzzle whose family's stored technique
// sequence was damaged into a run of a hundred billion steps: show fails
// with status 1, naming the family and the path, instead of building
// the steps until memory runs out.
func TestShowDamagedPath(t *testing.T) {
	bank := MustBank(t)
	const path = ",full-house,a99999999999"
	banktest.MustExec(t, bank, "UPDATE families SET path = '"+path+"' WHERE id = (SELECT family_id FROM puzzles WHERE id = 1)")
	r := run(t, "show", "-db", bank, "1")
	t.Logf("show: %v", r.err)
	if r.code != 1 || r.err == nil || !strings.Contains(r.err.Error(), path) || !strings.Contains(r.err.Error(), "family ") {
		t.Fatalf("show of a damaged path: exit %d, error %v; want 1 and the family and path named", r.code, r.err)
	}
}
