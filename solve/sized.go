package solve

import (
	"math/bits"
	"math/rand/v2"

	"sudokubank/grid"
)

// Sized is the exact solver for grids of every shape of package grid
// (Solver stays the fast path for 9x9). It propagates singles, locked
// candidates and, from 16x16 up, pairs, and branches on a cell with two
// candidates or the fewest places of a value. The zero value is ready to
// use; once it has seen a shape, its calls on grids of that shape
// allocate only the grids they return. A Sized is not safe for
// concurrent use.
type Sized struct {
	shape   grid.Shape
	n       int    // values per unit; 0 until a shape is set up
	few     uint8  // the most places a value can have in one box's line
	pairs   bool   // look for naked and hidden pairs
	cells   int    // cells per grid
	all     uint32 // the candidate bits of every value
	np      int    // peers per cell
	peers   []uint16
	units   []uint16 // 3N units of N cells, rows then columns then boxes
	unitsOf []uint8  // the row, column and box of each cell

	// cur is the position being searched: a candidate mask per cell
	// (bit v-1 for value v, with solved set once the cell holds a
	// value), the number of cells still open, then per unit the values
	// placed in it. places counts, per unit and value (u*N + v-1), the
	// open cells of the unit where the value can go.
	cur    []uint32
	places []uint8
	// saved and savedPlaces hold, for each open branch point, the
	// position before the branch; frames the branch cell and the
	// candidates left to try.
	saved       []uint32
	savedPlaces []uint8
	frames      []sizedFrame
	// lockq holds the values whose places in a unit have just fallen to
	// few or fewer, so that they may lie in one line or box or form a
	// hidden pair: unit<<5 | value index.
	lockq []uint32
	// inq holds, per unit, the values with an entry in lockq.
	inq []uint32
	// pairq holds the cells just left with two candidates, which may form
	// a naked pair; it waits until lockq is empty.
	pairq []uint16
	// queue holds what propagation has found but not yet placed: a
	// value for a cell (cell<<5 | value index) or a value with one place
	// left in a unit (hidden | unit<<5 | value index).
	queue []uint32

	limit, count int
	keep         bool    // write the first solution to first
	first        []uint8 // the first solution found, when keep
	rng          *rand.Rand
	hint         []uint8 // a solution whose values pickIn tries first, or nil
	nodes        int     // search nodes of the last call, over every restart
	budget       int     // nodes the current attempt may still use; <0: none
	aborted      bool
}

// sizedFrame is an open branch point of Sized's search: the values of
// one cell, or the places of one value in a unit.
type sizedFrame struct {
	unit int    // the unit whose places are tried, or -1 for a cell
	cell int    // the cell whose values are tried
	bit  uint32 // the value whose places are tried
	left uint32 // values (or places) not yet tried
}

const (
	// solved marks a cell's mask once the cell holds its value.
	solved = 1 << 31
	// hidden marks a queue entry that names a unit, not a cell.
	hidden = 1 << 31
)

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
	v.few = uint8(max(s.BoxRows, s.BoxCols))
	// Below 16x16 the searches are too short to repay looking for pairs.
	v.pairs = n >= 16
	v.np = len(s.Peers(0))
	v.peers = make([]uint16, 0, cells*v.np)
	v.unitsOf = make([]uint8, 0, 3*cells)
	for c := range cells {
		for _, p := range s.Peers(c) {
			v.peers = append(v.peers, uint16(p))
		}
		v.unitsOf = append(v.unitsOf, uint8(s.Row(c)), uint8(n+s.Col(c)), uint8(2*n+s.Box(c)))
	}
	v.units = make([]uint16, 0, 3*n*n)
	for _, u := range s.Units() {
		for _, c := range u {
			v.units = append(v.units, uint16(c))
		}
	}
	v.cur = make([]uint32, v.stride())
	v.places = make([]uint8, 3*n*n)
	v.saved, v.savedPlaces, v.frames = nil, nil, nil
	v.queue = make([]uint32, 0, 4*cells)
	v.lockq = make([]uint32, 0, 4*cells)
	v.inq = make([]uint32, 3*n)
	v.pairq = make([]uint16, 0, cells)
	v.first = make([]uint8, cells)
	return true
}

// stride returns the length of cur: the cells, the open count and the
// placed values of every unit.
func (v *Sized) stride() int { return v.cells + 1 + 3*v.n }

