package pipeline

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/solve"
)

// TestImportSizedBudget imports a sparse 25x25 line (250 givens of a
// random grid, with several solutions): within the default node budget
// the count is decided and the line refused for its solutions; with a
// budget too small to decide it, the line is refused as undecided, with
// a message that names the budget, instead of searching on.
func TestImportSizedBudget(t *testing.T) {
	s, err := grid.ShapeOf(25)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(26, 25))
	sol := gen.SizedTerminal(s, rng)
	g := grid.New(s)
	for _, c := range rng.Perm(s.Cells())[:250] {
		g.Cells[c] = sol.Cells[c]
	}
	line := Line{No: 1, Text: g.String()}
	tests := []struct {
		name   string
		budget int
		want   error
		msg    string
	}{
		{"Default", 0, solve.ErrMultipleSolutions, ""},
		{"TooSmall", 1, ErrUndecided, "uniqueness not decided within 1 search nodes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewImporter("test", nil)
			m.sizedNodes = tt.budget
			r := m.Import(context.Background(), line)
			if r.Reason != Invalid || !errors.Is(r.Err, tt.want) {
				t.Fatalf("Import = %v, %v; want invalid, %v", r.Reason, r.Err, tt.want)
			}
			if !strings.HasPrefix(r.Err.Error(), tt.msg) {
				t.Errorf("message %q, want it to start with %q", r.Err, tt.msg)
			}
		})
	}
}
