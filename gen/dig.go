package gen

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"sudokubank/solve"
)

// Puzzle is a dug puzzle with its unique solution.
type Puzzle struct {
	Grid     solve.Grid // the givens, 0 for an empty cell
	Solution solve.Grid // the terminal grid it was dug from: its only solution
	Minimal  bool       // no single given can be removed without losing uniqueness
	Symmetry Symmetry   // the symmetry its pattern of givens was dug with
}

// Digger digs holes in terminal grids with the paper's operators (a
// sequence, two restrictions, a uniqueness check and pruning), trying
// each cell or orbit of cells once: a cell that cannot be dug now cannot
// be dug later, as fewer givens admit at least the same solutions.
//
// The zero value is ready to use and does not allocate per puzzle. A
// Digger is not safe for concurrent use: give each goroutine its own.
type Digger struct {
	s     solve.Solver
	f     filler
	b     board
	seq   [81]uint8
	count bool // check uniqueness by counting to 2 instead of by reduction

	// swaps holds the swap sets of the solution being dug (see findSwaps)
	// as bitmasks of cells.
	swaps  [maxSwaps][2]uint64
	nSwaps int

	// Work counters, for tests and benchmarks.
	forcedChecks, searchChecks, swapChecks int

	// DeferMinimal leaves Puzzle.Minimal false after a dig: the check
	// costs a few uniqueness searches, in vain for a caller that drops
	// most of its digs. LastMinimal then answers it for the last dig.
	DeferMinimal bool
	// last is the last dig's state for LastMinimal: its solution, its
	// givens that failed alone, and whether it is still on the board.
	lastSol       solve.Grid
	lastNecessary [81]bool
	lastOK        bool
}

// Generate digs a puzzle with profile p from a new terminal grid (see
// LasVegasTerminal), drawing all randomness from rng.
func (d *Digger) Generate(p Profile, rng *rand.Rand) Puzzle {
	return d.Dig(d.f.lasVegasTerminal(rng), p, rng)
}

// GenerateContext is Generate that stops when ctx is done, returning an
// error that wraps ctx.Err(); otherwise it returns what Generate would.
func (d *Digger) GenerateContext(ctx context.Context, p Profile, rng *rand.Rand) (Puzzle, error) {
	if err := ctx.Err(); err != nil {
		return Puzzle{}, fmt.Errorf("generate: %w", err)
	}
	if err := p.Validate(); err != nil {
		panic("gen: Dig: " + err.Error())
	}
	// The fill's grid is complete and valid: dig it unchecked.
	return d.dig(ctx, d.f.lasVegasTerminal(rng), p, rng)
}

// Dig digs holes in solution, a complete valid grid, following profile p
// and drawing its random choices from rng. The puzzle it returns has
// solution as its only solution and its givens have the pattern symmetry
// p.Symmetry. Dig panics if p is not valid (see Profile.Validate) or
// solution is not a complete valid grid.
func (d *Digger) Dig(solution solve.Grid, p Profile, rng *rand.Rand) Puzzle {
	pz, _ := d.DigContext(context.Background(), solution, p, rng)
	return pz
}

// digCheckEvery is how many orbits a dig tries between two looks at its
// context: each try is a uniqueness check, so a look every few tries
// keeps the cost of stopping out of the dig's time.
const digCheckEvery = 8

// DigContext is Dig that stops when ctx is done, returning an error that
// wraps ctx.Err(); otherwise it returns what Dig would.
func (d *Digger) DigContext(ctx context.Context, solution solve.Grid, p Profile, rng *rand.Rand) (Puzzle, error) {
	if err := p.Validate(); err != nil {
		panic("gen: Dig: " + err.Error())
	}
	for _, v := range solution {
		if v == 0 || v > 9 {
			panic("gen: Dig: solution is not a complete grid")
		}
	}
	if err := solution.Check(); err != nil {
		panic("gen: Dig: solution is not valid: " + err.Error())
	}
	return d.dig(ctx, solution, p, rng)
}

