package solve

// The reference solvers, exported to the black-box tests only.

// CountDLX counts the solutions of g up to limit with Algorithm X and
// returns the first one found.
func CountDLX(g Grid, limit int) (int, Grid) { return countDLX(g, limit) }

// CountBacktrack counts the solutions of g up to limit with the plain
// backtracker; ok is false when it gave up after maxNodes nodes.
func CountBacktrack(g Grid, limit, maxNodes int) (n int, ok bool) {
	return countBacktrack(g, limit, maxNodes)
}
