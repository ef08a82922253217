package grade

import (
	"context"

	"sudokubank/solve"
)

// Bounds are the ratings a caller wants, so that a grade known to fall
// outside them can stop early: a search for hard puzzles rejects most of
// what it grades. A zero bound is open.
type Bounds struct {
	Floor   Rating // an ER below it is not wanted
	Ceiling Rating // an ER above it is not wanted
}

// maxSingleRating is the highest rating a single (full house, hidden or
// naked single) takes: a solve that singles finish rates no higher.
var maxSingleRating = max(FullHouse.BaseRating(), HiddenSingleBox.BaseRating(), HiddenSingleLine.BaseRating(), NakedSingle.BaseRating())

// below reports whether a solve whose steps so far rate at most er, and
// that singles alone finish, rates below the floor.
func (b Bounds) below(er Rating) bool {
	return b.Floor > maxSingleRating && er < b.Floor
}

// GradeWithinContext is GradeIntoContext that stops as soon as p's ER is
// known to fall outside b, reporting false; *gr then holds part of a
// grade. It knows an ER above the ceiling at the first step rated above
// it, and one below the floor once singles alone finish the solve, with
// every step so far below the floor. When it reports true, *gr is what
// GradeIntoContext makes of p, whether or not it is inside b.
func (g *Grader) GradeWithinContext(ctx context.Context, p solve.Grid, gr *Grade, b Bounds) (bool, error) {
	return g.gradeWithin(ctx, p, gr, b)
}

// singlesSolve reports whether naked and hidden singles alone solve the
// state's position, working on the copy *w.
func (s *state) singlesSolve(w *Position) bool {
	*w = s.p
	left := s.left
	for left > 0 {
		placed := false
		for c := 0; c < 81; c++ {
			if w.Grid[c] == 0 && count(w.Cands[c]) == 1 {
				place(w, c, first(w.Cands[c]))
				left--
				placed = true
			}
		}
		for u := 0; u < 27; u++ {
			for d := 1; d <= 9; d++ {
				at, n := -1, 0
				for _, c := range unitCells[u] {
					if w.Cands[c]&bit(d) != 0 {
						at, n = int(c), n+1
					} else if w.Grid[c] == uint8(d) {
						n = 2 // placed already
					}
				}
				if n == 1 && w.Grid[at] == 0 {
					place(w, at, d)
					left--
					placed = true
				}
			}
		}
		if !placed {
			return false
		}
	}
	return true
}

// place puts d in the empty cell c of w and drops it from c's peers.
func place(w *Position, c, d int) {
	w.Grid[c] = uint8(d)
	w.Cands[c] = 0
	for _, q := range peers[c] {
		w.Cands[q] &^= bit(d)
	}
}
