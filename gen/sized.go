package gen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"sudokubank/grid"
	"sudokubank/solve"
)

// SizedPuzzle is a dug puzzle of any shape with its unique solution.
type SizedPuzzle struct {
	Grid     grid.Grid // the givens, 0 for an empty cell
	Solution grid.Grid // the terminal grid it was dug from: its only solution
	Minimal  bool      // no single given can be removed without losing uniqueness
	Symmetry Symmetry  // the symmetry its pattern of givens was dug with
}

// SizedDigger digs holes in terminal grids of any shape as Digger does in
// 9x9 ones: a givens bound drawn per dig, a lower bound of givens per row
// and column, the orbits of a symmetry tried once each in the profile's
// order, and a uniqueness check after each removal (solve.Sized looking
// for another solution, unless the givens left force the dug value or the
// removal empties a swap set).
//
// Each search is held to a node budget (CheckNodes), so that a dig ends
// in bounded time on every size: a removal whose check runs out of nodes
// keeps its givens, which never costs uniqueness, and the puzzle is then
// not reported Minimal, since that removal was never ruled out.
//
// The zero value is ready to use and reuses its memory from one puzzle of
// a shape to the next. A SizedDigger is not safe for concurrent use.
type SizedDigger struct {
	// CheckNodes is the most search nodes (solve.Sized.Nodes) one
	// uniqueness check may use: 0 means DefaultCheckNodes of the shape,
	// a negative value no bound.
	CheckNodes int

	s        solve.Sized
	f        sizedFiller
	t        *sizedTables
	b        sizedBoard
	sol      []uint8   // the solution being dug
	solution grid.Grid // sol as a grid, for the solver
	work     grid.Grid // the board with forced cells put back, for the solver

	order      []uint16
	tried      []bool // per orbit
	necessary  []bool // per cell: its dig failed alone
	rows, cols []int  // givens per row and column

	// Swap sets of the solution being dug (see findSwaps): cell c lies in
	// the sets setOf[setStart[c]:setStart[c+1]], set k has setLeft[k]
	// givens left, and emptied sets have none.
	setStart, setOf, setLeft []int32
	emptied                  int
	pairs                    []int32 // scratch: (cell, set) pairs

	cut    bool // a check of this dig ran out of nodes
	budget int  // CheckNodes for the shape being dug

	// Work counters, for tests and benchmarks.
	forcedChecks, searchChecks, swapChecks, cutChecks int
	// onSearch, when set, sees the nodes of every search and whether it
	// was decided: for measuring the budget.
	onSearch func(nodes int, decided bool)
}

// DefaultCheckNodes returns the node budget of one uniqueness check of a
// dig of shape s (SizedDigger.CheckNodes 0), chosen from the nodes of the
// checks of minimal digs. Up to 12x12 no check comes near it (the
// longest of 6,525 12x12 checks took 711 nodes). On 16x16 it cuts about
// one check in 10,000 (the 99.99th percentile of 19,581 checks was 10,225
// nodes, the longest 48,745). On 25x25 the checks of sparse digs split
// in two: those decided in a few hundred nodes, and about half that are
// still open after 20,000; no bound avoids cutting those, and digs cut
// at 200 nodes reach as few givens (about 270) as at 20,000, in seconds
// instead of minutes.
func DefaultCheckNodes(s grid.Shape) int {
	switch {
	case s.N >= 25:
		return 200
	case s.N >= 16:
		return 10000
	default:
		return 20000
	}
}

