package solve

//go:generate go run rules_gen.go
//go:generate go run rules_asm_gen.go

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

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

// rowLow, rowLow8 and rowHigh are a band's first cell, first eight cells
// and last cell of each row, for work on its three rows at once.
const (
	rowLow  = 1 | 1<<9 | 1<<18
	rowLow8 = 0xff * rowLow
	rowHigh = rowLow << 8
)

// board is a position of the fast solver.
//
// A digit-band is indexed x = b*10+d, so that one array of 32 masks
// holds them all and an index masked with 31 needs no bounds check. The
// tenth slot of each band, x = b*10+9, is padding: a band's digits then
// start on a word boundary and clear handles them two at a time, as
// five 64-bit words (see pairs).
//
// Invariants between propagations: a cell of band b holds digit d+1 only
// if bit c of f[b*10+d] is set; f[9], f[19] and f[29:] stay zero; u[b]
// holds the band's cells not yet placed, and a placed cell is set in
// exactly one of the band's f; dirty has bit x set when f[x] changed
// since the band rules last ran on it.
type board struct {
	_     [0]uint64 // aligns f as a uint64, which is all pairs needs
	f     [32]uint32
	u     [3]uint32
	dirty uint32
}

// Tables, built once: see the comment on each for the invariant it holds.
var (
	// keepMask maps the 9-bit set of (row r, box k) triads holding a
	// digit (bit k*3+r, the order triads gathers them in) to the 27-bit
	// mask of the triads that take part in at least one placement of the
	// digit in the band: one cell per row and per box, that is a 3x3
	// permutation. 0 means no placement.
	keepMask [512]uint32
	// colElim maps a band's 9-bit column occupancy to the columns (all
	// three rows) that are the only column of their stack: the digit's
	// cell of that box is in that column, so other bands lose it.
	colElim [512]uint32
	// colKeep maps the 9-bit set of columns that only this band can
	// serve to the cells the band keeps: a box with one such column keeps
	// only that column, a box with two or more keeps nothing.
	colKeep [512]uint32
	// bandPeers maps a cell of a band to the other cells of its row and
	// box in the band; it is sized so that an index masked with 31 needs
	// no bounds check.
	bandPeers [32]uint32
	// colPair maps a cell of a band to its column's cells in two other
	// bands, one in bits 0-26 and the other in bits 27-53.
	colPair [32]uint64
	// peers01 maps a cell of band 0 or 1, numbered i = b*27+c, to its
	// peers in those two bands, numbered the same way; cellOf maps it to
	// c. They are sized so that an index masked with 63 needs no bounds
	// check.
	peers01 [64]uint64
	cellOf  [64]uint8
	// colCells maps a column to its three cells in a band.
	colCells [9]uint32
	// colOf maps a cell of a band to its column's three cells in a
	// band; it is sized so that an index masked with 31 needs no bounds
	// check.
	colOf [32]uint32
	// rowCells and boxCells map a set of rows or boxes of a band (bit r,
	// bit k) to their cells.
	rowCells, boxCells [8]uint32
	// mates maps a digit-band x to the same digit's two other bands.
	mates [32][2]uint8
	// lowDigits and highDigits map the 5-bit set of the words of pairs
	// (bit i for word i of a band) whose low, respectively high, half
	// lost a cell to the digits those halves hold (bit e for digit e+1):
	// on a little-endian machine the low half of word i is digit 2i,
	// on a big-endian one digit 2i+1.
	lowDigits, highDigits [32]uint32
)