// load sets cur to g's givens, but for cell skip's, and the candidates
// they leave, with the singles they make queued. It reports false when g
// is not a grid of a known shape with values in range, or its givens
// contradict each other.
func (v *Sized) load(g grid.Grid, skip int) bool {
	if !v.setup(g.Shape) || len(g.Cells) != v.cells {
		return false
	}
	n, cur := v.n, v.cur
	placed := cur[v.cells+1:]
	clear(placed)
	v.queue = v.queue[:0]
	v.resetLock()
	open := 0
	for c, x := range g.Cells {
		if x == 0 || c == skip {
			open++
			continue
		}
		if int(x) > n {
			return false
		}
		bit := uint32(1) << (x - 1)
		us := v.unitsOf[3*c : 3*c+3]
		if (placed[us[0]]|placed[us[1]]|placed[us[2]])&bit != 0 {
			return false
		}
		placed[us[0]] |= bit
		placed[us[1]] |= bit
		placed[us[2]] |= bit
		cur[c] = bit | solved
	}
	cur[v.cells] = uint32(open)
	clear(v.places)
	for c, x := range g.Cells {
		if x != 0 && c != skip {
			continue
		}
		us := v.unitsOf[3*c : 3*c+3]
		m := v.all &^ (placed[us[0]] | placed[us[1]] | placed[us[2]])
		cur[c] = m
		if m&(m-1) == 0 {
			if m == 0 {
				return false
			}
			v.queue = append(v.queue, uint32(c)<<5|uint32(bits.TrailingZeros32(m)))
		} else if v.pairs && bits.OnesCount32(m) == 2 {
			v.pairq = append(v.pairq, uint16(c))
		}
		for _, u := range us {
			row := v.places[int(u)*n : int(u)*n+n]
			for k := m; k != 0; k &= k - 1 {
				row[bits.TrailingZeros32(k)]++
			}
		}
	}
	for u := range 3 * n {
		row := v.places[u*n : u*n+n]
		for k := v.all &^ placed[u]; k != 0; k &= k - 1 {
			if i := bits.TrailingZeros32(k); row[i] <= v.few {
				switch row[i] {
				case 0:
					return false
				case 1:
					v.queue = append(v.queue, hidden|uint32(u)<<5|uint32(i))
				default:
					v.pushLock(int(u), i)
				}
			}
		}
	}
	return true
}

// pushLock queues value index i of unit u for locked, once.
func (v *Sized) pushLock(u, i int) {
	if v.inq[u]&(1<<i) == 0 {
		v.inq[u] |= 1 << i
		v.lockq = append(v.lockq, uint32(u)<<5|uint32(i))
	}
}

// resetLock empties lockq.
func (v *Sized) resetLock() {
	v.lockq, v.pairq = v.lockq[:0], v.pairq[:0]
	clear(v.inq)
}

// drop removes the candidates m from the places counts of open cell c,
// queueing the values left with one place in a unit. It reports false
// when one is left with none.
func (v *Sized) drop(c int, m uint32) bool {
	n, placed := v.n, v.cur[v.cells+1:]
	for _, u := range v.unitsOf[3*c : 3*c+3] {
		// The places of a value the unit holds are never read again.
		row := v.places[int(u)*n : int(u)*n+n]
		for k := m &^ placed[u]; k != 0; k &= k - 1 {
			i := bits.TrailingZeros32(k)
			row[i]--
			if row[i] <= v.few {
				switch row[i] {
				case 0:
					return false
				case 1:
					v.queue = append(v.queue, hidden|uint32(u)<<5|uint32(i))
				default:
					v.pushLock(int(u), i)
				}
			}
		}
	}
	return true
}

// remove takes the candidates m, some of which open cell c has, from c.
// It reports false on a contradiction.
func (v *Sized) remove(c int, m uint32) bool {
	x := v.cur[c]
	m &= x
	x &^= m
	v.cur[c] = x
	if y := x & (x - 1); y == 0 {
		if x == 0 {
			return false
		}
		v.queue = append(v.queue, uint32(c)<<5|uint32(bits.TrailingZeros32(x)))
	} else if v.pairs && y&(y-1) == 0 {
		v.pairq = append(v.pairq, uint16(c))
	}
	return v.drop(c, m)
}

// assign places the value of bit at cell c in cur and removes it from
// the peers. It reports false on a contradiction.
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
	placed := cur[v.cells+1:]
	for _, u := range v.unitsOf[3*c : 3*c+3] {
		placed[u] |= bit
	}
	if !v.drop(c, x) {
		return false
	}
	for _, p := range v.peers[c*v.np : (c+1)*v.np] {
		y := cur[p]
		if y&bit == 0 {
			continue
		}
		if y&solved != 0 || !v.remove(int(p), bit) {
			return false
		}
	}
	return true
}