// ValidateSized reports the first field of p out of range for grids of
// shape s: as Validate, with the givens bounds up to s.Cells(), the row
// and column bound up to s.N, and a symmetry ValidFor s.
func (p Profile) ValidateSized(s grid.Shape) error {
	switch {
	case !s.Valid():
		return fmt.Errorf("profile %q: shape %dx%d in %dx%d boxes: %w", p.Name, s.N, s.N, s.BoxRows, s.BoxCols, grid.ErrSize)
	case p.Sequence >= numSequences:
		return fmt.Errorf("profile %q: unknown sequence %d", p.Name, p.Sequence)
	case p.Symmetry >= numSymmetries:
		return fmt.Errorf("profile %q: unknown symmetry %d", p.Name, p.Symmetry)
	case !p.Symmetry.ValidFor(s):
		return fmt.Errorf("profile %q: symmetry %v needs square boxes, and %v grids have %dx%d boxes", p.Name, p.Symmetry, s, s.BoxRows, s.BoxCols)
	case p.Minimal:
		return nil
	case p.MinGivens < 0 || p.MaxGivens > s.Cells() || p.MinGivens > p.MaxGivens:
		return fmt.Errorf("profile %q: givens range %d-%d is not within 0-%d", p.Name, p.MinGivens, p.MaxGivens, s.Cells())
	case p.RowColMin < 0 || p.RowColMin > s.N:
		return fmt.Errorf("profile %q: row and column lower bound %d is not within 0-%d", p.Name, p.RowColMin, s.N)
	}
	return nil
}

// SizedTerminal returns a random terminal grid of shape s drawn from rng
// by the Las Vegas method (see LasVegasTerminal): random values at a few
// random cells, then a random depth-first fill within a node budget,
// retried until one succeeds. A seed gives the same grid on every
// machine. It panics if s is not one of grid.Shapes.
func SizedTerminal(s grid.Shape, rng *rand.Rand) grid.Grid {
	var f sizedFiller
	return f.terminal(s, rng)
}

