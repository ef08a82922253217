package gen

import (
	"math/bits"
	"math/rand/v2"

	"sudokubank/solve"
)

// LasVegasGivens is the number of random givens the paper's Las Vegas
// method places before it solves: the paper found 11 the best trade-off
// between speed and diversity.
const LasVegasGivens = 11

// LasVegasNodes is the search budget of one Las Vegas trial in Terminal's
// sense: a deterministic stand-in for the paper's 0.1 s of wall time, so
// that a seed always gives the same grid.
const LasVegasNodes = 1000

// Terminal returns a random terminal (completely filled, valid) grid drawn
// from rng by the direct method: a depth-first fill of the empty grid at
// the cell with the fewest candidates, its digits in random order. It is
// faster than LasVegasTerminal but biased, since some fill paths are
// likelier than others (TestTerminalPairStatistic shows it), so
// Digger.Generate uses LasVegasTerminal. It uses only rng.Uint64, so a
// seed gives the same grid on every machine.
func Terminal(rng *rand.Rand) solve.Grid {
	var f filler
	return f.direct(rng)
}

// LasVegas makes one trial of the paper's Las Vegas method: it places n
// givens at random cells with random digits that do not conflict, then
// fills the rest at random within a budget of maxNodes search nodes (0
// means no limit). It reports false when the givens cannot be placed, have
// no completion, or the budget runs out; calling it again is the method's
// retry loop.
func LasVegas(rng *rand.Rand, n, maxNodes int) (solve.Grid, bool) {
	var f filler
	return f.lasVegas(rng, n, maxNodes)
}

// LasVegasTerminal returns a random terminal grid drawn from rng by the
// paper's Las Vegas method: trials of LasVegas with LasVegasGivens givens
// and a budget of LasVegasNodes, until one succeeds.
//
// The method is not provably uniform, but its random givens spread the
// fill's starting points over the whole grid, and the pair statistics
// that show Terminal's bias (TestTerminalPairStatistic) find none here.
// A seed gives the same grid on every machine.
func LasVegasTerminal(rng *rand.Rand) solve.Grid {
	var f filler
	return f.lasVegasTerminal(rng)
}

func (f *filler) lasVegasTerminal(rng *rand.Rand) solve.Grid {
	for {
		if g, ok := f.lasVegas(rng, LasVegasGivens, LasVegasNodes); ok {
			return g
		}
	}
}

// uniform returns a number in [0, n) from one rng.Uint64. It is a
// multiply-shift reduction of 32 random bits, biased by less than n/2^32,
// and depends only on the generator's stream, which math/rand/v2 fixes.
func uniform(rng *rand.Rand, n int) int {
	return int((rng.Uint64() & 0xffffffff) * uint64(n) >> 32)
}

// filler fills grids at random by depth-first search. The zero value is
// ready to use.
type filler struct {
	g solve.Grid
	// The digits present per row, column and box, bit d for digit d;
	// 16 long, so that an index masked by cellRCB needs no bounds
	// check in the fill's scan.
	row, col, box [16]uint16
	empty         [2]uint64 // the cells of g that are 0, bits 0..63 and 64..80
	// open[d] holds the cells that no placed d sees, in empty's bit
	// order: a cell's candidates are the digits whose open set holds it,
	// so that the fill finds its branch cell for all cells at once.
	open       [10][2]uint64
	nodes, max int
	rng        *rand.Rand
}

// cellPeers holds, for each cell, the cells that share a row, column or
// box with it and the cell itself, bits as in filler.empty.
var cellPeers = func() (t [81][2]uint64) {
	for c := 0; c < 81; c++ {
		for o := 0; o < 81; o++ {
			if cellRow[o] == cellRow[c] || cellCol[o] == cellCol[c] || cellBox[o] == cellBox[c] {
				t[c][o>>6] |= 1 << (o & 63)
			}
		}
	}
	return t
}()

// cellRow, cellCol and cellBox give each cell's row, column and box.
var cellRow, cellCol, cellBox = func() (r, c, b [81]uint8) {
	for i := 0; i < 81; i++ {
		r[i], c[i], b[i] = uint8(i/9), uint8(i%9), uint8(i/27*3+i%9/3)
	}
	return
}()

func (f *filler) reset(rng *rand.Rand, maxNodes int) {
	f.g = solve.Grid{}
	f.row, f.col, f.box = [16]uint16{}, [16]uint16{}, [16]uint16{}
	f.empty = [2]uint64{1<<64 - 1, 1<<17 - 1}
	for d := range f.open {
		f.open[d] = f.empty
	}
	f.nodes, f.max, f.rng = 0, maxNodes, rng
}

// set places d at c. Only fill takes a digit back out (clear), and it
// restores the digit's open set itself.
func (f *filler) set(c int, d uint8) {
	m := uint16(1) << d
	f.g[c] = d
	f.empty[c>>6] &^= 1 << (c & 63)
	f.open[d&15][0] &^= cellPeers[c][0]
	f.open[d&15][1] &^= cellPeers[c][1]
	f.row[cellRow[c]] |= m
	f.col[cellCol[c]] |= m
	f.box[cellBox[c]] |= m
}

