package solve

import (
	"math/bits"
	"math/rand/v2"
	"sync"
)

// Stats counts the work of the last call on a Solver. The counts depend
// only on the grid (and the rng state for SolveRandom), never on the
// machine, so they can grade a puzzle's search effort.
type Stats struct {
	Nodes   int // positions the search propagated, the root included
	Guesses int // cells at which the search had to branch
}

// Solver is the fast solver, reusable so that a caller in a loop pays no
// set-up: its methods do not allocate. The zero value is ready to use. A
// Solver is not safe for concurrent use.
type Solver struct {
	limit, count int
	// keep asks the search to write its first solution to first: Count
	// returns none and skips the write.
	keep     bool
	first    Grid
	stats    Stats
	rng      *rand.Rand
	maxNodes int
	// stack holds the open branch points of the search, deepest last.
	stack [81]frame
}

// frame is an open branch point: the position before the branch and the
// candidates of the branch cell still to try.
type frame struct {
	s    board
	b    int
	c    uint
	m    uint32
	cand uint32 // all the candidates of the cell in s
}

// reset prepares v for a new search stopping at limit solutions.
func (v *Solver) reset(limit int, rng *rand.Rand, maxNodes int) {
	v.limit, v.count, v.rng, v.maxNodes = limit, 0, rng, maxNodes
	v.keep = true
	v.stats = Stats{}
}

// run searches from g and returns the number of solutions found.
func (v *Solver) run(g *Grid) int {
	var s board
	if v.limit <= 0 || !s.load(g) {
		return 0
	}
	v.search(&s)
	return v.count
}

// Count returns the number of solutions of g, stopping at limit (limit 2
// is the uniqueness check). A grid whose givens clash has none.
func (v *Solver) Count(g Grid, limit int) int {
	v.reset(limit, nil, 0)
	v.keep = false
	return v.run(&g)
}

// CountSolution is Count that also returns the first solution it finds,
// which is g's only one when the count is 1 (a zero Grid when it is 0),
// so that a caller that checks uniqueness and then needs the solution
// searches once. Its Stats are Count's.
func (v *Solver) CountSolution(g Grid, limit int) (int, Grid) {
	v.reset(limit, nil, 0)
	if n := v.run(&g); n > 0 {
		return n, v.first
	}
	return 0, Grid{}
}

// Solve returns the first solution of g, if it has one.
func (v *Solver) Solve(g Grid) (Grid, bool) {
	v.reset(1, nil, 0)
	if v.run(&g) == 0 {
		return Grid{}, false
	}
	return v.first, true
}

// SolveRandom returns a solution of g found with the digits tried in a
// random order drawn from rng, so that an empty or sparse grid yields a
// random terminal grid; the same rng state gives the same grid (a nil
// rng tries digits in increasing order). It gives up after maxNodes
// search nodes, counted as in Stats (0 means no limit), and then reports
// false, as it does when g has no solution. A node is a propagated
// position, not a cell: from the empty grid a search takes about 50, from
// 11 random givens about 35.
func (v *Solver) SolveRandom(g Grid, rng *rand.Rand, maxNodes int) (Grid, bool) {
	v.reset(1, rng, maxNodes)
	if v.run(&g) == 0 {
		return Grid{}, false
	}
	return v.first, true
}

// HasOtherSolution reports whether g has a solution in which cell holds a
// digit other than digit. When g, with digit at cell, has exactly one
// solution, this is the dig-hole uniqueness check for emptying cell: one
// search with that candidate removed, stopping at the first solution.
func (v *Solver) HasOtherSolution(g Grid, cell int, digit uint8) bool {
	v.reset(1, nil, 0)
	v.keep = false
	g[cell] = 0
	// Early in a dig the cell's peers usually hold every other digit:
	// then no other digit can go there, and no search is needed.
	var seen uint16
	for _, p := range peers[cell] {
		seen |= 1 << g[p]
	}
	if seen|1<<digit|1 == 0x3ff {
		return false
	}
	var s board
	if !s.load(&g) {
		return false
	}
	if digit >= 1 && digit <= 9 {
		b, c := cell/27, cell%27
		x := b*10 + int(digit) - 1
		s.f[x] &^= 1 << c
		s.dirty |= 1 << x
	}
	v.search(&s)
	return v.count > 0
}

// Stats returns the work done by the last call.
func (v *Solver) Stats() Stats { return v.stats }

// search counts the solutions below position s, which it changes. It
// branches on one cell at a time, keeping the open branch points on
// v.stack; the last candidate of a cell is tried in place, without a copy.
func (v *Solver) search(s *board) {
	depth := 0
	var biv [3]uint32
	for {
		v.stats.Nodes++
		if v.maxNodes > 0 && v.stats.Nodes > v.maxNodes {
			return
		}
		ok := s.propagate(&biv)
		if ok && s.solved() {
			if v.count == 0 && v.keep {
				s.grid(&v.first)
			}
			if v.count++; v.count >= v.limit {
				return
			}
			ok = false
		}
		if ok {
			b, c, m := s.branch(&biv)
			v.stats.Guesses++
			d := v.digit(m)
			f := &v.stack[depth]
			f.s, f.b, f.c, f.m, f.cand = *s, b, c, m&^(1<<d), m
			depth++
			s.placeCands(b, d, c, m)
			continue
		}
		if depth == 0 {
			return
		}
		f := &v.stack[depth-1]
		*s = f.s
		d := v.digit(f.m)
		if f.m &^= 1 << d; f.m == 0 {
			depth--
		}
		s.placeCands(f.b, d, f.c, f.cand)
	}
}

// digit picks the next digit to try among the candidates m: the smallest,
// or a uniformly random one when v has an rng. It is small enough to be
// inlined in the search loop; the random draw is a call.
func (v *Solver) digit(m uint32) int {
	if v.rng == nil {
		return bits.TrailingZeros32(m)
	}
	return v.randomDigit(m)
}

// randomDigit picks one of the candidates m uniformly with v's rng.
func (v *Solver) randomDigit(m uint32) int {
	for k := v.rng.IntN(bits.OnesCount32(m)); k > 0; k-- {
		m &= m - 1
	}
	return bits.TrailingZeros32(m)
}

// solvers keeps Solvers for the package-level functions: a Solver's
// search stack is about 14 KB, too much to zero on every call.
var solvers = sync.Pool{New: func() any { return new(Solver) }}

// Solve returns the first solution of g, if it has one. It is safe for
// concurrent use.
func Solve(g Grid) (Grid, bool) {
	v := solvers.Get().(*Solver)
	sol, ok := v.Solve(g)
	solvers.Put(v)
	return sol, ok
}

// Count returns the number of solutions of g, stopping at limit (limit 2
// is the uniqueness check). A grid whose givens clash has none. It is
// safe for concurrent use.
func Count(g Grid, limit int) int {
	v := solvers.Get().(*Solver)
	n := v.Count(g, limit)
	solvers.Put(v)
	return n
}
