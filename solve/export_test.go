package solve

import "sudokubank/grid"

// The reference solvers, exported to the black-box tests only.

// CountDLX counts the solutions of g up to limit with Algorithm X and
// returns the first one found.
func CountDLX(g Grid, limit int) (int, Grid) { return countDLX(g, limit) }

// CountBacktrack counts the solutions of g up to limit with the plain
// backtracker; ok is false when it gave up after maxNodes nodes.
func CountBacktrack(g Grid, limit, maxNodes int) (n int, ok bool) {
	return countBacktrack(g, limit, maxNodes)
}

// NewSizedPairs returns a Sized set up for shape s that looks for naked
// and hidden pairs or not, whatever its size, so that tests can check
// the pair rules against searches without them.
func NewSizedPairs(s grid.Shape, on bool) *Sized {
	v := new(Sized)
	v.setup(s)
	v.pairs = on
	return v
}