// dig is DigContext for a valid profile p and a complete valid grid
// solution.
func (d *Digger) dig(ctx context.Context, solution solve.Grid, p Profile, rng *rand.Rand) (Puzzle, error) {
	b := &d.b
	d.lastOK = false
	b.load(&solution)
	d.findSwaps(&solution)
	bound, rcMin := 0, int8(0)
	if !p.Minimal {
		bound = p.MinGivens + uniform(rng, p.MaxGivens-p.MinGivens+1)
		rcMin = int8(p.RowColMin)
	}
	order := d.order(p.Sequence, rng)
	t := &orbitTables[p.Symmetry]

	givens := 81
	rows := [9]int8{9, 9, 9, 9, 9, 9, 9, 9, 9} // givens per row
	cols := rows                               // givens per column
	var tried, necessary [81]bool              // tried[orbit]; necessary[cell]: its dig failed alone
	orbits := 0
	for _, c := range order {
		k := t.of[c]
		if tried[k] {
			continue
		}
		tried[k] = true
		if orbits++; orbits%digCheckEvery == 0 && ctx.Err() != nil {
			return Puzzle{}, fmt.Errorf("dig: %w", ctx.Err())
		}
		n := int(t.size[k])
		if givens-n < bound {
			if givens-1 < bound {
				break
			}
			continue
		}
		cells := t.cells[k][:n]
		legal := true
		for _, x := range cells {
			rows[cellRow[x]]--
			cols[cellCol[x]]--
		}
		for _, x := range cells {
			if rows[cellRow[x]] < rcMin || cols[cellCol[x]] < rcMin {
				legal = false
			}
		}
		if legal {
			for _, x := range cells {
				b.clear(int(x))
			}
			if d.unique(cells, &solution) {
				givens -= n
				continue
			}
			for _, x := range cells {
				b.set(int(x), solution[x])
			}
			if n == 1 {
				necessary[c] = true
			}
		}
		for _, x := range cells {
			rows[cellRow[x]]++
			cols[cellCol[x]]++
		}
	}
	pz := Puzzle{Grid: b.g, Solution: solution, Symmetry: p.Symmetry}
	if d.DeferMinimal {
		d.lastSol, d.lastNecessary, d.lastOK = solution, necessary, true
	} else {
		pz.Minimal = d.minimal(&necessary, &solution)
	}
	return pz, nil
}

// LastMinimal reports whether the puzzle the last dig returned is
// minimal, as its Minimal field would with DeferMinimal unset. It
// panics unless that dig ran with DeferMinimal set and d has neither dug
// nor checked a puzzle since.
func (d *Digger) LastMinimal() bool {
	if !d.lastOK {
		panic("gen: LastMinimal: no deferred dig on the board")
	}
	return d.minimal(&d.lastNecessary, &d.lastSol)
}

// IsMinimal reports whether p has exactly one solution and loses it when
// any one given is removed.
func (d *Digger) IsMinimal(p solve.Grid) bool {
	if d.s.Count(p, 2) != 1 {
		return false
	}
	sol, _ := d.s.Solve(p)
	d.lastOK = false
	d.b.load(&p)
	d.findSwaps(&sol)
	var necessary [81]bool
	return d.minimal(&necessary, &sol)
}

// IsMinimal reports whether p has exactly one solution and loses it when
// any one given is removed. Use Digger.IsMinimal to reuse memory over
// many puzzles.
func IsMinimal(p solve.Grid) bool {
	var d Digger
	return d.IsMinimal(p)
}

// order returns the digging sequence s, drawing a random one from rng.
func (d *Digger) order(s Sequence, rng *rand.Rand) *[81]uint8 {
	if s != Random {
		return &sequenceOrders[s]
	}
	for i := range d.seq {
		d.seq[i] = uint8(i)
	}
	for i := 80; i > 0; i-- {
		j := uniform(rng, i+1)
		d.seq[i], d.seq[j] = d.seq[j], d.seq[i]
	}
	return &d.seq
}

