package solve

import "math/bits"

// The fast solver works on bands: rows 0-2, 3-5 and 6-8. Within a band a
// cell is bit r*9+c, r the row in the band (0..2) and c the column (0..8),
// so one band is a 27-bit mask and one digit of the whole grid is three
// of them. The design follows the public descriptions of band-oriented
// bitboard solvers (JCZSolve, fsss2): a digit's three cells in a band
// must form a permutation of (row, box) pairs, which gives locked
// candidates in rows and boxes by table look-up, and the three bands of a
// digit constrain each other through their column occupancy.

// bandAll is the 27-bit mask of a whole band.
const bandAll = 1<<27 - 1

// board is a position of the fast solver.
//
// Invariants between propagations: a cell of band b holds digit d+1 only
// if bit c of f[b][d] is set; u[b] holds the band's cells not yet placed,
// and a placed cell is set in exactly one f[b][d]; dirty has bit b*9+d set
// when f[b][d] changed since the band rules last ran on it.
type board struct {
	f     [3][9]uint32
	u     [3]uint32
	dirty uint32
}

// Tables, built once: see the comment on each for the invariant it holds.
var (
	// rowBoxes maps a row's 9-bit pattern to the 3-bit set of boxes it
	// touches.
	rowBoxes [512]uint32
	// keepMask maps the 9-bit set of (row r, box k) triads holding a
	// digit (bit r*3+k) to the 27-bit mask of the triads that take part
	// in at least one placement of the digit in the band: one cell per
	// row and per box, that is a 3x3 permutation. 0 means no placement.
	keepMask [512]uint32
	// rowSingle maps a row's 9-bit pattern to itself when it has one
	// cell, to 0 otherwise.
	rowSingle [512]uint32
	// colElim maps a band's 9-bit column occupancy to the columns (all
	// three rows) that are the only column of their stack: the digit's
	// cell of that box is in that column, so other bands lose it.
	colElim [512]uint32
	// colKeep maps the 9-bit set of columns that only this band can
	// serve to the cells the band keeps: a box with one such column keeps
	// only that column, a box with two or more keeps nothing.
	colKeep [512]uint32
	// bandPeers maps a cell of a band to the other cells of its row and
	// box in the band.
	bandPeers [27]uint32
	// colCells maps a column to its three cells in a band.
	colCells [9]uint32
	// rowCells and boxCells map a set of rows or boxes of a band (bit r,
	// bit k) to their cells.
	rowCells, boxCells [8]uint32
	// otherBands lists, for each band, the two other bands.
	otherBands = [3][2]int{{1, 2}, {0, 2}, {0, 1}}
)

func init() {
	for p := 0; p < 512; p++ {
		for k := 0; k < 3; k++ {
			if p&(7<<(3*k)) != 0 {
				rowBoxes[p] |= 1 << k
			}
		}
		if bits.OnesCount(uint(p)) == 1 {
			rowSingle[p] = uint32(p)
		}
	}
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for t := 0; t < 512; t++ {
		keep := 0
		for _, p := range perms {
			m := 1<<(0*3+p[0]) | 1<<(1*3+p[1]) | 1<<(2*3+p[2])
			if t&m == m {
				keep |= m
			}
		}
		for r := 0; r < 3; r++ {
			for k := 0; k < 3; k++ {
				if keep&(1<<(r*3+k)) != 0 {
					keepMask[t] |= 7 << (r*9 + k*3)
				}
			}
		}
	}
	for c := 0; c < 9; c++ {
		colCells[c] = 1<<c | 1<<(c+9) | 1<<(c+18)
	}
	for m := 0; m < 8; m++ {
		for k := 0; k < 3; k++ {
			if m&(1<<k) != 0 {
				rowCells[m] |= 511 << (9 * k)
				boxCells[m] |= (7 | 7<<9 | 7<<18) << (3 * k)
			}
		}
	}
	for occ := 0; occ < 512; occ++ {
		for k := 0; k < 3; k++ {
			s := occ >> (3 * k) & 7
			if bits.OnesCount(uint(s)) == 1 {
				colElim[occ] |= colCells[3*k+bits.TrailingZeros(uint(s))]
			}
			switch bits.OnesCount(uint(s)) {
			case 0:
				colKeep[occ] |= colCells[3*k] | colCells[3*k+1] | colCells[3*k+2]
			case 1:
				colKeep[occ] |= colCells[3*k+bits.TrailingZeros(uint(s))]
			}
		}
	}
	for i := 0; i < 27; i++ {
		r, c := i/9, i%9
		for j := 0; j < 27; j++ {
			if j != i && (j/9 == r || j%9/3 == c/3) {
				bandPeers[i] |= 1 << j
			}
		}
	}
}

