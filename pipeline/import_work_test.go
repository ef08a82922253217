package pipeline_test

import (
	"context"
	"testing"

	"sudokubank/gen"
	"sudokubank/pipeline"
	"sudokubank/solve"
)

// TestImportGradesAsGiven imports a puzzle whose rating depends on its
// orientation: Sudoku Explainer 1.2.1.3 rates it 9.5 as given
// (../shared/data/rated/dev_se.txt, source q2), and the grader agrees,
// but rates its canonical form 9.6, its chain search meeting the cells
// in another order. The family stores the rating of the puzzle stored.
func TestImportGradesAsGiven(t *testing.T) {
	const puzzle = "6....3.1..2.5.......8.7.....5.2.......2.8....1....6..9......7..3......61.....98.4"
	m := pipeline.NewImporter("test", nil)
	r := m.Import(context.Background(), pipeline.Line{No: 1, Text: puzzle})
	if r.Reason != pipeline.Kept {
		t.Fatalf("reason %v (%v), want kept", r.Reason, r.Err)
	}
	f := r.Value.Family
	if f.ER != 95 || f.EP != 95 {
		t.Errorf("family ER %d, EP %d (tenths); want 95, 95, the grade of the puzzle as given", f.ER, f.EP)
	}
	if len(r.Value.Puzzles) != 1 || r.Value.Puzzles[0].Puzzle != MustGrid(t, puzzle).String() {
		t.Errorf("stored puzzles %v, want the puzzle as given", r.Value.Puzzles)
	}
	canon, _ := gen.Canon(MustGrid(t, puzzle))
	if f.Canon != canon.String() {
		t.Errorf("canon %s, want %s", f.Canon, canon)
	}
}

// MustGrid parses a puzzle or fails the test.
func MustGrid(tb testing.TB, s string) solve.Grid {
	tb.Helper()
	g, err := solve.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