// place makes the queue entry q: a value for a cell, or a value at the
// one place left to it in a unit.
func (v *Sized) place(q uint32) bool {
	bit := uint32(1) << (q & 31)
	if q&hidden == 0 {
		return v.assign(int(q>>5), bit)
	}
	u := int(q&^hidden) >> 5
	if v.cur[v.cells+1+u]&bit != 0 {
		return true
	}
	for _, c := range v.units[u*v.n : u*v.n+v.n] {
		if x := v.cur[c]; x&bit != 0 && x&solved == 0 {
			return v.assign(int(c), bit)
		}
	}
	return false
}

// propagate makes the queued placements and then every naked and hidden
// single and locked candidate until none is left. It reports false on a
// contradiction.
func (v *Sized) propagate() bool {
	for {
		for i := 0; i < len(v.queue); i++ {
			if !v.place(v.queue[i]) {
				v.queue = v.queue[:0]
				v.resetLock()
				return false
			}
		}
		v.queue = v.queue[:0]
		if v.cur[v.cells] == 0 || v.rng != nil {
			// Random fills restart rather than reason further.
			v.resetLock()
			return true
		}
		for len(v.queue) == 0 && len(v.lockq)+len(v.pairq) > 0 {
			var ok bool
			if k := len(v.lockq) - 1; k >= 0 {
				q := v.lockq[k]
				v.lockq = v.lockq[:k]
				v.inq[q>>5] &^= 1 << (q & 31)
				ok = v.locked(int(q>>5), uint32(1)<<(q&31))
			} else {
				k := len(v.pairq) - 1
				c := v.pairq[k]
				v.pairq = v.pairq[:k]
				ok = v.nakedPair(int(c))
			}
			if !ok {
				v.queue = v.queue[:0]
				v.resetLock()
				return false
			}
		}
		if len(v.queue) == 0 {
			return true
		}
	}
}

// locked rules out the candidates that locked candidates allow when the
// value of bit has few places left in unit u: if they lie in one line of
// a box, or one box of a line, the value is gone from the rest of the
// other unit. It reports false on a contradiction.
func (v *Sized) locked(u int, bit uint32) bool {
	n, cur := v.n, v.cur
	if cur[v.cells+1+u]&bit != 0 {
		return true
	}
	// Of the units holding every place, the one that is not u.
	same := [3]int{-1, -1, -1}
	k, at := 0, [2]int{}
	for _, c := range v.units[u*n : u*n+n] {
		if x := cur[c]; x&bit == 0 || x&solved != 0 {
			continue
		}
		if k < 2 {
			at[k] = int(c)
		}
		k++
		for k, w := range v.unitsOf[3*int(c) : 3*int(c)+3] {
			if same[k] == -1 {
				same[k] = int(w)
			} else if same[k] != int(w) {
				same[k] = -2
			}
		}
	}
	for _, w := range same {
		if w < 0 || w == u || (w < 2*n) == (u < 2*n) {
			continue
		}
		for _, c := range v.units[w*n : w*n+n] {
			x := cur[c]
			if x&bit == 0 || x&solved != 0 || v.inUnit(int(c), u) {
				continue
			}
			if !v.remove(int(c), bit) {
				return false
			}
		}
	}
	if k == 2 && v.pairs {
		return v.hiddenPair(u, bit, at[0], at[1])
	}
	return true
}

// hiddenPair rules out the other candidates of cells a and b, the two
// places of the value of bit in unit u, when another value of u has
// those two places only. It reports false on a contradiction.
func (v *Sized) hiddenPair(u int, bit uint32, a, b int) bool {
	n, cur := v.n, v.cur
	row := v.places[u*n : u*n+n]
	for k := cur[a] & cur[b] &^ bit &^ cur[v.cells+1+u]; k != 0; k &= k - 1 {
		if i := bits.TrailingZeros32(k); row[i] == 2 {
			keep := bit | 1<<i
			if cur[a]&solved != 0 || cur[b]&solved != 0 {
				return true
			}
			return v.remove(a, cur[a]&^keep) && v.remove(b, cur[b]&^keep)
		}
	}
	return true
}

// nakedPair rules out the two candidates of cell c from the rest of each
// unit where another cell has the same two. It reports false on a
// contradiction.
func (v *Sized) nakedPair(c int) bool {
	n, cur := v.n, v.cur
	x := cur[c]
	if x&solved != 0 || bits.OnesCount32(x) != 2 {
		return true
	}
	for _, u := range v.unitsOf[3*c : 3*c+3] {
		unit := v.units[int(u)*n : int(u)*n+n]
		twin := -1
		for _, d := range unit {
			if int(d) != c && cur[d] == x {
				twin = int(d)
				break
			}
		}
		if twin < 0 {
			continue
		}
		for _, d := range unit {
			if y := cur[d]; int(d) != c && int(d) != twin && y&solved == 0 && y&x != 0 {
				if !v.remove(int(d), x) {
					return false
				}
			}
		}
		if cur[c] != x {
			return true
		}
	}
	return true
}

