package pipeline_test

import (
	"context"
	"strings"
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

// TestImportLongLine gives lines of more than 81 cells: the message says
// how many cells the line has, or that something follows the puzzle
// without a space, instead of the character or count the parser stopped
// at. A puzzle followed by a space and a comment is a puzzle.
func TestImportLongLine(t *testing.T) {
	const p = "6....3.1..2.5.......8.7.....5.2.......2.8....1....6..9......7..3......61.....98.4"
	tests := []struct {
		name, line, want string
	}{
		{"Digits", p + "12345678901234", "line has 95 cells, a puzzle has 81"},
		{"Glued", p + "x1.2", `line has 85 characters: a puzzle of 81 cells and then "x1.2"; put a space`},
		{"Short", p[:80], "wrong number of cells: found 80, want 81"},
	}
	m := pipeline.NewImporter("test", nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.Import(context.Background(), pipeline.Line{No: 1, Text: tt.line})
			if r.Reason != pipeline.Invalid || r.Err == nil || !strings.HasPrefix(r.Err.Error(), tt.want) {
				t.Errorf("Import(%q) = %v, %v; want invalid, %q", tt.line, r.Reason, r.Err, tt.want)
			}
		})
	}
	if r := m.Import(context.Background(), pipeline.Line{No: 1, Text: p + " 9.5 rated"}); r.Reason != pipeline.Kept {
		t.Errorf("a puzzle and a comment: %v, %v; want kept", r.Reason, r.Err)
	}
}

// FuzzImportLineError checks that a line that is not a puzzle is always
// rejected with a message, never a panic, whatever its length or bytes.
func FuzzImportLineError(f *testing.F) {
	const p = "6....3.1..2.5.......8.7.....5.2.......2.8....1....6..9......7..3......61.....98.4"
	for _, s := range []string{p + "12345", p + "x", p + "\xff\xfe", strings.Repeat("9", 200), "", "x", p[:80] + "é"} {
		f.Add(s)
	}
	m := pipeline.NewImporter("fuzz", nil)
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := solve.ParseLine(s); err == nil {
			return // a puzzle: grading it is another test's business
		}
		r := m.Import(context.Background(), pipeline.Line{No: 1, Text: s})
		if r.Reason != pipeline.Invalid || r.Err == nil || r.Err.Error() == "" {
			t.Errorf("Import(%q) = %v, %v; want invalid with a message", s, r.Reason, r.Err)
		}
	})
}

// TestImportSizedFields imports puzzles of other sizes as rated lists
// write them, the puzzle as the first of several fields ("PUZZLE ER EP
// ED SOURCE", or a tab and a rating), which docs/formats.md says is read
// for every size as for 9x9: the other fields are ignored. Such a line
// was read as a 9x9 one and refused.
func TestImportSizedFields(t *testing.T) {
	for _, tt := range []struct {
		puzzle string
		size   int
	}{
		{"1..3...6.....3.6.5.....2..62..3....4", 6},
		{"...2.2.....4.1..", 4},
	} {
		for _, line := range []string{tt.puzzle, tt.puzzle + " 6.6 1.2 1.2 forum", tt.puzzle + "\t6.6", "  " + tt.puzzle + " x"} {
			m := pipeline.NewImporter("test", nil)
			r := m.Import(context.Background(), pipeline.Line{No: 1, Text: line})
			if r.Reason != pipeline.Kept {
				t.Errorf("Import(%q) = %v (%v), want kept", line, r.Reason, r.Err)
				continue
			}
			if f := r.Value.Family; f.Size != tt.size || len(r.Value.Puzzles) != 1 || r.Value.Puzzles[0].Puzzle != tt.puzzle {
				t.Errorf("Import(%q) stored size %d, puzzles %v; want size %d and the puzzle as given", line, f.Size, r.Value.Puzzles, tt.size)
			}
		}
	}
}
