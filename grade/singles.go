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
// so drop such a puzzle in a few microseconds instead of the 30-40 a
// grade takes, with the level a grade would have given (most random
// digs aimed at harder levels are of these two).
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
// 9*r+c of band b is the cell of row 3b+r and column c). A band's words
// of digits 2i and 2i+1 share word i of w, so that a placement takes its
// cell from every digit in five steps.
type singles struct {
	w    [3][5]uint64
	last [10][3]uint32 // each digit's places when its hidden singles were last looked for
	left int           // empty cells
}

// band masks of one row and of the first column within a band's word,
// and of a whole band.
const (
	bandRow  = 0x1ff
	bandCol  = 1 | 1<<9 | 1<<18
	bandCell = 1<<27 - 1
)

// triadLow has the first cell of each of a band's nine row triads (three
// cells of a row in one box).
const triadLow = 0b001001001 * bandCol

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

// lone9[x] is x when the 9-bit set x has one member, else 0.
var lone9 = func() (t [512]uint16) {
	for x := range t {
		if bits.OnesCount(uint(x)) == 1 {
			t[x] = uint16(x)
		}
	}
	return t
}()

// band returns digit d's places in band b.
func (s *singles) band(b, d int) uint32 { return uint32(s.w[b][d>>1] >> (32 * (d & 1))) }

// load sets s to p's givens, reporting false if two of them conflict.
func (s *singles) load(p *solve.Grid) bool {
	all := uint64(bandCell) | bandCell<<32
	for b := range s.w {
		s.w[b] = [5]uint64{all &^ bandCell, all, all, all, all}
	}
	s.last = [10][3]uint32{}
	s.left = 81
	for c, v := range p {
		if v == 0 {
			continue
		}
		if v > 9 || !s.place(c, int(v)) {
			return false
		}
	}
	return true
}

// place puts d in cell c, reporting false if c is not a place left for d.
func (s *singles) place(c, d int) bool {
	b, at := c/27, c%27
	w := &s.w[b]
	if w[d>>1]>>(32*(d&1)+at)&1 == 0 {
		return false
	}
	m := (uint64(1) | 1<<32) << at
	w[0] &^= m
	w[1] &^= m
	w[2] &^= m
	w[3] &^= m
	w[4] &^= m
	pe, sh := &singlesPeers[c], 32*(d&1)
	s.w[0][d>>1] &^= uint64(pe[0]) << sh
	s.w[1][d>>1] &^= uint64(pe[1]) << sh
	s.w[2][d>>1] &^= uint64(pe[2]) << sh
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
		changed := false
		for d := 1; d <= 9; d++ {
			cur := [3]uint32{s.band(0, d), s.band(1, d), s.band(2, d)}
			if cur == s.last[d] {
				continue
			}
			s.last[d], changed = cur, true
			if !s.hidden(d, &cur) {
				return false
			}
		}
		if !changed && (!naked || !s.nakedSingles()) {
			return false
		}
	}
	return true
}

// hidden places digit d, whose places are p, wherever it has one place
// left in a row, column or box, reporting false at a place taken since
// it was found (two units that want d in cells that see each other: no
// solution).
func (s *singles) hidden(d int, p *[3]uint32) bool {
	// A column has one place left where exactly one of the nine row
	// slices has its bit; that place is in the band that has it.
	var once, more uint32
	for b := 0; b < 3; b++ {
		w := p[b]
		r0, r1, r2 := w&bandRow, w>>9&bandRow, w>>18
		more |= once&r0 | (once|r0)&r1 | (once|r0|r1)&r2
		once |= r0 | r1 | r2
	}
	cols := (once &^ more) * bandCol
	for b := 0; b < 3; b++ {
		w := p[b]
		// Rows and boxes lie within a band's word. A box has one place
		// left where one of its three row triads is not empty and has
		// one cell: counted for the band's three boxes at once, a bit a
		// box at the triad's first cell.
		t0, t1, t2 := w&triadLow, w>>1&triadLow, w>>2&triadLow
		some, two := t0|t1|t2, t0&t1|t0&t2|t1&t2
		lone := some &^ two
		a0, a1, a2 := some&bandRow, some>>9&bandRow, some>>18
		boxes := (a0 ^ a1 ^ a2) &^ (a0&a1 | a0&a2 | a1&a2) &
			(lone | lone>>9 | lone>>18) & bandRow
		one := w&(cols|boxes*7*bandCol) |
			uint32(lone9[w&bandRow]) | uint32(lone9[w>>9&bandRow])<<9 | uint32(lone9[w>>18&bandRow])<<18
		for ; one != 0; one &= one - 1 {
			if !s.place(27*b+bits.TrailingZeros32(one), d) {
				return false
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
			x := s.band(b, d)
			more |= once & x
			once |= x
		}
		for one := once &^ more; one != 0; one &= one - 1 {
			at := bits.TrailingZeros32(one)
			for d := 1; d <= 9; d++ {
				// An earlier single of this pass may have taken the
				// cell's digit from it: then none is found.
				if s.band(b, d)>>at&1 != 0 {
					s.place(27*b+at, d)
					placed = true
					break
				}
			}
		}
	}
	return placed
}