// sequenceOrders holds the cell order of each fixed sequence.
var sequenceOrders = func() (o [numSequences][81]uint8) {
	var s [81]uint8 // the wandering S path
	for i := range s {
		r, c := i/9, i%9
		if r%2 == 1 {
			c = 8 - c
		}
		s[i] = uint8(r*9 + c)
		o[LeftToRight][i] = uint8(i)
	}
	o[WanderingS] = s
	for i := 0; i < 41; i++ {
		o[JumpOne][i] = s[2*i]
	}
	for i := 0; i < 40; i++ {
		o[JumpOne][41+i] = s[2*i+1]
	}
	return o
}()

// unique reports whether the board, just dug at cells, still has only
// solution sol. It decides cheapest first: the dig holds if the givens
// left force the dug digit on their own (a single), and fails if it
// empties the last given of a swap set of sol (findSwaps); otherwise a
// search by reduction to absurdity decides (solve.Solver.HasOtherSolution).
// An orbit of several cells is checked cell by cell, a cell proven to
// hold its digit being put back before the next is checked.
func (d *Digger) unique(cells []uint8, sol *solve.Grid) bool {
	g := d.b.g
	var open [4]uint8
	n := 0
	for _, x := range cells {
		if d.b.forced(int(x), sol[x]) {
			g[x] = sol[x]
		} else {
			open[n] = x
			n++
		}
	}
	if n == 0 {
		d.forcedChecks++
		return true
	}
	if d.swapEmptied() {
		d.swapChecks++
		return false
	}
	d.searchChecks++
	if d.count {
		return d.s.Count(g, 2) == 1
	}
	// Every other solution differs from sol in an open cell. Once a cell
	// is proven to hold its digit in every solution, it is put back.
	for _, x := range open[:n] {
		g[x] = sol[x]
		if d.s.HasOtherSolution(g, int(x), sol[x]) {
			return false
		}
	}
	return true
}

// minimal reports whether no given of the board can be dug, knowing that
// the givens marked necessary cannot.
func (d *Digger) minimal(necessary *[81]bool, sol *solve.Grid) bool {
	b := &d.b
	for c := 0; c < 81; c++ {
		if b.g[c] == 0 || necessary[c] {
			continue
		}
		b.clear(c)
		f := b.forced(c, sol[c])
		b.set(c, sol[c])
		if f {
			return false
		}
	}
	for c := 0; c < 81; c++ {
		if b.g[c] == 0 || necessary[c] {
			continue
		}
		b.clear(c)
		dead := d.swapEmptied()
		b.set(c, sol[c])
		if dead {
			d.swapChecks++
			continue
		}
		d.searchChecks++
		if d.count {
			g := b.g
			g[c] = 0
			if d.s.Count(g, 2) != 1 {
				continue
			}
		} else if d.s.HasOtherSolution(b.g, c, sol[c]) {
			continue
		}
		return false
	}
	return true
}

// maxSwaps bounds the swap sets of a grid: 18 pairs of rows or columns,
// each split into at most 4 cycles.
const maxSwaps = 18 * 4