// inUnit reports whether cell c lies in unit u.
func (v *Sized) inUnit(c, u int) bool {
	us := v.unitsOf[3*c : 3*c+3]
	return int(us[0]) == u || int(us[1]) == u || int(us[2]) == u
}

// branch returns the branch point to split the search on: of the
// bivalue cells, the one whose values have the fewest places in its
// units, so that its branches propagate furthest; without one, the open
// cell or the unit's value with the fewest branches, values winning ties.
func (v *Sized) branch() sizedFrame {
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
	n := v.n
	if bestN == 2 {
		score := 1 << 30
		for c := best; c < v.cells; c++ {
			x := v.cur[c]
			if x&solved != 0 || bits.OnesCount32(x) != 2 {
				continue
			}
			sc := 0
			for _, u := range v.unitsOf[3*c : 3*c+3] {
				row := v.places[int(u)*n : int(u)*n+n]
				sc += int(row[bits.TrailingZeros32(x)]) + int(row[31-bits.LeadingZeros32(x)])
			}
			if sc < score {
				score, best = sc, c
			}
		}
		return sizedFrame{unit: -1, cell: best, left: v.cur[best]}
	}
	if v.rng != nil {
		return sizedFrame{unit: -1, cell: best, left: v.cur[best]}
	}
	placed := v.cur[v.cells+1:]
	bu, bi := -1, 0
	for u := range 3 * n {
		row := v.places[u*n : u*n+n]
		for k := v.all &^ placed[u]; k != 0; k &= k - 1 {
			if i := bits.TrailingZeros32(k); int(row[i]) <= bestN && (bu < 0 || int(row[i]) < bestN) {
				bu, bi, bestN = u, i, int(row[i])
			}
		}
	}
	if bu < 0 {
		return sizedFrame{unit: -1, cell: best, left: v.cur[best]}
	}
	bit := uint32(1) << bi
	var left uint32
	for k, c := range v.units[bu*n : bu*n+n] {
		if x := v.cur[c]; x&bit != 0 && x&solved == 0 {
			left |= 1 << k
		}
	}
	return sizedFrame{unit: bu, bit: bit, left: left}
}

// try queues the placement that branch k of f makes.
func (v *Sized) try(f *sizedFrame, k uint32) {
	i := bits.TrailingZeros32(k)
	if f.unit < 0 {
		v.queue = append(v.queue, uint32(f.cell)<<5|uint32(i))
		return
	}
	v.queue = append(v.queue, uint32(v.units[f.unit*v.n+i])<<5|uint32(bits.TrailingZeros32(f.bit)))
}

// pickIn returns the next branch of f to try: the hint's, if it has one
// among them, else pick's.
func (v *Sized) pickIn(f *sizedFrame) uint32 {
	if v.hint != nil {
		if f.unit < 0 {
			if b := uint32(1) << (v.hint[f.cell] - 1); f.left&b != 0 {
				return b
			}
		} else {
			for k := f.left; k != 0; k &= k - 1 {
				i := bits.TrailingZeros32(k)
				if uint32(1)<<(v.hint[v.units[f.unit*v.n+i]]-1) == f.bit {
					return 1 << i
				}
			}
		}
	}
	return v.pick(f.left)
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
	stride, pstride := v.stride(), len(v.places)
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
			fr := v.branch()
			b := v.pickIn(&fr)
			fr.left &^= b
			if depth == len(v.frames) {
				v.frames = append(v.frames, sizedFrame{})
				v.saved = append(v.saved, make([]uint32, stride)...)
				v.savedPlaces = append(v.savedPlaces, make([]uint8, pstride)...)
			}
			v.frames[depth] = fr
			copy(v.saved[depth*stride:(depth+1)*stride], v.cur)
			copy(v.savedPlaces[depth*pstride:(depth+1)*pstride], v.places)
			depth++
			v.try(&fr, b)
			continue
		}
		if depth == 0 {
			return
		}
		f := &v.frames[depth-1]
		copy(v.cur, v.saved[(depth-1)*stride:depth*stride])
		copy(v.places, v.savedPlaces[(depth-1)*pstride:depth*pstride])
		v.resetLock()
		b := v.pickIn(f)
		v.try(f, b)
		if f.left &^= b; f.left == 0 {
			depth--
		}
	}
}

