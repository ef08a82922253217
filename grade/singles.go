package grade

import (
	"math/bits"

	"sudokubank/solve"
)

// SinglesLevel reports the level a full grade of p gives, when singles
// alone solve p: ExtremelyEasy when hidden singles (full houses among
// them) do, Easy when naked singles are needed too. Otherwise ok is
// false and only a full grade tells: p needs more than singles, has a
// conflict among its givens, or has no solution.
//
// It is exact, not an estimate. The grader takes the easiest step each
// time, and every technique it tries before naked singles rates 2.3 or
// less; singles that solve p from its givens still solve it from any
// position the grader reaches, as a position with more known only
// leaves a digit fewer places and a cell fewer candidates, so a single
// is always there to take. When hidden singles alone cannot solve p, the
// grader needs some step rated above 1.5, as its own hidden singles
// would otherwise have solved it. A run that wants neither level can
// so drop such a puzzle in about a microsecond instead of grading it,
// with the level a grade would have given (most random digs aimed at
// harder levels are of these two).
func SinglesLevel(p *solve.Grid) (l Level, ok bool) {
	var s singles
	if !s.load(p) {
		return 0, false
	}
	if s.solve(false) {
		return ExtremelyEasy, true
	}
	if s.solve(true) {
		return Easy, true
	}
	return 0, false
}

// singles is a position for SinglesLevel: the places left for each
// digit as a bit per cell, a 27-bit word per band of three rows (bit
// 9*r+c of word b is the cell of row 3b+r and column c).
type singles struct {
	pos   [10][3]uint32 // pos[d]: the empty cells that may hold d
	left  int           // empty cells
	dirty uint16        // bit d: pos[d] lost a place since its hidden singles were looked for
}

// band masks of one row, of the box in the first three columns and of the
// first column, within a band's word.
const (
	bandRow  = 0x1ff
	bandBox  = 0x7 | 0x7<<9 | 0x7<<18
	bandCol  = 1 | 1<<9 | 1<<18
	bandCell = 1<<27 - 1
)

// singlesPeers[c] holds, per band, the peers of cell c and c itself.
var singlesPeers = func() (t [81][3]uint32) {
	for c := 0; c < 81; c++ {
		for q := 0; q < 81; q++ {
			if q == c || q/9 == c/9 || q%9 == c%9 || q/27 == c/27 && q%9/3 == c%9/3 {
				t[c][q/27] |= 1 << (q % 27)
			}
		}
	}
	return t
}()

// load sets s to p's givens, reporting false if two of them conflict.
func (s *singles) load(p *solve.Grid) bool {
	for d := 1; d <= 9; d++ {
		s.pos[d] = [3]uint32{bandCell, bandCell, bandCell}
	}
	s.left = 81
	for c, v := range p {
		if v == 0 {
			continue
		}
		if v > 9 || !s.place(c, int(v)) {
			return false
		}
	}
	s.dirty = 0x3fe
	return true
}

// place puts d in cell c, reporting false if c is not a place left for d.
func (s *singles) place(c, d int) bool {
	b, m := c/27, uint32(1)<<(c%27)
	if s.pos[d][b]&m == 0 {
		return false
	}
	at := uint(c % 27)
	for e := 1; e <= 9; e++ {
		s.dirty |= uint16(s.pos[e][b]>>at&1) << e
		s.pos[e][b] &^= m
	}
	pe := &singlesPeers[c]
	s.pos[d][0] &^= pe[0]
	s.pos[d][1] &^= pe[1]
	s.pos[d][2] &^= pe[2]
	s.left--
	return true
}

// solve places hidden singles, and naked singles too when naked is set,
// until none is left, reporting whether that fills the grid. A digit is
// placed only where it is still free, so a filled grid is valid; and as
// singles are forced, it is p's only solution.
func (s *singles) solve(naked bool) bool {
	for s.left > 0 {
		// A round looks at each digit that lost a place since the last.
		for s.dirty != 0 {
			todo := s.dirty
			s.dirty = 0
			for ; todo != 0; todo &= todo - 1 {
				if !s.hidden(bits.TrailingZeros16(todo)) {
					return false
				}
			}
		}
		if !naked || !s.nakedSingles() {
			return s.left == 0
		}
	}
	return true
}

// hidden places digit d wherever it has one place left in a row, column
// or box, reporting false at a place taken since it was found (two
// units that want d in cells that see each other: no solution).
func (s *singles) hidden(d int) bool {
	p := &s.pos[d]
	// Rows and boxes lie within a band's word.
	for b := 0; b < 3; b++ {
		for k := 0; k < 3; k++ {
			if m := p[b] >> (9 * k) & bandRow; m != 0 && m&(m-1) == 0 {
				if !s.place(27*b+9*k+bits.TrailingZeros32(m), d) {
					return false
				}
			}
			if m := p[b] & (bandBox << (3 * k)); m != 0 && m&(m-1) == 0 {
				if !s.place(27*b+bits.TrailingZeros32(m), d) {
					return false
				}
			}
		}
	}
	// A column has one place left where exactly one of the nine row
	// slices has its bit.
	var once, more uint32
	for b := 0; b < 3; b++ {
		w := p[b]
		r0, r1, r2 := w&bandRow, w>>9&bandRow, w>>18
		more |= once&r0 | (once|r0)&r1 | (once|r0|r1)&r2
		once |= r0 | r1 | r2
	}
	for one := once &^ more; one != 0; one &= one - 1 {
		col := bits.TrailingZeros32(one)
		for b := 0; b < 3; b++ {
			if m := p[b] & (bandCol << col); m != 0 {
				if !s.place(27*b+bits.TrailingZeros32(m), d) {
					return false
				}
				break
			}
		}
	}
	return true
}

// nakedSingles places every naked single of the position, reporting
// whether it placed any.
func (s *singles) nakedSingles() (placed bool) {
	for b := 0; b < 3; b++ {
		var once, more uint32
		for d := 1; d <= 9; d++ {
			more |= once & s.pos[d][b]
			once |= s.pos[d][b]
		}
		for one := once &^ more; one != 0; one &= one - 1 {
			m := one & -one
			for d := 1; d <= 9; d++ {
				// An earlier single of this pass may have taken the
				// cell's digit from it: then none is found.
				if s.pos[d][b]&m != 0 {
					s.place(27*b+bits.TrailingZeros32(m), d)
					placed = true
					break
				}
			}
		}
	}
	return placed
}