// findSwaps lists the unavoidable sets of sol that come from exchanging
// the digits of two rows of one band on some of their columns. The
// columns must hold the same digits in both rows: following a digit from
// the first row to its column in the second splits the 9 columns into
// cycles, and each cycle is such a set (a 2-cycle is a rectangle a b / b
// a over two boxes). Exchanging the rows there gives another valid grid,
// since rows keep their digits and columns and boxes only swap cells
// within themselves; so a puzzle that empties all of a set has two
// solutions, and a dig that would empty its last given fails at once. The
// same holds for two columns of one stack.
func (d *Digger) findSwaps(sol *solve.Grid) {
	d.nSwaps = 0
	for t := 0; t < 2; t++ { // t = 1 exchanges rows and columns
		// Cell (i, j) of the grid read so is i*rs + j*cs.
		rs, cs := 9, 1
		if t == 1 {
			rs, cs = 1, 9
		}
		for r1 := 0; r1 < 9; r1++ {
			for r2 := r1 + 1; r2 < r1/3*3+3; r2++ {
				var colOf [16]uint8 // colOf[digit]: its column in row r2
				for c := 0; c < 9; c++ {
					colOf[sol[r2*rs+c*cs]&15] = uint8(c)
				}
				// Each cycle from its first column, in increasing order.
				for left := uint16(0x1ff); left != 0; {
					var set [2]uint64
					for c := bits.TrailingZeros16(left); left&(1<<c) != 0; c = int(colOf[sol[r1*rs+c*cs]&15]) {
						left &^= 1 << c
						x, y := r1*rs+c*cs, r2*rs+c*cs
						set[x>>6] |= 1 << (x & 63)
						set[y>>6] |= 1 << (y & 63)
					}
					d.swaps[d.nSwaps] = set
					d.nSwaps++
				}
			}
		}
	}
}

// swapEmptied reports whether the board has emptied all the cells of a
// swap set, and so has a second solution.
func (d *Digger) swapEmptied() bool {
	g := &d.b.given
	for i := 0; i < d.nSwaps; i++ {
		if d.swaps[i][0]&g[0] == 0 && d.swaps[i][1]&g[1] == 0 {
			return true
		}
	}
	return false
}

// board is a puzzle being dug, with the digits of its givens per unit.
// Invariant: row, col and box hold exactly the digits of g, and given its
// filled cells.
type board struct {
	g             solve.Grid
	row, col, box [9]uint16
	given         [2]uint64 // bit c set when cell c is given
}

func (b *board) load(g *solve.Grid) {
	b.g = *g
	b.row, b.col, b.box = [9]uint16{}, [9]uint16{}, [9]uint16{}
	b.given = [2]uint64{}
	for c, v := range g {
		if v != 0 {
			b.given[c>>6] |= 1 << (c & 63)
			m := uint16(1) << v
			b.row[cellRow[c]] |= m
			b.col[cellCol[c]] |= m
			b.box[cellBox[c]] |= m
		}
	}
}

func (b *board) set(c int, d uint8) {
	m := uint16(1) << d
	b.g[c] = d
	b.given[c>>6] |= 1 << (c & 63)
	b.row[cellRow[c]] |= m
	b.col[cellCol[c]] |= m
	b.box[cellBox[c]] |= m
}

func (b *board) clear(c int) {
	m := ^(uint16(1) << b.g[c])
	b.g[c] = 0
	b.given[c>>6] &^= 1 << (c & 63)
	b.row[cellRow[c]] &= m
	b.col[cellCol[c]] &= m
	b.box[cellBox[c]] &= m
}

func (b *board) candidates(c int) uint16 {
	return ^(b.row[cellRow[c]] | b.col[cellCol[c]] | b.box[cellBox[c]]) & 0x3fe
}

// forced reports whether the givens alone force digit dg into the empty
// cell c: it is c's only candidate (a naked single), or no other empty
// cell of one of c's units can hold it (a hidden single). The board must
// not conflict with a solution that has dg at c.
func (b *board) forced(c int, dg uint8) bool {
	m := uint16(1) << dg
	if b.candidates(c) == m {
		return true
	}
	for _, u := range cellUnits[c] {
		hidden := true
		for _, e := range unitCells[u] {
			if int(e) != c && b.g[e] == 0 && b.candidates(int(e))&m != 0 {
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

// unitCells lists the cells of the 27 units (rows, columns, boxes), and
// cellUnits the three units of each cell.
var unitCells, cellUnits = func() (u [27][9]uint8, cu [81][3]uint8) {
	for i, unit := range solve.Units {
		for j, c := range unit {
			u[i][j] = uint8(c)
		}
	}
	for c := 0; c < 81; c++ {
		cu[c] = [3]uint8{cellRow[c], 9 + cellCol[c], 18 + cellBox[c]}
	}
	return u, cu
}()
