package main_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/banktest"
)

var (
	hintHeader = regexp.MustCompile(`hint path \(this puzzle's solve, \d+ steps, hardest step ER (\d+\.\d)`)
	storedER   = regexp.MustCompile(`rating +ER (\d+\.\d)`)
	shownID    = regexp.MustCompile(`^puzzle (\d+) \(family`)
)

// TestShowSizedHints shows 6x6 and 12x12 puzzles of a bank built as
// bankgen -size builds them: show grades each again in its own size and
// prints its hint path, every empty cell filled by a step named in the
// puzzle's shape; the rating line notes a regrade that differs from the
// stored rating, as for 9x9; and the puzzle named by its cells shows the
// same.
func TestShowSizedHints(t *testing.T) {
	fams := append(banktest.MustSizedBuilt(t, 6, []grade.Level{grade.Medium, grade.Difficult}, 2),
		banktest.MustSizedBuilt(t, 12, []grade.Level{grade.ExtremelyEasy}, 1)...)
	db := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, db, fams)
	for i, f := range fams {
		for j, p := range f.Puzzles {
			sh, _ := grid.ShapeOf(f.Size)
			t.Run(fmt.Sprintf("%s/%d/%d", sh, i, j), func(t *testing.T) {
				out := mustRun(t, "show", "-db", db, p.Puzzle)
				h, er := hintHeader.FindStringSubmatch(out), storedER.FindStringSubmatch(out)
				if h == nil || er == nil {
					t.Fatalf("no hint path or no rating:\n%s", out)
				}
				if note := strings.Contains(out, "this puzzle as shown rates ER "+h[1]); (h[1] == er[1]) == note {
					t.Errorf("stored ER %s, hint path ER %s, noted: %v\n%s", er[1], h[1], note, out)
				}
				for c := range sh.Cells() {
					if p.Puzzle[c] == '.' {
						if want := sh.CellName(c) + "=" + p.Solution[c:c+1]; !strings.Contains(out, want+"\n") && !strings.Contains(out, want+",") {
							t.Errorf("no step places %s:\n%s", want, out)
						}
					}
				}
				id := shownID.FindStringSubmatch(out)
				if id == nil {
					t.Fatalf("no puzzle ID:\n%s", out)
				}
				if got := mustRun(t, "show", "-db", db, id[1]); got != out {
					t.Errorf("show %s printed\n%s\nwant what show %s printed\n%s", id[1], got, p.Puzzle, out)
				}
			})
		}
	}
}