func (f *filler) clear(c int) {
	m := ^(uint16(1) << f.g[c])
	f.g[c] = 0
	f.empty[c>>6] |= 1 << (c & 63)
	f.row[cellRow[c]] &= m
	f.col[cellCol[c]] &= m
	f.box[cellBox[c]] &= m
}

func (f *filler) candidates(c int) uint16 {
	u := cellRCB[c&127]
	return ^(f.row[u&15] | f.col[u>>4&15] | f.box[u>>8&15]) & 0x3fe
}

// cellRCB packs each cell's row, column and box, four bits each; it
// is 128 long, so that a cell index masked to 7 bits needs no bounds
// check.
var cellRCB = func() (t [128]uint16) {
	for c := 0; c < 81; c++ {
		t[c] = uint16(cellRow[c]) | uint16(cellCol[c])<<4 | uint16(cellBox[c])<<8
	}
	return t
}()

func (f *filler) direct(rng *rand.Rand) solve.Grid {
	f.reset(rng, 0)
	f.fill() // the empty grid always has a completion
	return f.g
}

func (f *filler) lasVegas(rng *rand.Rand, n, maxNodes int) (solve.Grid, bool) {
	f.reset(rng, maxNodes)
	if n < 0 || n > 81 {
		return solve.Grid{}, false
	}
	// A partial Fisher-Yates shuffle picks n distinct cells.
	var cells [81]uint8
	for i := range cells {
		cells[i] = uint8(i)
	}
	for i := 0; i < n; i++ {
		j := i + uniform(rng, 81-i)
		cells[i], cells[j] = cells[j], cells[i]
		c := int(cells[i])
		m := f.candidates(c)
		if m == 0 {
			return solve.Grid{}, false
		}
		f.set(c, pickBit(m, uniform(rng, bits.OnesCount16(m))))
	}
	if !f.fill() {
		return solve.Grid{}, false
	}
	return f.g, true
}

// pickBit returns the position of the k-th set bit of m, counting from 0.
func pickBit(m uint16, k int) uint8 {
	for ; k > 0; k-- {
		m &= m - 1
	}
	return uint8(bits.TrailingZeros16(m))
}

// fill completes f.g, reporting false when it has no completion or the
// node budget runs out. Invariant: row, col, box and open hold exactly
// the digits of f.g, and f.g has no conflict.
func (f *filler) fill() bool {
	f.nodes++
	if f.max > 0 && f.nodes > f.max {
		return false
	}
	best := f.branchCell()
	if best < 0 {
		return true
	}
	for m := f.candidates(best); m != 0; {
		d := uint8(bits.TrailingZeros16(m))
		if k := bits.OnesCount16(m); k > 1 {
			d = pickBit(m, uniform(f.rng, k))
		}
		m &^= 1 << d
		open := f.open[d&15]
		f.set(best, d)
		if f.fill() {
			return true
		}
		f.clear(best)
		f.open[d&15] = open
		if f.max > 0 && f.nodes > f.max {
			return false
		}
	}
	return false
}

// branchCell returns the cell the fill branches on, -1 when none is
// empty: the first empty cell, in increasing order, with at most one
// candidate, or else the first with the fewest. It counts every empty
// cell's candidates at once over the digits' open sets, bit-sliced (bit
// j of plane k holds bit k of cell j's count) where no cell has one or
// none, which is what a scan of the cells that stops at the first with
// one candidate or none finds.
func (f *filler) branchCell() int {
	e0, e1 := f.empty[0], f.empty[1]
	if e0|e1 == 0 {
		return -1
	}
	// Most branch cells have one candidate or none: find those first,
	// marking the cells with two candidates or more.
	var one0, two0, one1, two1 uint64
	for d := 1; d <= 9; d++ {
		x, y := f.open[d][0]&e0, f.open[d][1]&e1
		two0 |= one0 & x
		one0 |= x
		two1 |= one1 & y
		one1 |= y
	}
	if m := e0 &^ two0; m != 0 {
		return bits.TrailingZeros64(m)
	}
	if m := e1 &^ two1; m != 0 {
		return 64 + bits.TrailingZeros64(m)
	}
	var p00, p01, p02, p03, p10, p11, p12, p13 uint64
	for d := 1; d <= 9; d++ {
		x := f.open[d][0] & e0
		k0 := p00 & x
		p00 ^= x
		k1 := p01 & k0
		p01 ^= k0
		p03 |= p02 & k1 // a count reaches 8 once at most
		p02 ^= k1
		y := f.open[d][1] & e1
		k0 = p10 & y
		p10 ^= y
		k1 = p11 & k0
		p11 ^= k0
		p13 |= p12 & k1
		p12 ^= k1
	}
	for n := 2; n <= 9; n++ {
		// The cells whose count is n: each plane as n's bit says.
		b0, b1, b2, b3 := -uint64(n&1^1), -uint64(n>>1&1^1), -uint64(n>>2&1^1), -uint64(n>>3&1^1)
		if m := e0 & (p00 ^ b0) & (p01 ^ b1) & (p02 ^ b2) & (p03 ^ b3); m != 0 {
			return bits.TrailingZeros64(m)
		}
		if m := e1 & (p10 ^ b0) & (p11 ^ b1) & (p12 ^ b2) & (p13 ^ b3); m != 0 {
			return 64 + bits.TrailingZeros64(m)
		}
	}
	panic("gen: fill: an empty cell with more than nine candidates")
}
