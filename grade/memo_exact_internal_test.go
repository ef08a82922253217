package grade

import (
	"slices"
	"testing"

	"sudokubank/solve"
)

// TestUniqueLoopsMemoExact grades evil digs step by step and checks, before
// every step, that uniqueLoops on the grader's state, which skips the digit
// pairs whose searches it knows to find nothing (loopSame, loopBare),
// finds what it finds on a fresh copy of the position, which skips none.
// It fails unless some pair is skipped as bare: closed loops that offered
// no step, on cells unchanged since.
func TestUniqueLoopsMemoExact(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 12
	}
	bare, calls := 0, 0
	for _, p := range triplePuzzles(t, "testdata/evil_digs.txt", n) {
		var g Grader
		g.st.load(p)
		gradeSteps(&g, func(step int) {
			s := &g.st
			for d0 := 1; d0 <= 9; d0++ {
				for d1 := d0 + 1; d1 <= 9; d1++ {
					if s.loopBare(d0, d1) {
						bare++
					}
				}
			}
			got, gotOK := s.uniqueLoops()
			want, wantOK := freshState(s).uniqueLoops()
			calls++
			if gotOK != wantOK || !sameStep(&got, &want) {
				t.Fatalf("%s step %d: uniqueLoops gave %v %+v, a fresh state %v %+v", p, step, gotOK, got, wantOK, want)
			}
		})
	}
	if bare == 0 {
		t.Fatalf("%d calls, no pair skipped as bare: the test shows nothing", calls)
	}
	t.Logf("%d calls, %d bare pairs skipped", calls, bare)
}

// TestAlignedPairMemoExact grades evil digs step by step and checks,
// before every step, that alignedPairExclusion on the grader's state,
// which skips the pairs it knows to find nothing (state.apeNone), finds
// what it finds on a fresh copy of the position, with and without the
// solution. It fails unless some pair is skipped.
func TestAlignedPairMemoExact(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 12
	}
	calls, found := 0, 0
	skips := 0
	for i, p := range triplePuzzles(t, "testdata/evil_digs.txt", n) {
		sol := mustSolution(t, p)
		var g Grader
		g.st.load(p)
		if i%2 == 0 {
			g.st.sol = &sol
		}
		gradeSteps(&g, func(step int) {
			s := &g.st
			got, gotOK := s.alignedPairExclusion()
			want, wantOK := freshState(s).alignedPairExclusion()
			calls++
			if gotOK != wantOK || !sameStep(&got, &want) {
				t.Fatalf("%s step %d: alignedPairExclusion gave %v %+v, a fresh state %v %+v", p, step, gotOK, got, wantOK, want)
			}
			if gotOK {
				found++
			}
		})
		skips += g.st.apeSkips
	}
	if skips == 0 || found == 0 {
		t.Fatalf("%d calls, %d found, %d pairs skipped: the test shows nothing", calls, found, skips)
	}
	t.Logf("%d calls, %d found, %d pairs skipped", calls, found, skips)
}

// gradeSteps grades g's puzzle step by step, calling before with the
// number of each step before the grader looks for it, until the grid is
// solved or no step applies.
func gradeSteps(g *Grader, before func(step int)) {
	for step := 1; g.st.left > 0; step++ {
		before(step)
		st, ok := g.next()
		if !ok {
			return
		}
		g.st.apply(&st)
	}
}

// mustSolution returns p's solution, failing tb when p has none.
func mustSolution(tb testing.TB, p solve.Grid) solve.Grid {
	tb.Helper()
	sol, ok := solve.Solve(p)
	if !ok {
		tb.Fatalf("%s: no solution", p)
	}
	return sol
}

// freshState returns a state with the position and solution of s and
// nothing remembered from earlier searches, so it skips nothing.
func freshState(s *state) *state {
	f := &state{p: s.p, sol: s.sol}
	f.refresh()
	return f
}

// sameStep reports whether two steps are the same in every field a grade
// keeps.
func sameStep(a, b *Step) bool {
	return a.Technique == b.Technique && a.Rating == b.Rating && a.Digits == b.Digits &&
		slices.Equal(a.Cells, b.Cells) && slices.Equal(a.Eliminations, b.Eliminations) && slices.Equal(a.Placements, b.Placements)
}
