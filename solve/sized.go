package solve

import (
	"math/bits"
	"math/rand/v2"

	"sudokubank/grid"
)

// Sized is the exact solver for grids of every shape of package grid
// (the 9x9 Solver stays the fast path for 9x9). It propagates naked and
// hidden singles and branches on the cell with the fewest candidates.
// The zero value is ready to use; once it has seen a shape, its calls on
// grids of that shape allocate only the grids they return. A Sized is
// not safe for concurrent use.
type Sized struct {
	shape grid.Shape
	n     int    // values per unit; 0 until a shape is set up
	cells int    // cells per grid
	all   uint32 // the candidate bits of every value
	np    int    // peers per cell
	peers []uint16
	units []uint16 // 3N units of N cells, rows then columns then boxes

	// cur is the position being searched: a candidate mask per cell
	// (bit v-1 for value v, with solved set once the cell holds a
	// value), then the number of cells still open.
	cur []uint32
	// saved holds, for each open branch point, the position before the
	// branch; frames the branch cell and the candidates left to try.
	saved  []uint32
	frames []sizedFrame
	// queue holds placements that propagation has found but not yet
	// made: cell<<5 | value index.
	queue []uint32

	limit, count int
	keep         bool    // write the first solution to first
	first        []uint8 // the first solution found, when keep
	rng          *rand.Rand
	nodes        int // search nodes of the last call, over every restart
	budget       int // nodes the current attempt may still use; <0: none
	aborted      bool
}

// sizedFrame is an open branch point of Sized's search.
type sizedFrame struct {
	cell int
	left uint32 // candidates of cell not yet tried
}

// solved marks a cell's mask once the cell holds its value.
const solved = 1 << 31

// setup builds the tables of shape s, or reports that s is not a shape
// of grid.Shapes.
func (v *Sized) setup(s grid.Shape) bool {
	if v.n != 0 && s == v.shape {
		return true
	}
	if !s.Valid() {
		return false
	}
	n, cells := s.N, s.Cells()
	v.shape, v.n, v.cells = s, n, cells
	v.all = 1<<n - 1
	v.np = len(s.Peers(0))
	v.peers = make([]uint16, 0, cells*v.np)
	for c := range cells {
		for _, p := range s.Peers(c) {
			v.peers = append(v.peers, uint16(p))
		}
	}
	v.units = make([]uint16, 0, 3*n*n)
	for _, u := range s.Units() {
		for _, c := range u {
			v.units = append(v.units, uint16(c))
		}
	}
	v.cur = make([]uint32, cells+1)
	v.saved = v.saved[:0]
	v.frames = v.frames[:0]
	v.queue = make([]uint32, 0, 2*cells)
	v.first = make([]uint8, cells)
	return true
}

// load sets cur to g's givens, queued but not yet propagated, or reports
// that g is not a grid of a known shape with values in range.
func (v *Sized) load(g grid.Grid) bool {
	if !v.setup(g.Shape) || len(g.Cells) != v.cells {
		return false
	}
	v.queue = v.queue[:0]
	for c, x := range g.Cells {
		v.cur[c] = v.all
		if x == 0 {
			continue
		}
		if int(x) > v.n {
			return false
		}
		v.queue = append(v.queue, uint32(c)<<5|uint32(x-1))
	}
	v.cur[v.cells] = uint32(v.cells)
	return true
}

// assign places the value of bit at cell c in cur and removes it from
// the peers, queueing those left with one candidate. It reports false
// on a contradiction.
func (v *Sized) assign(c int, bit uint32) bool {
	cur := v.cur
	x := cur[c]
	if x&bit == 0 {
		return false
	}
	if x&solved != 0 {
		return true
	}
	cur[c] = bit | solved
	cur[v.cells]--
	for _, p := range v.peers[c*v.np : (c+1)*v.np] {
		y := cur[p]
		if y&bit == 0 {
			continue
		}
		if y&solved != 0 {
			return false
		}
		y &^= bit
		cur[p] = y
		if y&(y-1) == 0 {
			if y == 0 {
				return false
			}
			v.queue = append(v.queue, uint32(p)<<5|uint32(bits.TrailingZeros32(y)))
		}
	}
	return true
}

// propagate makes the queued placements and then every naked and hidden
// single until none is left. It reports false on a contradiction.
func (v *Sized) propagate() bool {
	for {
		for i := 0; i < len(v.queue); i++ {
			q := v.queue[i]
			if !v.assign(int(q>>5), 1<<(q&31)) {
				v.queue = v.queue[:0]
				return false
			}
		}
		v.queue = v.queue[:0]
		if v.cur[v.cells] == 0 {
			return true
		}
		if !v.hiddenSingles() {
			v.queue = v.queue[:0]
			return false
		}
		if len(v.queue) == 0 {
			return true
		}
	}
}

