package solve

import "math/rand/v2"

// Stats counts the work of the last call on a Solver. The counts are
// deterministic, so they can grade a puzzle without depending on the machine.
type Stats struct {
	Nodes   int // search nodes visited
	Guesses int // branches taken at cells with two or more candidates
}

// Solver is a reusable solver: its methods do no per-call allocation.
// The zero value is ready to use. A Solver is not safe for concurrent use.
type Solver struct {
	s state
}

// Count returns the number of solutions of g, stopping at limit.
func (v *Solver) Count(g Grid, limit int) int {
	v.s = state{}
	if !v.s.load(g) {
		return 0
	}
	v.s.limit = limit
	v.s.search()
	return v.s.count
}

// Solve returns the first solution of g, if it has one.
func (v *Solver) Solve(g Grid) (Grid, bool) {
	n := v.Count(g, 1)
	return v.s.first, n > 0
}

// SolveRandom returns a solution of g found with the digits tried in a
// random order drawn from rng, so that an empty or sparse grid yields a
// random terminal grid. It gives up after maxNodes search nodes (0 means
// no limit) and then reports false, as it does when g has no solution.
func (v *Solver) SolveRandom(g Grid, rng *rand.Rand, maxNodes int) (Grid, bool) {
	v.s = state{rng: rng, maxNodes: maxNodes}
	if !v.s.load(g) {
		return Grid{}, false
	}
	v.s.limit = 1
	v.s.search()
	return v.s.first, v.s.count > 0
}

// Stats returns the work done by the last call.
func (v *Solver) Stats() Stats { return v.s.stats }

// Solve returns the first solution of g, if it has one.
func Solve(g Grid) (Grid, bool) {
	var s state
	if !s.load(g) {
		return Grid{}, false
	}
	s.limit = 1
	s.search()
	return s.first, s.count > 0
}

// Count returns the number of solutions of g, stopping at limit
// (limit 2 is the uniqueness check).
func Count(g Grid, limit int) int {
	var s state
	if !s.load(g) {
		return 0
	}
	s.limit = limit
	s.search()
	return s.count
}

// state is a plain bitmask backtracker: a placeholder for the fast solver.
type state struct {
	g             Grid
	row, col, box [9]uint16
	limit, count  int
	first         Grid
	stats         Stats
	rng           *rand.Rand
	maxNodes      int
}

func (s *state) load(g Grid) bool {
	s.g = g
	for i, v := range g {
		if v == 0 {
			continue
		}
		m := uint16(1) << v
		r, c, b := i/9, i%9, i/27*3+i%9/3
		if (s.row[r]|s.col[c]|s.box[b])&m != 0 {
			return false
		}
		s.row[r] |= m
		s.col[c] |= m
		s.box[b] |= m
	}
	return true
}

func (s *state) search() {
	s.stats.Nodes++
	if s.maxNodes > 0 && s.stats.Nodes > s.maxNodes {
		s.limit = 0 // abandon the search
		return
	}
	best, bestN, bestM := -1, 10, uint16(0)
	for i, v := range s.g {
		if v != 0 {
			continue
		}
		r, c, b := i/9, i%9, i/27*3+i%9/3
		m := ^(s.row[r] | s.col[c] | s.box[b]) & 0x3fe
		n := 0
		for x := m; x != 0; x &= x - 1 {
			n++
		}
		if n < bestN {
			best, bestN, bestM = i, n, m
			if n == 0 {
				return
			}
		}
	}
	if best < 0 {
		if s.count == 0 {
			s.first = s.g
		}
		s.count++
		return
	}
	r, c, b := best/9, best%9, best/27*3+best%9/3
	if bestN > 1 {
		s.stats.Guesses++
	}
	order := [9]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9}
	if s.rng != nil {
		s.rng.Shuffle(9, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	for _, v := range order {
		m := uint16(1) << v
		if bestM&m == 0 {
			continue
		}
		s.g[best] = v
		s.row[r] |= m
		s.col[c] |= m
		s.box[b] |= m
		s.search()
		s.row[r] &^= m
		s.col[c] &^= m
		s.box[b] &^= m
		s.g[best] = 0
		if s.count >= s.limit {
			return
		}
	}
}

// HasOtherSolution reports whether g has a solution in which cell holds a
// digit other than digit. When g plus digit at cell has exactly one
// solution, this is the dig-hole uniqueness check for emptying cell
// ("reduction to absurdity"): one search that stops at the first
// solution instead of a count to 2.
func (v *Solver) HasOtherSolution(g Grid, cell int, digit uint8) bool {
	g[cell] = 0
	for d := uint8(1); d <= 9; d++ {
		if d == digit {
			continue
		}
		g[cell] = d
		if g.Check() == nil && v.Count(g, 1) > 0 {
			return true
		}
	}
	return false
}
