package gen

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"sudokubank/grid"
)

// sizedFiller fills grids of any shape at random by depth-first search,
// for SizedTerminal. The zero value is ready to use.
type sizedFiller struct {
	t             *sizedTables
	g             []uint8
	row, col, box []uint32 // values present, bit v for value v
	cells         []uint16 // scratch for choosing the random givens
	nodes, max    int
	rng           *rand.Rand
}

// sizedLasVegasGivens returns how many random givens a Las Vegas trial
// places in a grid of that many cells: the paper's 11 for 81 cells, and
// about a tenth of the cells on larger grids, where more random givens
// too often admit no completion.
func sizedLasVegasGivens(cells int) int { return cells/10 + 3 }

// sizedLasVegasNodes returns the node budget of one trial: as for 9x9,
// about a dozen nodes a cell, so that a trial which wanders into a dead
// end gives up and the next one starts afresh.
func sizedLasVegasNodes(cells int) int { return cells * 12 }

// terminal returns a random terminal grid of shape s, retrying Las Vegas
// trials until one succeeds.
func (f *sizedFiller) terminal(s grid.Shape, rng *rand.Rand) grid.Grid {
	if !s.Valid() {
		panic(fmt.Sprintf("gen: SizedTerminal: %dx%d in %dx%d boxes is not a grid shape", s.N, s.N, s.BoxRows, s.BoxCols))
	}
	if f.t == nil || f.t.s != s {
		f.t = sizedTablesOf(s)
		f.g = make([]uint8, s.Cells())
		f.row, f.col, f.box = make([]uint32, s.N), make([]uint32, s.N), make([]uint32, s.N)
		f.cells = make([]uint16, s.Cells())
	}
	cells := s.Cells()
	for !f.lasVegas(rng, sizedLasVegasGivens(cells), sizedLasVegasNodes(cells)) {
	}
	return grid.Grid{Shape: s, Cells: append([]uint8(nil), f.g...)}
}

// lasVegas makes one trial: n random givens with random values that do
// not conflict, then a random fill within maxNodes search nodes.
func (f *sizedFiller) lasVegas(rng *rand.Rand, n, maxNodes int) bool {
	clear(f.g)
	clear(f.row)
	clear(f.col)
	clear(f.box)
	f.nodes, f.max, f.rng = 0, maxNodes, rng
	for i := range f.cells {
		f.cells[i] = uint16(i)
	}
	// A partial Fisher-Yates shuffle picks n distinct cells.
	for i := range n {
		j := i + uniform(rng, len(f.cells)-i)
		f.cells[i], f.cells[j] = f.cells[j], f.cells[i]
		c := int(f.cells[i])
		m := f.candidates(c)
		if m == 0 {
			return false
		}
		f.set(c, pickBit32(m, uniform(rng, bits.OnesCount32(m))))
	}
	return f.fill()
}

func (f *sizedFiller) set(c int, v uint8) {
	t, m := f.t, uint32(1)<<v
	f.g[c] = v
	f.row[t.row[c]] |= m
	f.col[t.col[c]] |= m
	f.box[t.box[c]] |= m
}

func (f *sizedFiller) clear(c int) {
	t, m := f.t, ^(uint32(1) << f.g[c])
	f.g[c] = 0
	f.row[t.row[c]] &= m
	f.col[t.col[c]] &= m
	f.box[t.box[c]] &= m
}

func (f *sizedFiller) candidates(c int) uint32 {
	t := f.t
	return t.full &^ (f.row[t.row[c]] | f.col[t.col[c]] | f.box[t.box[c]])
}

// pickBit32 returns the position of the k-th set bit of m, from 0.
func pickBit32(m uint32, k int) uint8 {
	for ; k > 0; k-- {
		m &= m - 1
	}
	return uint8(bits.TrailingZeros32(m))
}

// hiddenSinglesFrom is the smallest N whose fills look for hidden
// singles: on smaller grids the fewest-candidates fill rarely meets a dead
// end, and the scan of every unit at every node would cost more than it
// saves.
const hiddenSinglesFrom = 16

// hiddenSingle finds a value that has a single place left in some unit,
// returning that cell and the value's bit, or -1 when there is none. It
// reports false when a unit has no place left for a value it lacks.
func (f *sizedFiller) hiddenSingle() (int, uint32, bool) {
	t := f.t
	for _, unit := range t.units {
		var placed, once, twice uint32
		for _, c := range unit {
			if v := f.g[c]; v != 0 {
				placed |= 1 << v
				continue
			}
			m := f.candidates(int(c))
			twice |= once & m
			once |= m
		}
		if t.full&^(placed|once) != 0 {
			return -1, 0, false
		}
		if single := once &^ twice; single != 0 {
			m := single & -single
			for _, c := range unit {
				if f.g[c] == 0 && f.candidates(int(c))&m != 0 {
					return int(c), m, true
				}
			}
		}
	}
	return -1, 0, true
}

// fill completes f.g at a hidden single or else the cell with the fewest
// candidates, values in random order, reporting false when it has no completion or the node
// budget runs out. Invariant: row, col and box hold exactly the values of
// f.g, and f.g has no conflict.
func (f *sizedFiller) fill() bool {
	f.nodes++
	if f.nodes > f.max {
		return false
	}
	best, bestN := -1, 99
	var bestM uint32
	for c, v := range f.g {
		if v != 0 {
			continue
		}
		m := f.candidates(c)
		n := bits.OnesCount32(m)
		if n < bestN {
			best, bestN, bestM = c, n, m
			if n <= 1 {
				break
			}
		}
	}
	if best < 0 {
		return true
	}
	if bestN > 1 && f.t.s.N >= hiddenSinglesFrom {
		// A value with one place left in a unit is as forced as a
		// cell with one candidate; one with none is a dead end.
		c, m, ok := f.hiddenSingle()
		if !ok {
			return false
		}
		if c >= 0 {
			best, bestM = c, m
		}
	}
	for m := bestM; m != 0; {
		v := uint8(bits.TrailingZeros32(m))
		if k := bits.OnesCount32(m); k > 1 {
			v = pickBit32(m, uniform(f.rng, k))
		}
		m &^= 1 << v
		f.set(best, v)
		if f.fill() {
			return true
		}
		f.clear(best)
		if f.nodes > f.max {
			return false
		}
	}
	return false
}
