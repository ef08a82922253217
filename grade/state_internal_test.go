package grade

import (
	"testing"

	"sudokubank/solve"
)

// TestApplyKeepsTables solves sample puzzles step by step and checks after
// every step that the tables apply keeps current equal those refresh
// builds from scratch.
func TestApplyKeepsTables(t *testing.T) {
	for _, l := range []string{
		"4.1.........935...6....1..8.1..8..5.......4.7.69.............8....4..96...279...5",
		"....3......8.4.7.592...61..23........7..9....6....2....9.5.......5...8.13...6..4.",
		"..8...2.....7.2.5....1....3.4.65..9..2...........9361.1.....86..8..6.....92......",
	} {
		p, err := solve.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		var g Grader
		g.st.load(p)
		for n := 1; g.st.left > 0; n++ {
			st, ok := g.next()
			if !ok {
				break
			}
			g.st.apply(&st)
			want := g.st
			want.refresh()
			// The change counts and what the searches remember by them
			// are not tables: refresh starts them anew.
			got := &g.st
			if got.p != want.p || got.where != want.where || got.singles != want.singles || got.lastOne != want.lastOne || got.empty != want.empty ||
				got.placed != want.placed || got.left != want.left {
				t.Fatalf("%s step %d (%s): tables differ from a refresh", l, n, st.Technique.Slug())
			}
		}
	}
}