// run searches g for up to limit solutions with no node budget and
// returns how many it found.
func (v *Sized) run(g grid.Grid, limit int, keep bool) int {
	v.limit, v.count, v.keep, v.rng = limit, 0, keep, nil
	v.nodes, v.budget, v.aborted = 0, -1, false
	if limit <= 0 || !v.load(g, -1) {
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

// CountWithin is Count with its search held to maxNodes search nodes
// (Nodes), or unbounded when maxNodes is negative, so that counting the
// solutions of any line ends in bounded time. decided is false when the
// budget ran out first; n is then the solutions found so far, fewer
// than limit. The node count depends only on the arguments.
func (v *Sized) CountWithin(g grid.Grid, limit, maxNodes int) (n int, decided bool) {
	v.limit, v.count, v.keep, v.rng = limit, 0, false, nil
	v.nodes, v.budget, v.aborted = 0, max(maxNodes, -1), false
	if limit <= 0 || !v.load(g, -1) {
		return 0, true
	}
	v.search()
	return v.count, !v.aborted
}

// HasOtherSolution reports whether p, with cell emptied, has a solution
// other than solution, a solution of p. When solution is p's only one,
// this is the dig-hole check for emptying cell, cheaper than counting to
// 2: a search with solution's value at cell ruled out that tries
// solution's values first, since the solutions of a puzzle so close to
// unique mostly differ from it in few cells.
func (v *Sized) HasOtherSolution(p grid.Grid, cell int, solution grid.Grid) bool {
	other, _ := v.HasOtherSolutionWithin(p, cell, solution, -1)
	return other
}

// HasOtherSolutionWithin is HasOtherSolution with its search held to
// maxNodes search nodes (Nodes), or unbounded when maxNodes is negative,
// so that a dig's checks end in bounded time on every size. decided is
// false when the budget ran out first: the search found no other solution
// but could not rule one out, and other is then false too. Whenever
// decided is true, other is what HasOtherSolution reports. The node count
// depends only on the arguments, so a budget cuts the same checks on every
// machine.
func (v *Sized) HasOtherSolutionWithin(p grid.Grid, cell int, solution grid.Grid, maxNodes int) (other, decided bool) {
	v.limit, v.count, v.keep, v.rng = 1, 0, false, nil
	v.nodes, v.budget, v.aborted = 0, max(maxNodes, -1), false
	if cell < 0 || cell >= len(p.Cells) || solution.Shape != p.Shape || len(solution.Cells) != len(p.Cells) ||
		!v.setup(p.Shape) || len(p.Cells) != v.cells {
		return false, true
	}
	// Early in a dig the cell's peers usually hold every other value:
	// then none can go there, and no search is needed.
	var seen uint32
	for _, q := range v.peers[cell*v.np : (cell+1)*v.np] {
		seen |= 1 << p.Cells[q] >> 1
	}
	if y := solution.Cells[cell]; y >= 1 && seen|1<<(y-1) == v.all {
		return false, true
	}
	if !v.load(p, cell) {
		return false, true
	}
	if y := solution.Cells[cell]; y >= 1 && int(y) <= v.n && v.cur[cell]&solved == 0 && !v.remove(cell, 1<<(y-1)) {
		return false, true
	}
	v.hint = solution.Cells
	v.search()
	v.hint = nil
	return v.count > 0, !v.aborted
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
// wanders restarts, with node budgets that grow so that it ends on every
// grid, and reports false when g has no solution.
func (v *Sized) RandomSolution(g grid.Grid, rng *rand.Rand) (grid.Grid, bool) {
	v.limit, v.keep, v.rng, v.nodes = 1, true, rng, 0
	if !v.setup(g.Shape) {
		return grid.Grid{}, false
	}
	for i := 1; ; i++ {
		v.count, v.budget, v.aborted = 0, 2*luby(i)*v.cells, false
		if !v.load(g, -1) {
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

// luby returns the i-th term, from 1, of the Luby sequence 1, 1, 2, 1,
// 1, 2, 4, 1, ...: restart budgets in these proportions waste at most a
// logarithmic factor on any distribution of run lengths, and grow
// without bound, so a search on a grid without solutions ends.
func luby(i int) int {
	for k := 1; ; k++ {
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		if i < 1<<k-1 {
			return luby(i - (1<<(k-1) - 1))
		}
	}
}

// Nodes returns the search nodes of the last call, over every restart:
// positions propagated, the root included. It depends only on the grid
// (and the rng for RandomSolution), never on the machine.
func (v *Sized) Nodes() int { return v.nodes }