// load sets up the position of g; it reports false when two givens
// clash or a cell holds a value above 9. It computes every digit's
// candidates at once from the givens' rows, boxes and columns, and leaves
// the rest to propagate. A digit-band holding its three givens is already
// at the band rules' fixed point and is not marked dirty.
func (s *board) load(g *Grid) bool {
	var placed [3][9]uint32
	var filled [3]uint32
	for b := range placed {
		for j, v := range g[b*27 : b*27+27] {
			if v == 0 {
				continue
			}
			if v > 9 {
				return false
			}
			placed[b][v-1] |= 1 << j
			filled[b] |= 1 << j
		}
	}
	s.dirty = 0
	for d := 0; d < 9; d++ {
		var cols uint32
		n := 0
		for b := range placed {
			p := placed[b][d]
			cols |= (p | p>>9 | p>>18) & 511
			n += bits.OnesCount32(p)
		}
		if n != bits.OnesCount32(cols) {
			return false // two givens of d in one column
		}
		seenCols := cols | cols<<9 | cols<<18
		for b := range placed {
			p := placed[b][d]
			rows := rowsHit(p)
			boxes := rowBoxes[p&511] | rowBoxes[p>>9&511] | rowBoxes[p>>18&511]
			k := bits.OnesCount32(p)
			if k != bits.OnesCount32(rows) || k != bits.OnesCount32(boxes) {
				return false // two givens of d in one row or box
			}
			s.f[b][d] = bandAll&^filled[b]&^(seenCols|rowCells[rows]|boxCells[boxes&7]) | p
			if k != 3 {
				s.dirty |= 1 << (b*9 + d)
			}
		}
	}
	for b := range s.u {
		s.u[b] = bandAll &^ filled[b]
	}
	return true
}

// rowsHit returns the set of rows of a band (bit r) that p touches.
func rowsHit(p uint32) uint32 {
	// (x + 511) >> 9 is 1 for a non-zero 9-bit x, 0 for zero.
	return (p&511+511)>>9 | (p>>9&511+511)>>9<<1 | (p>>18&511+511)>>9<<2
}

// place puts digit d+1 in cell c of band b, removing it from the cell's
// row, box and column and the other digits from the cell. It reports
// false when the digit is no longer a candidate there.
func (s *board) place(b, d int, c uint) bool {
	bit := uint32(1) << (c & 31)
	if s.f[b][d]&bit == 0 {
		return false
	}
	s.u[b] &^= bit
	for e := range s.f[b] {
		if e != d && s.f[b][e]&bit != 0 {
			s.f[b][e] &^= bit
			s.dirty |= 1 << (b*9 + e)
		}
	}
	s.f[b][d] &^= bandPeers[c%27]
	s.dirty |= 1 << (b*9 + d)
	col := colCells[c%9]
	for _, o := range otherBands[b] {
		if s.f[o][d]&col != 0 {
			s.f[o][d] &^= col
			s.dirty |= 1 << (o*9 + d)
		}
	}
	return true
}

// update applies the band rules to digit d in band b: locked candidates
// between rows and boxes, columns that only this band can serve, hidden
// singles in rows (which the first rule turns hidden singles in boxes and
// columns into), and columns the band takes from the others. It reports
// false on a contradiction.
func (s *board) update(b, d int) bool {
	a := s.f[b][d]
	ob := &otherBands[b]
	o := s.f[ob[0]][d] | s.f[ob[1]][d]
	other := (o | o>>9 | o>>18) & 511
	var occ uint32
	for {
		t := rowBoxes[a&511] | rowBoxes[a>>9&511]<<3 | rowBoxes[a>>18&511]<<6
		a &= keepMask[t&511]
		if a == 0 {
			return false
		}
		occ = (a | a>>9 | a>>18) & 511
		if occ|other != 511 {
			return false // a column has no place left for the digit
		}
		must := occ &^ other
		if must == 0 {
			break
		}
		na := a & colKeep[must]
		if na == a {
			break
		}
		a = na
	}
	s.f[b][d] = a
	single := rowSingle[a&511] | rowSingle[a>>9&511]<<9 | rowSingle[a>>18&511]<<18
	if placed := single & s.u[b]; placed != 0 {
		s.u[b] &^= placed
		for e := range s.f[b] {
			if e != d && s.f[b][e]&placed != 0 {
				s.f[b][e] &^= placed
				s.dirty |= 1 << (b*9 + e)
			}
		}
	}
	if cm := colElim[occ]; cm != 0 {
		for _, x := range ob {
			if s.f[x][d]&cm != 0 {
				s.f[x][d] &^= cm
				s.dirty |= 1 << (x*9 + d)
			}
		}
	}
	return true
}