func init() {
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for t := 0; t < 512; t++ {
		keep := 0
		for _, p := range perms {
			m := 1<<(0*3+p[0]) | 1<<(1*3+p[1]) | 1<<(2*3+p[2])
			if t&m == m {
				keep |= m
			}
		}
		var tk int // t with bit k*3+r for bit r*3+k
		for r := 0; r < 3; r++ {
			for k := 0; k < 3; k++ {
				tk |= t >> (r*3 + k) & 1 << (k*3 + r)
			}
		}
		for r := 0; r < 3; r++ {
			for k := 0; k < 3; k++ {
				if keep&(1<<(r*3+k)) != 0 {
					keepMask[tk] |= 7 << (r*9 + k*3)
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
	for x := 0; x < 30; x++ {
		mates[x] = [2]uint8{uint8((x + 10) % 30), uint8((x + 20) % 30)}
	}
	word := uint64(1)
	lowFirst := *(*uint32)(unsafe.Pointer(&word)) == 1
	for m := range lowDigits {
		var even uint32
		for i := 0; i < 5; i++ {
			even |= uint32(m>>i&1) << (2 * i)
		}
		lowDigits[m], highDigits[m] = even, even<<1
		if !lowFirst {
			lowDigits[m], highDigits[m] = even<<1, even
		}
	}
	for i := 0; i < 27; i++ {
		r, c := i/9, i%9
		for j := 0; j < 27; j++ {
			if j != i && (j/9 == r || j%9/3 == c/3) {
				bandPeers[i] |= 1 << j
			}
		}
		colPair[i] = uint64(colCells[c]) | uint64(colCells[c])<<27
		colOf[i] = colCells[c]
	}
	for i := 0; i < 54; i++ {
		b, c := i/27, i%27
		peers01[i] = uint64(bandPeers[c])<<(27*b) | uint64(colOf[c])<<(27*(1-b))
		cellOf[i] = uint8(c)
	}
}

// load sets up the position of g; it reports false when two givens
// clash or a cell holds a value above 9. It computes every digit's
// candidates at once from the givens' rows, boxes and columns, and leaves
// the rest to propagate. A digit-band holding its three givens is already
// at the band rules' fixed point and is not marked dirty.
//
// It has no loop over the givens: a loop that adds each given to masks
// chosen by its digit stores and loads at addresses the processor cannot
// tell apart in advance, and costs more the more givens there are (about
// 1.6 times this code's time at 35 givens, 2.7 times at 81, as in a dig).
// Instead the values' bits are gathered into four bit planes a band (see
// planes), each digit's cells of a band are an and of planes, and each
// digit's peers are computed from its cells in the three bands at once.
func (s *board) load(g *Grid) bool {
	// The work goes two digits at a time, in the two 32-bit halves of a
	// word (laid out as pairs, but built and stored half by half, so that
	// the byte order does not matter): no shift or sum below crosses
	// from one half to the other.
	const lo = 1 | 1<<32
	var high uint64
	var dm [3][5]uint64 // word i of band b: values 2i+1 and 2i+2, the last high half empty
	for b := range dm {
		w0 := binary.LittleEndian.Uint64(g[b*27:])
		w1 := binary.LittleEndian.Uint64(g[b*27+8:])
		w2 := binary.LittleEndian.Uint64(g[b*27+16:])
		// Bytes 19 to 26: the band's last three cells are its top three.
		w3 := binary.LittleEndian.Uint64(g[b*27+19:])
		high |= w0 | w1 | w2 | w3
		p0, p1, p2, p3 := planes(w0, w1, w2, w3)
		if p3&(p1|p2) != 0 {
			return false // a value from 10 to 15
		}
		q0, q1 := bandAll&^p0, bandAll&^p1
		l00, l01, l10, l11 := q0&q1, p0&q1, q0&p1, p0&p1
		h0, h1 := bandAll&^(p2|p3), p2&^p3
		d := &dm[b]
		d[0] = uint64(h0&l01) | uint64(h0&l10)<<32
		d[1] = uint64(h0&l11) | uint64(h1&l00)<<32
		d[2] = uint64(h1&l01) | uint64(h1&l10)<<32
		// 8 and 9 are the values with bit 3 set (10 to 15 are out).
		d[3] = uint64(h1&l11) | uint64(p3&q0)<<32
		d[4] = uint64(p3 & p0)
		s.u[b] = bandAll &^ (p0 | p1 | p2 | p3)
	}
	if high&0xf0f0f0f0f0f0f0f0 != 0 {
		return false // a value above 15
	}
	// A digit's cells of a band, when no two of them are peers, occupy
	// as many rows and as many boxes as there are cells, and fewer of
	// either when two are; so the givens clash in a row or box exactly
	// when all digits' occupied rows and boxes, counted together, fall
	// short of twice the givens. Columns clash only across bands (two
	// cells of a column in a band share a box).
	u0, u1, u2 := uint64(s.u[0])*lo, uint64(s.u[1])*lo, uint64(s.u[2])*lo
	var cross uint64
	var lines int
	var dirty uint32
	for i := range 5 {
		a0, a1, a2 := dm[0][i], dm[1][i], dm[2][i]
		c0 := (a0 | a0>>9 | a0>>18) & (511 * lo)
		c1 := (a1 | a1>>9 | a1>>18) & (511 * lo)
		c2 := (a2 | a2>>9 | a2>>18) & (511 * lo)
		cross |= c0&c1 | c0&c2 | c1&c2
		// Bit 9r of r: row r holds a cell; bit 3k of k: box k does.
		r0 := (a0&(rowLow8*lo) + rowLow8*lo | a0) >> 8 & (rowLow * lo)
		r1 := (a1&(rowLow8*lo) + rowLow8*lo | a1) >> 8 & (rowLow * lo)
		r2 := (a2&(rowLow8*lo) + rowLow8*lo | a2) >> 8 & (rowLow * lo)
		k0 := (c0 | c0>>1 | c0>>2) & (0o111 * lo)
		k1 := (c1 | c1>>1 | c1>>2) & (0o111 * lo)
		k2 := (c2 | c2>>1 | c2>>2) & (0o111 * lo)
		lines += bits.OnesCount64(r0 | r1<<1 | r2<<2 | (k0|k1<<1|k2<<2)<<21)
		// A digit-band's rows and boxes spread over their cells, and its
		// other bands' columns likewise; no product carries.
		const boxSpread = 7 * rowLow
		f0 := u0&^(r0*511|k0*boxSpread|(c1|c2)*rowLow) | a0
		f1 := u1&^(r1*511|k1*boxSpread|(c0|c2)*rowLow) | a1
		f2 := u2&^(r2*511|k2*boxSpread|(c0|c1)*rowLow) | a2
		s.f[2*i], s.f[10+2*i], s.f[20+2*i] = uint32(f0), uint32(f1), uint32(f2)
		// With no clash a digit-band has its three givens exactly when
		// its three rows hold one: (z + bandAll) >> 27 is 1 for a
		// non-zero 27-bit z.
		t := ((r0^rowLow*lo)+bandAll*lo)>>27&lo | ((r1^rowLow*lo)+bandAll*lo)>>27&lo<<10 | ((r2^rowLow*lo)+bandAll*lo)>>27&lo<<20
		if i == 4 {
			// The high halves are the padding slots, which stay empty.
			dirty |= uint32(t) << 8
			break
		}
		s.f[2*i+1], s.f[11+2*i], s.f[21+2*i] = uint32(f0>>32), uint32(f1>>32), uint32(f2>>32)
		dirty |= (uint32(t) | uint32(t>>32)<<1) << (2 * i)
	}
	if cross != 0 || lines != 2*(81-bits.OnesCount64(uint64(s.u[0])|uint64(s.u[1])<<27)-bits.OnesCount32(s.u[2])) {
		return false // two givens of one digit in a row, column or box
	}
	s.dirty = dirty
	return true
}

// planes returns the bit planes of a band's 27 values, read as words
// w0 (values 0-7), w1 (8-15), w2 (16-23) and w3 (19-26): bit j of pk is
// bit k of value j. One multiplication gathers bit k of a word's eight
// bytes into its top byte, byte i onto bit 56+i, without carries: a term
// lands on the top byte only from byte i and multiplier byte 7-i.
func planes(w0, w1, w2, w3 uint64) (p0, p1, p2, p3 uint32) {
	const ones, gather = 0x0101010101010101, 0x0102040810204080
	p0 = uint32(w0&ones*gather>>56 | w1&ones*gather>>56<<8 | w2&ones*gather>>56<<16 | w3&ones*gather>>61<<24)
	w0, w1, w2, w3 = w0>>1, w1>>1, w2>>1, w3>>1
	p1 = uint32(w0&ones*gather>>56 | w1&ones*gather>>56<<8 | w2&ones*gather>>56<<16 | w3&ones*gather>>61<<24)
	w0, w1, w2, w3 = w0>>1, w1>>1, w2>>1, w3>>1
	p2 = uint32(w0&ones*gather>>56 | w1&ones*gather>>56<<8 | w2&ones*gather>>56<<16 | w3&ones*gather>>61<<24)
	w0, w1, w2, w3 = w0>>1, w1>>1, w2>>1, w3>>1
	p3 = uint32(w0&ones*gather>>56 | w1&ones*gather>>56<<8 | w2&ones*gather>>56<<16 | w3&ones*gather>>61<<24)
	return p0, p1, p2, p3
}

// triads returns the set of (row r, box k) triads of band mask a that
// hold a cell, bit k*3+r. Each triad's cells are folded onto its first
// cell, bit 3j for triad j = r*3+k, and one multiplication gathers the
// nine bits: its terms move triads 0-2 up 16, 3-5 up 8 and 6-8 not at
// all, onto bits 16 to 24. Terms that differ in their shift mod 3 never
// land on one bit, so the product has no carries.
func triads(a uint32) uint32 {
	first := (a | a>>1 | a>>2) & 0x1249249
	return first * (1<<16 | 1<<8 | 1) >> 16 & 511
}

// digits returns the nine digit masks of band b.
func (s *board) digits(b int) *[9]uint32 { return (*[9]uint32)(s.f[b*10 : b*10+9]) }

// pairs views f as 16 words, word k holding f[2k] and f[2k+1] (in its
// low and high halves on a little-endian machine). Band b's digits are
// words b*5 to b*5+4, the last one holding digit 9 and the padding
// slot. The view is safe: f has a uint64's alignment (board's first
// field is a [0]uint64) and is 128 bytes long, and callers mask their
// indexes with 15.
func (s *board) pairs() *[16]uint64 { return (*[16]uint64)(unsafe.Pointer(&s.f)) }

// band views band b's digits as the five words of pairs that hold
// them; b must be 0, 1 or 2.
func (s *board) band(b int) *[5]uint64 {
	return (*[5]uint64)(unsafe.Pointer(&s.f[b*10&31]))
}

// clear removes cells from every digit of band b and returns the digits
// that lost one (bit e for digit e+1). It has no branch: whether a digit
// holds one of the cells is close to a coin toss, which a branch would
// mispredict. It works on two digits at once, a word of pairs: adding
// bandAll to a non-zero 27-bit half carries into its bit 27, which stays
// inside the half, so one add tests both. The band rules (rules_gen.go)
// hold a written-out variant of this body, which spares each digit the
// cells it placed itself: change both together.
func (s *board) clear(b int, cells uint32) uint32 {
	const lo = 1 | 1<<32
	w := s.band(b)
	p := uint64(cells) * lo
	z := w[0] & p
	w[0] ^= z
	t := (z + bandAll*lo) & (lo << 27)
	z = w[1] & p
	w[1] ^= z
	t |= (z + bandAll*lo) & (lo << 27) << 1
	z = w[2] & p
	w[2] ^= z
	t |= (z + bandAll*lo) & (lo << 27) << 2
	z = w[3] & p
	w[3] ^= z
	t |= (z + bandAll*lo) & (lo << 27) << 3
	z = w[4] & p
	w[4] ^= z
	t |= (z + bandAll*lo) & (lo << 27) << 4
	// Bit 27+i of t is word i's low half, bit 59+i its high half.
	return lowDigits[t>>27&31] | highDigits[t>>59]
}

// place puts digit d+1 in cell c of band b, removing it from the cell's
// row, box and column and the other digits from the cell. It reports
// false when the digit is no longer a candidate there. The search calls
// placeSingle and placeCands, which know more about the cell and skip
// work; place is what the tests hold them to.
func (s *board) place(b, d int, c uint) bool {
	bit := uint32(1) << (c & 31)
	x := (b*10 + d) & 31
	a := s.f[x]
	if a&bit == 0 {
		return false
	}
	s.u[b] &^= bit
	// d's own mask is stored below, and x is marked dirty anyway.
	changed := s.clear(b, bit)
	s.f[x] = a &^ bandPeers[c&31]
	s.dirty |= changed<<(b*10&31) | 1<<x
	s.dropColumn(x, c)
	return true
}

// dropColumn removes the column of cell c from digit-band x's other
// bands, marking those that lose a cell dirty: (z + bandAll) >> 27 is 1
// for a non-zero 27-bit z, 0 for zero. It is small enough to inline into
// each place function.
func (s *board) dropColumn(x int, c uint) {
	col := colOf[c&31]
	o0, o1 := mates[x][0]&31, mates[x][1]&31
	z0, z1 := s.f[o0]&col, s.f[o1]&col
	s.f[o0] ^= z0
	s.f[o1] ^= z1
	s.dirty |= (z0+bandAll)>>27<<o0 | (z1+bandAll)>>27<<o1
}

// placeSingle is place for a naked single: digit d+1 is the only
// candidate of cell c of band b. No other digit of the band holds the
// cell, so place's clear would change nothing and mark no digit: it is
// left out, and so is the test that d+1 is a candidate. The position and
// dirty bits come out as place leaves them (TestPlaceSingle).
func (s *board) placeSingle(b, d int, c uint) {
	x := (b*10 + d) & 31
	s.u[b] &^= 1 << (c & 31)
	s.f[x] &^= bandPeers[c&31]
	s.dirty |= 1 << x
	s.dropColumn(x, c)
}

// placeCands is place for a cell whose candidates m (bit e for digit
// e+1, d among them) the caller knows, as the search does for the cell
// it branches on: only those digits hold the cell, so they lose it one
// by one instead of through clear's five words, and are marked dirty as
// clear would mark them. The position and dirty bits come out as place
// leaves them (TestPlaceCands).
func (s *board) placeCands(b, d int, c uint, m uint32) {
	bit := uint32(1) << (c & 31)
	x := (b*10 + d) & 31
	s.u[b] &^= bit
	for o := m &^ (1 << d); o != 0; o &= o - 1 {
		s.f[(b*10+bits.TrailingZeros32(o))&31] &^= bit
	}
	s.f[x] &^= bandPeers[c&31]
	s.dirty |= m << (b * 10 & 31)
	s.dropColumn(x, c)
}

// digitAt views f from digit-band d on: element x of the view is
// f[d+x], so that one pointer reaches a digit in every band at a fixed
// offset (0, 10 and 20). d must be 0..8: the view then ends inside f.
func (s *board) digitAt(d uint) *[21]uint32 {
	return (*[21]uint32)(unsafe.Add(unsafe.Pointer(&s.f), d*4))
}

// propagate runs the band rules and naked singles to a fixed point. It
// reports false on a contradiction. On success biv holds each band's
// unsolved cells with two candidates, for branch: the last round of naked
// singles, which placed nothing, counts them on the way.
func (s *board) propagate(biv *[3]uint32) bool {
	for {
		ok := false
		if useV3 {
			ok = rulesV3(s)
		} else {
			ok = s.rules()
		}
		if !ok {
			return false
		}
		progress := false
		for b := range s.u {
			u := s.u[b]
			if u == 0 {
				biv[b] = 0
				continue
			}
			// Cells with at least one, two, three candidates, counted
			// in the two halves of pairs at once and then merged.
			w := s.band(b)
			one64 := w[0]
			two64 := one64 & w[1]
			one64 |= w[1]
			three64 := two64 & w[2]
			two64 |= one64 & w[2]
			one64 |= w[2]
			three64 |= two64 & w[3]
			two64 |= one64 & w[3]
			one64 |= w[3]
			three64 |= two64 & w[4]
			two64 |= one64 & w[4]
			one64 |= w[4]
			l1, h1 := uint32(one64), uint32(one64>>32)
			l2, h2 := uint32(two64), uint32(two64>>32)
			one := l1 | h1
			two := l2 | h2 | l1&h1
			three := uint32(three64) | uint32(three64>>32) | l2&h1 | l1&h2
			if u&^one != 0 {
				return false // an unsolved cell has no candidate
			}
			single := u &^ two
			if single == 0 {
				biv[b] = u &^ three
				continue
			}
			progress = true
			// The singles are placed cell by cell: the order does not
			// matter, as placing one only takes its digit from its peers,
			// and two singles of one digit that see each other fail either
			// way (the second finds no candidate left).
			for m := single; m != 0; m &= m - 1 {
				c := uint(bits.TrailingZeros32(m))
				d := s.cands(b, c)
				if d == 0 {
					return false
				}
				s.placeSingle(b, bits.TrailingZeros32(d), c)
			}
		}
		if !progress {
			return true
		}
	}
}

// solved reports whether every cell is placed.
func (s *board) solved() bool { return s.u[0]|s.u[1]|s.u[2] == 0 }

// grid writes a solved position as a grid. It has no loop over a
// digit's cells, whose 30 exits a grid the processor would mostly
// mispredict: bit k of a value is set in the cells of the digits with
// that bit, so a band's values are four bit planes, or-ed from its
// digits, and spread onto bytes eight cells at a time. The word for cells
// 19-26 overlaps the one for 16-23, with the same bytes.
func (s *board) grid(g *Grid) {
	for b := range 3 {
		f := s.digits(b) // f[d] holds value d+1
		p0 := f[0] | f[2] | f[4] | f[6] | f[8]
		p1 := f[1] | f[2] | f[5] | f[6]
		p2 := f[3] | f[4] | f[5] | f[6]
		p3 := f[7] | f[8]
		for _, at := range [4]int{0, 8, 16, 19} {
			w := spread(p0>>at) | spread(p1>>at)<<1 | spread(p2>>at)<<2 | spread(p3>>at)<<3
			binary.LittleEndian.PutUint64(g[b*27+at:], w)
		}
	}
}

// spread returns the low eight bits of m as eight bytes, bit i as byte
// i's lowest bit. The multiplication copies them into every byte, where
// the mask keeps bit i of byte i; adding 0x7f to a byte carries into its
// high bit exactly when it is not zero.
func spread(m uint32) uint64 {
	const ones, diagonal, low7, high = 0x0101010101010101, 0x8040201008040201, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	return (uint64(m&255)*ones&diagonal + low7) & high >> 7
}

// branch chooses the cell to branch on in a propagated, unsolved
// position, given its bivalue cells biv from propagate: the bivalue cell
// with the most unsolved peers (the first of them), else the first cell
// with the fewest candidates. It returns the band, the cell in the band
// and the candidate digits (bit d for digit d+1).
func (s *board) branch(biv *[3]uint32) (int, uint, uint32) {
	var best int
	if useV3 {
		best = bivalueKeyV3(s, biv)
	} else {
		best = s.bivalueKey(biv)
	}
	if best >= 0 {
		i := 127 - best&127
		return i / 27, uint(i % 27), s.cands(i/27, uint(i%27))
	}
	// No bivalue cell: take the first cell with the fewest candidates.
	// A band's candidate counts are added up at once, bit-sliced: bit j
	// of ci is bit i of cell j's count.
	bestB, bestC, bestN := -1, uint(0), 10
	for b := range s.u {
		u := s.u[b]
		if u == 0 {
			continue
		}
		var c0, c1, c2, c3 uint32
		for _, f := range s.digits(b) {
			k0 := c0 & f
			c0 ^= f
			k1 := c1 & k0
			c1 ^= k0
			c3 |= c2 & k1 // a count reaches 8 once at most
			c2 ^= k1
		}
		for n := 3; n < bestN; n++ {
			exact := u & (c0 ^ -uint32(n&1^1)) & (c1 ^ -uint32(n>>1&1^1)) &
				(c2 ^ -uint32(n>>2&1^1)) & (c3 ^ -uint32(n>>3&1^1))
			if exact != 0 {
				bestB, bestC, bestN = b, uint(bits.TrailingZeros32(exact)), n
				break
			}
		}
	}
	return bestB, bestC, s.cands(bestB, bestC)
}

// bivalueKey returns the key of the best bivalue cell of biv for branch,
// or -1 when there is none. A cell's score is its number of unsolved
// peers: the band's row and box peers, then its column in the two other
// bands. The best cell is the one with the largest key, its score above
// the complement of its index b*27+c: a tie goes to the first cell. max
// compiles to a conditional move, whose chain from one cell to the next
// is shorter than an arithmetic maximum's. It calls nothing, so that
// rules_asm_gen.go can write it out as assembly.
func (s *board) bivalueKey(biv *[3]uint32) int {
	// Bands 0 and 1 are scanned as one 54-bit mask, cell i = b*27+c, so
	// that a call leaves two loops, not three (each exit is usually a
	// misprediction); u01 holds their unsolved cells the same way.
	best := -1
	u2 := s.u[2]
	u01 := uint64(s.u[0]) | uint64(s.u[1])<<27
	for m := uint64(biv[0]) | uint64(biv[1])<<27; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m) & 63
		score := bits.OnesCount64(u01&peers01[i]) + bits.OnesCount32(u2&colOf[cellOf[i]&31])
		best = max(best, score<<7|(127-i))
	}
	for m := biv[2]; m != 0; m &= m - 1 {
		c := bits.TrailingZeros32(m) & 31
		score := bits.OnesCount32(u2&bandPeers[c]) + bits.OnesCount64(u01&colPair[c])
		best = max(best, score<<7|(127-54-c))
	}
	return best
}

// cands returns the candidate digits of cell c of band b, bit d for d+1.
// It reads the band's digits two at a time, as words of pairs: bit i of
// t is word i's low half, bit 32+i its high half.
func (s *board) cands(b int, c uint) uint32 {
	const lo = 1 | 1<<32
	w, k := s.pairs(), b*5
	t := w[k&15] >> (c & 31) & lo
	t |= w[(k+1)&15] >> (c & 31) & lo << 1
	t |= w[(k+2)&15] >> (c & 31) & lo << 2
	t |= w[(k+3)&15] >> (c & 31) & lo << 3
	t |= w[(k+4)&15] >> (c & 31) & lo << 4
	return lowDigits[t&31] | highDigits[t>>32&31]
}
