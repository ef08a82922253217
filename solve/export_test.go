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

// V3Supported reports whether the search can run the assembly versions
// of its hot functions here (rules_amd64.s).
func V3Supported() bool { return v3Supported }

// UseV3 makes the search run the assembly versions of its hot functions
// (on) or the Go ones, and returns a function that restores the choice.
// Tests that switch it must not run in parallel.
func UseV3(on bool) (restore func()) {
	old := useV3
	useV3 = on && v3Supported
	return func() { useV3 = old }
}