// propagate runs the band rules and naked singles to a fixed point. It
// reports false on a contradiction.
func (s *board) propagate() bool {
	for {
		for s.dirty != 0 {
			x := bits.TrailingZeros32(s.dirty)
			s.dirty &= s.dirty - 1
			if !s.update(x/9, x%9) {
				return false
			}
		}
		progress := false
		for b := range s.u {
			u := s.u[b]
			if u == 0 {
				continue
			}
			var one, two uint32
			for _, f := range s.f[b] {
				two |= one & f
				one |= f
			}
			if u&^one != 0 {
				return false // an unsolved cell has no candidate
			}
			single := u &^ two
			if single == 0 {
				continue
			}
			progress = true
			for d, f := range s.f[b] {
				for m := f & single; m != 0; m &= m - 1 {
					if !s.place(b, d, uint(bits.TrailingZeros32(m))) {
						return false
					}
				}
			}
		}
		if !progress {
			return true
		}
	}
}

// solved reports whether every cell is placed.
func (s *board) solved() bool { return s.u[0]|s.u[1]|s.u[2] == 0 }

// grid writes a solved position as a grid.
func (s *board) grid(g *Grid) {
	for b := range s.f {
		for d, f := range s.f[b] {
			for m := f; m != 0; m &= m - 1 {
				g[b*27+bits.TrailingZeros32(m)] = uint8(d + 1)
			}
		}
	}
}

// branch chooses the cell to branch on in a propagated, unsolved
// position: the first cell with two candidates, else the first with the
// fewest. It returns the band, the cell in the band and the candidate
// digits (bit d for digit d+1).
func (s *board) branch() (int, uint, uint32) {
	var biv [3]uint32
	for b := range s.u {
		if s.u[b] == 0 {
			continue
		}
		var one, two, three uint32
		for _, f := range s.f[b] {
			three |= two & f
			two |= one & f
			one |= f
		}
		biv[b] = s.u[b] &^ three
	}
	bestB, bestC, bestScore := -1, uint(0), -1
	for b := range biv {
		ob := &otherBands[b]
		for m := biv[b]; m != 0; m &= m - 1 {
			c := uint(bits.TrailingZeros32(m))
			col := colCells[c%9]
			score := bits.OnesCount32(s.u[b]&bandPeers[c%27]) + bits.OnesCount32(s.u[ob[0]]&col) + bits.OnesCount32(s.u[ob[1]]&col)
			if score > bestScore {
				bestB, bestC, bestScore = b, c, score
			}
		}
	}
	if bestB >= 0 {
		return bestB, bestC, s.cands(bestB, bestC)
	}
	// No bivalue cell: take the first cell with the fewest candidates,
	// counting the candidates of a band's cells all at once.
	bestN := 10
	for b := range s.u {
		if s.u[b] == 0 {
			continue
		}
		var ge [10]uint32 // ge[k]: cells with more than k candidates
		for _, f := range s.f[b] {
			for k := 8; k > 0; k-- {
				ge[k] |= ge[k-1] & f
			}
			ge[0] |= f
		}
		for n := 3; n < bestN; n++ {
			if exact := s.u[b] & ge[n-1] &^ ge[n]; exact != 0 {
				bestB, bestC, bestN = b, uint(bits.TrailingZeros32(exact)), n
				break
			}
		}
	}
	return bestB, bestC, s.cands(bestB, bestC)
}

// cands returns the candidate digits of cell c of band b, bit d for d+1.
func (s *board) cands(b int, c uint) uint32 {
	var m uint32
	for d, f := range s.f[b] {
		m |= (f >> (c & 31) & 1) << d
	}
	return m
}