// GenerateContext digs a puzzle of shape s with profile p from a new
// terminal grid (SizedTerminal), drawing all randomness from rng. It
// returns an error if p is not valid for s (ValidateSized), or one that
// wraps ctx.Err() when ctx is done first.
func (d *SizedDigger) GenerateContext(ctx context.Context, s grid.Shape, p Profile, rng *rand.Rand) (SizedPuzzle, error) {
	if err := p.ValidateSized(s); err != nil {
		return SizedPuzzle{}, fmt.Errorf("generate: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return SizedPuzzle{}, fmt.Errorf("generate: %w", err)
	}
	return d.DigContext(ctx, d.f.terminal(s, rng), p, rng)
}

// DigContext digs holes in solution, a complete valid grid of any shape,
// following profile p and drawing its random choices from rng, as
// Digger.Dig does: the puzzle has solution as its only solution and its
// givens have the pattern symmetry p.Symmetry. It returns an error if p
// is not valid for the solution's shape (ValidateSized), if solution is
// not a complete valid grid, or, wrapping ctx.Err(), if ctx is done
// first.
func (d *SizedDigger) DigContext(ctx context.Context, solution grid.Grid, p Profile, rng *rand.Rand) (SizedPuzzle, error) {
	s := solution.Shape
	if err := p.ValidateSized(s); err != nil {
		return SizedPuzzle{}, fmt.Errorf("dig: %w", err)
	}
	if err := checkComplete(solution); err != nil {
		return SizedPuzzle{}, fmt.Errorf("dig: %w", err)
	}
	d.load(solution)
	d.findSwaps()
	bound, rcMin := 0, 0
	if !p.Minimal {
		bound = p.MinGivens + uniform(rng, p.MaxGivens-p.MinGivens+1)
		rcMin = p.RowColMin
	}
	order := d.digOrder(p.Sequence, rng)
	o := sizedOrbitsOf(s, p.Symmetry)
	t, b := d.t, &d.b

	givens := s.Cells()
	tried := d.tried[:o.orbits()]
	clear(tried)
	clear(d.necessary)
	for i := range s.N {
		d.rows[i], d.cols[i] = s.N, s.N
	}
	d.cut = false
	orbits := 0
	for _, c := range order {
		k := o.of[c]
		if tried[k] {
			continue
		}
		tried[k] = true
		if orbits++; orbits%digCheckEvery == 0 && ctx.Err() != nil {
			return SizedPuzzle{}, fmt.Errorf("dig: %w", ctx.Err())
		}
		cells := o.orbit(int(k))
		n := len(cells)
		if givens-n < bound {
			if givens-1 < bound {
				break
			}
			continue
		}
		for _, x := range cells {
			d.rows[t.row[x]]--
			d.cols[t.col[x]]--
		}
		legal := true
		for _, x := range cells {
			if d.rows[t.row[x]] < rcMin || d.cols[t.col[x]] < rcMin {
				legal = false
			}
		}
		if legal {
			for _, x := range cells {
				d.clearCell(int(x))
			}
			if d.unique(cells) {
				givens -= n
				continue
			}
			for _, x := range cells {
				d.setCell(int(x))
			}
			if n == 1 {
				d.necessary[c] = true
			}
		}
		for _, x := range cells {
			d.rows[t.row[x]]++
			d.cols[t.col[x]]++
		}
	}
	minimal := false
	var err error
	if !d.cut {
		minimal, err = d.minimal(ctx)
	}
	if err != nil {
		return SizedPuzzle{}, fmt.Errorf("dig: %w", err)
	}
	return SizedPuzzle{
		Grid:     grid.Grid{Shape: s, Cells: append([]uint8(nil), b.g...)},
		Solution: solution.Clone(),
		Minimal:  minimal,
		Symmetry: p.Symmetry,
	}, nil
}

// IsMinimal reports whether p has exactly one solution and loses it when
// any one given is removed. Its checks keep to d's node budget
// (CheckNodes), and one that runs out makes it report false: true is
// only said of a puzzle proven minimal.
func (d *SizedDigger) IsMinimal(p grid.Grid) bool {
	if !p.Shape.Valid() || len(p.Cells) != p.Shape.Cells() || p.Check() != nil || d.s.Count(p, 2) != 1 {
		return false
	}
	sol, ok := d.s.Solution(p)
	if !ok {
		return false
	}
	d.load(sol)
	copy(d.b.g, p.Cells)
	d.b.recount(d.t)
	d.findSwaps()
	clear(d.necessary)
	d.cut = false
	minimal, _ := d.minimal(context.Background())
	return minimal
}

// checkComplete returns an error unless g is a complete valid grid of one
// of grid.Shapes.
func checkComplete(g grid.Grid) error {
	s := g.Shape
	if !s.Valid() {
		return fmt.Errorf("solution: shape %dx%d in %dx%d boxes: %w", s.N, s.N, s.BoxRows, s.BoxCols, grid.ErrSize)
	}
	if len(g.Cells) != s.Cells() {
		return fmt.Errorf("solution: %d cells, a %v grid has %d: %w", len(g.Cells), s, s.Cells(), grid.ErrLength)
	}
	for c, v := range g.Cells {
		if v == 0 {
			return fmt.Errorf("solution is not a complete grid: %s is empty", s.CellName(c))
		}
	}
	if err := g.Check(); err != nil {
		return fmt.Errorf("solution is not valid: %w", err)
	}
	return nil
}

// load makes the digger's board the complete grid sol, setting up the
// tables and buffers of its shape.
func (d *SizedDigger) load(sol grid.Grid) {
	s := sol.Shape
	if d.t == nil || d.t.s != s {
		d.t = sizedTablesOf(s)
		cells := s.Cells()
		d.b = sizedBoard{g: make([]uint8, cells), row: make([]uint32, s.N), col: make([]uint32, s.N), box: make([]uint32, s.N)}
		d.sol = make([]uint8, cells)
		d.solution = grid.Grid{Shape: s, Cells: d.sol}
		d.work = grid.New(s)
		d.order = make([]uint16, cells)
		d.tried = make([]bool, cells)
		d.necessary = make([]bool, cells)
		d.rows, d.cols = make([]int, s.N), make([]int, s.N)
		d.setStart = make([]int32, cells+1)
	}
	copy(d.sol, sol.Cells)
	copy(d.b.g, sol.Cells)
	d.b.recount(d.t)
	d.budget = d.CheckNodes
	if d.budget == 0 {
		d.budget = DefaultCheckNodes(s)
	}
}

// hasOther is the budgeted search of a check: whether the work grid,
// dug at cell, has another solution than the one being dug. A search
// that runs out of nodes marks the dig cut and counts as finding one, so
// that the caller keeps the givens.
func (d *SizedDigger) hasOther(cell int) bool {
	other, decided := d.s.HasOtherSolutionWithin(d.work, cell, d.solution, d.budget)
	if d.onSearch != nil {
		d.onSearch(d.s.Nodes(), decided)
	}
	if !decided {
		d.cut = true
		d.cutChecks++
		return true
	}
	return other
}

// digOrder returns the cell order of sequence q, drawing a random one
// from rng.
func (d *SizedDigger) digOrder(q Sequence, rng *rand.Rand) []uint16 {
	if q != Random {
		return d.t.sequences[q]
	}
	for i := range d.order {
		d.order[i] = uint16(i)
	}
	for i := len(d.order) - 1; i > 0; i-- {
		j := uniform(rng, i+1)
		d.order[i], d.order[j] = d.order[j], d.order[i]
	}
	return d.order
}

// clearCell empties cell c of the board, keeping the swap sets' counts.
func (d *SizedDigger) clearCell(c int) {
	d.b.clear(d.t, c)
	for _, k := range d.setOf[d.setStart[c]:d.setStart[c+1]] {
		if d.setLeft[k]--; d.setLeft[k] == 0 {
			d.emptied++
		}
	}
}

// setCell gives cell c of the board its solution's value again.
func (d *SizedDigger) setCell(c int) {
	d.b.set(d.t, c, d.sol[c])
	for _, k := range d.setOf[d.setStart[c]:d.setStart[c+1]] {
		if d.setLeft[k] == 0 {
			d.emptied--
		}
		d.setLeft[k]++
	}
}

// unique reports whether the board, just dug at cells, still has only the
// solution being dug, cheapest first as Digger does: the dig holds if the
// givens left force each dug value (a single), fails if it emptied a swap
// set, and otherwise a search for another solution decides
// (solve.Sized.HasOtherSolutionWithin, held to the node budget: one that
// runs out fails the dig and marks it cut). Every other solution differs from the
// dug one in a dug cell that the givens do not force: those cells are
// checked one by one, and a cell proven to hold its value in every
// solution is put back before the next.
func (d *SizedDigger) unique(cells []uint16) bool {
	w := d.work.Cells
	copy(w, d.b.g)
	var open [4]uint16
	n := 0
	for _, x := range cells {
		if d.b.forced(d.t, int(x), d.sol[x]) {
			w[x] = d.sol[x]
		} else {
			open[n] = x
			n++
		}
	}
	if n == 0 {
		d.forcedChecks++
		return true
	}
	if d.emptied > 0 {
		d.swapChecks++
		return false
	}
	d.searchChecks++
	for _, x := range open[:n] {
		w[x] = d.sol[x]
		if d.hasOther(int(x)) {
			return false
		}
	}
	return true
}

// minimal reports whether no given of the board can be dug, knowing that
// the cells marked necessary cannot; a search that runs out of nodes
// makes it report false. It looks at ctx every few searches.
func (d *SizedDigger) minimal(ctx context.Context) (bool, error) {
	b, t := &d.b, d.t
	for c, v := range b.g {
		if v == 0 || d.necessary[c] {
			continue
		}
		b.clear(t, c)
		f := b.forced(t, c, v)
		b.set(t, c, v)
		if f {
			return false, nil
		}
	}
	searches := 0
	for c, v := range b.g {
		if v == 0 || d.necessary[c] {
			continue
		}
		d.clearCell(c)
		dead := d.emptied > 0
		d.setCell(c)
		if dead {
			d.swapChecks++
			continue
		}
		if searches++; searches%digCheckEvery == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		d.searchChecks++
		copy(d.work.Cells, b.g)
		if !d.hasOther(c) {
			return false, nil
		}
		if d.cut {
			// Cell c may be removable: nothing can be said.
			return false, nil
		}
	}
	return true, nil
}

// findSwaps lists the swap sets of the solution being dug, as Digger's
// findSwaps does for 9x9: for two rows of one band, following a value
// from the first row to its column in the second splits the columns into
// cycles, and exchanging the two rows on a cycle gives another valid
// grid; the same for two columns of one stack. A dig that empties all of
// such a set leaves two solutions. The board must be complete.
func (d *SizedDigger) findSwaps() {
	s := d.t.s
	n := s.N
	sol := d.sol
	d.pairs = d.pairs[:0]
	d.setLeft = d.setLeft[:0]
	var colOf [grid.MaxN + 1]int
	var seen [grid.MaxN]bool
	for tr := 0; tr < 2; tr++ { // tr = 1 exchanges rows and columns
		g := s.BoxRows
		if tr == 1 {
			g = s.BoxCols
		}
		at := func(i, j int) int {
			if tr == 1 {
				i, j = j, i
			}
			return i*n + j
		}
		for r1 := range n {
			for r2 := r1 + 1; r2 < r1/g*g+g; r2++ {
				for c := range n {
					colOf[sol[at(r2, c)]] = c
				}
				clear(seen[:n])
				for c0 := range n {
					if seen[c0] {
						continue
					}
					k := int32(len(d.setLeft))
					size := int32(0)
					for c := c0; !seen[c]; c = colOf[sol[at(r1, c)]] {
						seen[c] = true
						d.pairs = append(d.pairs, int32(at(r1, c)), k, int32(at(r2, c)), k)
						size += 2
					}
					d.setLeft = append(d.setLeft, size)
				}
			}
		}
	}
	// Bucket the (cell, set) pairs by cell.
	start := d.setStart
	clear(start)
	for i := 0; i < len(d.pairs); i += 2 {
		start[d.pairs[i]+1]++
	}
	for c := 1; c < len(start); c++ {
		start[c] += start[c-1]
	}
	d.setOf = append(d.setOf[:0], make([]int32, len(d.pairs)/2)...)
	for i := 0; i < len(d.pairs); i += 2 {
		c := d.pairs[i]
		d.setOf[start[c]] = d.pairs[i+1]
		start[c]++
	}
	for c := len(start) - 1; c > 0; c-- {
		start[c] = start[c-1]
	}
	start[0] = 0
	// Sets lose the cells that are not given.
	d.emptied = 0
	for c, v := range d.b.g {
		if v != 0 {
			continue
		}
		for _, k := range d.setOf[start[c]:start[c+1]] {
			if d.setLeft[k]--; d.setLeft[k] == 0 {
				d.emptied++
			}
		}
	}
}

// sizedBoard is a puzzle being dug, with the values of its givens per
// unit. Invariant: row, col and box hold exactly the values of g, as bit v
// for value v.
type sizedBoard struct {
	g             []uint8
	row, col, box []uint32
}

// recount sets the unit masks from g.
func (b *sizedBoard) recount(t *sizedTables) {
	clear(b.row)
	clear(b.col)
	clear(b.box)
	for c, v := range b.g {
		if v != 0 {
			m := uint32(1) << v
			b.row[t.row[c]] |= m
			b.col[t.col[c]] |= m
			b.box[t.box[c]] |= m
		}
	}
}

func (b *sizedBoard) set(t *sizedTables, c int, v uint8) {
	m := uint32(1) << v
	b.g[c] = v
	b.row[t.row[c]] |= m
	b.col[t.col[c]] |= m
	b.box[t.box[c]] |= m
}

func (b *sizedBoard) clear(t *sizedTables, c int) {
	m := ^(uint32(1) << b.g[c])
	b.g[c] = 0
	b.row[t.row[c]] &= m
	b.col[t.col[c]] &= m
	b.box[t.box[c]] &= m
}

func (b *sizedBoard) candidates(t *sizedTables, c int) uint32 {
	return t.full &^ (b.row[t.row[c]] | b.col[t.col[c]] | b.box[t.box[c]])
}

// forced reports whether the givens alone force value v into the empty
// cell c: a naked or hidden single. The board must not conflict with a
// solution that has v at c.
func (b *sizedBoard) forced(t *sizedTables, c int, v uint8) bool {
	m := uint32(1) << v
	if b.candidates(t, c) == m {
		return true
	}
	for _, u := range t.cellUnits[c] {
		hidden := true
		for _, e := range t.units[u] {
			if int(e) != c && b.g[e] == 0 && b.candidates(t, int(e))&m != 0 {
				hidden = false
				break
			}
		}
		if hidden {
			return true
		}
	}
	return false
}

// sizedTables are the lookup tables of one shape for digging and filling.
type sizedTables struct {
	s             grid.Shape
	full          uint32 // bits 1..N
	row, col, box []uint8
	units         [][]uint16 // rows, columns, boxes
	cellUnits     [][3]uint16
	sequences     [numSequences][]uint16 // the fixed digging orders
}

var sizedTableCache sync.Map // grid.Shape -> *sizedTables

// sizedTablesOf returns the tables of shape s, built once per shape.
func sizedTablesOf(s grid.Shape) *sizedTables {
	if t, ok := sizedTableCache.Load(s); ok {
		return t.(*sizedTables)
	}
	n, cells := s.N, s.Cells()
	t := &sizedTables{s: s, full: uint32(1)<<(n+1) - 2,
		row: make([]uint8, cells), col: make([]uint8, cells), box: make([]uint8, cells),
		cellUnits: make([][3]uint16, cells)}
	for _, u := range s.Units() {
		cs := make([]uint16, len(u))
		for i, c := range u {
			cs[i] = uint16(c)
		}
		t.units = append(t.units, cs)
	}
	wander := make([]uint16, cells) // the wandering S path
	for c := range cells {
		r, col := s.Row(c), s.Col(c)
		t.row[c], t.col[c], t.box[c] = uint8(r), uint8(col), uint8(s.Box(c))
		t.cellUnits[c] = [3]uint16{uint16(r), uint16(n + col), uint16(2*n + s.Box(c))}
		if r%2 == 1 {
			col = n - 1 - col
		}
		wander[c] = uint16(r*n + col)
	}
	t.sequences[WanderingS] = wander
	t.sequences[LeftToRight] = make([]uint16, cells)
	for c := range cells {
		t.sequences[LeftToRight][c] = uint16(c)
	}
	jump := make([]uint16, 0, cells)
	for i := 0; i < cells; i += 2 {
		jump = append(jump, wander[i])
	}
	for i := 1; i < cells; i += 2 {
		jump = append(jump, wander[i])
	}
	t.sequences[JumpOne] = jump
	got, _ := sizedTableCache.LoadOrStore(s, t)
	return got.(*sizedTables)
}

// MinRowColGivensSized returns the lowest number of givens in any row or
// column of p, of any shape: MinRowColGivens beyond 9x9.
func MinRowColGivensSized(p grid.Grid) int {
	n := p.Shape.N
	var rows, cols [grid.MaxN]int
	for c, v := range p.Cells {
		if v != 0 {
			rows[c/n]++
			cols[c%n]++
		}
	}
	low := n
	for i := range n {
		low = min(low, rows[i], cols[i])
	}
	return low
}