// hiddenSingles queues every value that has one place left in a unit
// and reports false when a value has none.
func (v *Sized) hiddenSingles() bool {
	cur, n := v.cur, v.n
	for u := 0; u < 3*n; u++ {
		unit := v.units[u*n : (u+1)*n]
		var once, twice, fixed uint32
		for _, c := range unit {
			x := cur[c]
			if x&solved != 0 {
				fixed |= x
				continue
			}
			twice |= once & x
			once |= x
		}
		fixed &^= solved
		if once|fixed != v.all {
			return false
		}
		// A value placed in the unit is gone from its open cells.
		for h := once &^ twice; h != 0; h &= h - 1 {
			b := h & -h
			for _, c := range unit {
				if cur[c]&b != 0 {
					v.queue = append(v.queue, uint32(c)<<5|uint32(bits.TrailingZeros32(b)))
					break
				}
			}
		}
	}
	return true
}

// branch returns an open cell with the fewest candidates.
func (v *Sized) branch() int {
	best, bestN := -1, 99
	for c, x := range v.cur[:v.cells] {
		if x&solved != 0 {
			continue
		}
		if k := bits.OnesCount32(x); k < bestN {
			best, bestN = c, k
			if k <= 2 {
				break
			}
		}
	}
	return best
}

// pick returns the bit of the next value to try among m: the lowest, or
// a uniformly random one when v has an rng.
func (v *Sized) pick(m uint32) uint32 {
	if v.rng != nil {
		for k := v.rng.IntN(bits.OnesCount32(m)); k > 0; k-- {
			m &= m - 1
		}
	}
	return m & -m
}

// search counts the solutions below cur, whose givens are queued,
// stopping at v.limit or when the attempt's node budget runs out. The
// last candidate of a branch cell is tried in place, without a copy.
func (v *Sized) search() {
	stride := v.cells + 1
	depth := 0
	for {
		v.nodes++
		if v.budget >= 0 {
			if v.budget == 0 {
				v.aborted = true
				return
			}
			v.budget--
		}
		ok := v.propagate()
		if ok && v.cur[v.cells] == 0 {
			if v.count == 0 && v.keep {
				for c, x := range v.cur[:v.cells] {
					v.first[c] = uint8(bits.TrailingZeros32(x&^solved) + 1)
				}
			}
			if v.count++; v.count >= v.limit {
				return
			}
			ok = false
		}
		if ok {
			c := v.branch()
			m := v.cur[c]
			b := v.pick(m)
			if depth == len(v.frames) {
				v.frames = append(v.frames, sizedFrame{})
				v.saved = append(v.saved, make([]uint32, stride)...)
			}
			v.frames[depth] = sizedFrame{c, m &^ b}
			copy(v.saved[depth*stride:(depth+1)*stride], v.cur)
			depth++
			v.queue = append(v.queue, uint32(c)<<5|uint32(bits.TrailingZeros32(b)))
			continue
		}
		if depth == 0 {
			return
		}
		f := &v.frames[depth-1]
		copy(v.cur, v.saved[(depth-1)*stride:depth*stride])
		b := v.pick(f.left)
		c := f.cell
		if f.left &^= b; f.left == 0 {
			depth--
		}
		v.queue = append(v.queue, uint32(c)<<5|uint32(bits.TrailingZeros32(b)))
	}
}

// run searches g for up to limit solutions with no node budget and
// returns how many it found.
func (v *Sized) run(g grid.Grid, limit int, keep bool) int {
	v.limit, v.count, v.keep, v.rng = limit, 0, keep, nil
	v.nodes, v.budget, v.aborted = 0, -1, false
	if limit <= 0 || !v.load(g) {
		return 0
	}
	v.search()
	return v.count
}

// Count returns the number of solutions of g, stopping at limit (limit 2
// is the uniqueness check). A grid whose givens clash, or that is not a
// grid of one of grid.Shapes, has none.
func (v *Sized) Count(g grid.Grid, limit int) int {
	return v.run(g, limit, false)
}

// Solution returns the first solution of g, if it has one.
func (v *Sized) Solution(g grid.Grid) (grid.Grid, bool) {
	if v.run(g, 1, true) == 0 {
		return grid.Grid{}, false
	}
	return v.result(), true
}

// result returns the first solution as a new grid.
func (v *Sized) result() grid.Grid {
	out := grid.New(v.shape)
	copy(out.Cells, v.first)
	return out
}

// RandomSolution returns a solution of g found with values tried in a
// random order drawn from rng, so that an empty grid yields a random
// terminal grid; the same rng state gives the same grid. A search that
// wanders restarts with a larger node budget, so it ends on every grid,
// and reports false when g has no solution.
func (v *Sized) RandomSolution(g grid.Grid, rng *rand.Rand) (grid.Grid, bool) {
	v.limit, v.keep, v.rng, v.nodes = 1, true, rng, 0
	if !v.setup(g.Shape) {
		return grid.Grid{}, false
	}
	for budget := 2 * v.cells; ; budget *= 2 {
		v.count, v.budget, v.aborted = 0, budget, false
		if !v.load(g) {
			return grid.Grid{}, false
		}
		v.search()
		if v.count > 0 {
			return v.result(), true
		}
		if !v.aborted {
			return grid.Grid{}, false
		}
	}
}

// Nodes returns the search nodes of the last call, over every restart:
// positions propagated, the root included. It depends only on the grid
// (and the rng for RandomSolution), never on the machine.
func (v *Sized) Nodes() int { return v.nodes }
