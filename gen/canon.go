package gen

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"

	"sudokubank/solve"
)

// The canonical form of a grid is the smallest of the 81-character strings
// of all its transforms, with an empty cell sorting before every digit and
// the digits of each transformed grid relabelled in order of first
// appearance (the first digit read in row-major order becomes 1, the next
// new digit 2, and so on). This is the form often called "minlex". Two
// grids have the same canonical form exactly when one is a transform of
// the other.
//
// Both searches below build the canonical string one result row at a time
// and keep every partial transform whose prefix is the smallest seen: the
// string is compared row by row, so a partial transform whose row is
// larger than the best can never win. Choices that the rows so far cannot
// tell apart are not enumerated but kept open (an unassigned stack, a group
// of interchangeable columns) and are settled only when a row needs them.
//
// The order in which the puzzle search keeps candidates is part of its
// output: Canon returns the transform of the first one left, and banks
// store it. Shortcuts may skip a row only when it would be dropped anyway,
// and must try the rows and stack orders they keep in the order expand
// does.

// noStack marks a result stack that no source stack is assigned to yet.
const noStack = 0xff

// newDigit is the class of a digit not yet labelled; it sorts after every
// label because the next label is larger than all labels given so far.
const newDigit = 10

// canonCand is a partial transform of a puzzle after some result rows.
type canonCand struct {
	rows    [9]uint8  // source row of each result row done so far
	cols    [9]uint8  // source column of each result column of an assigned stack
	label   [16]uint8 // label of each source digit, newDigit while unlabelled; label[0] is 0 (16 long so that a digit masked to four bits needs no bounds check)
	stackOf [3]uint8  // source stack of each result stack, or noStack
	tie     uint16    // bit j: result columns j and j+1 are interchangeable
	used    uint16    // source rows used
	tr      uint8     // 1 if the source is the transposed grid
	next    uint8     // the next label to give
}

// gridCand is a partial transform of a full grid after some result rows. In a
// full grid the labels follow from result row 0, which is always 123456789:
// digit d becomes one plus the result column of d in that row.
type gridCand struct {
	rows    [9]uint8  // source row of each result row done so far
	cols    [9]uint8  // source column of each assigned result column
	inv     [9]uint8  // result column of each assigned source column
	pos     [10]uint8 // source column of each digit in source row rows[0]
	stackOf [3]uint8  // source stack of each result stack, or noStack
	stackAt [3]uint8  // result stack of each source stack, or noStack
	colSet  uint16    // source columns assigned
	posSet  uint16    // result columns assigned
	used    uint16    // source rows used
	tr      uint8
}

// Canonicalizer computes canonical forms with reusable scratch space, so
// that after the first few calls it does not allocate. The zero value is
// ready to use. A Canonicalizer is not safe for concurrent use; use one per
// goroutine (the package-level Canon and CanonGrid do that for you).
type Canonicalizer struct {
	// The grid and its transpose, a row of each in 16 bytes (and 16
	// rows): a row or column masked to four bits needs no bounds check,
	// and a row's address no multiplication (a check, or a remainder by
	// 9, on each read costs more).
	src        [2][16][16]uint8
	mask       [2][16]uint16 // filled columns of each row of src (16 long so that a row masked to four bits needs no bounds check)
	cur, nxt   []canonCand
	gcur, gnxt []gridCand
	best       uint64    // the smallest row key of the level being built
	forkGroups uint32    // finishRow's groups of tied new digits, kept here to spare a register
	keys       [9]uint64 // the best row key of each level done
	// The smallest patterns of the two rows that each of the first
	// candidates with open stacks may take as result row 1, worked out
	// for their bound (boundSecondRow) and read again when they are tried.
	pats1 [32]uint32
}

var canonPool = sync.Pool{New: func() any { return new(Canonicalizer) }}

// Canon returns the canonical form of puzzle p and a transform t with
// t.Apply(p) equal to it. The form is defined for grids with no digit
// repeated in a row, column or box (any grid solve.Parse accepts); for any
// other grid Canon returns the identity and the grid as the identity
// applies it (values above 9 become empty cells). Canon is safe for
// concurrent use.
func Canon(p solve.Grid) (solve.Grid, Transform) {
	z := canonPool.Get().(*Canonicalizer)
	c, t := z.Canon(p)
	canonPool.Put(z)
	return c, t
}

// CanonGrid returns the canonical form of a full grid (a solution) and the
// transform that maps sol onto it. It is the same form Canon returns, found
// by a search that exploits the full first row; for a grid that is not a
// full valid grid it falls back to Canon. CanonGrid is safe for concurrent
// use.
func CanonGrid(sol solve.Grid) (solve.Grid, Transform) {
	z := canonPool.Get().(*Canonicalizer)
	c, t := z.CanonGrid(sol)
	canonPool.Put(z)
	return c, t
}

// Canon is the package-level Canon using z's scratch space.
func (z *Canonicalizer) Canon(p solve.Grid) (solve.Grid, Transform) {
	return z.canonPuzzle(&p, true)
}

// canonPuzzle is Canon, without the shortcut for full grids unless grids
// is set. A full grid is known from load's masks, so a puzzle costs no
// separate pass over its cells.
func (z *Canonicalizer) canonPuzzle(p *solve.Grid, grids bool) (solve.Grid, Transform) {
	if !z.load(p) {
		return Identity().Apply(*p), Identity()
	}
	m := &z.mask[0]
	if grids && m[0]&m[1]&m[2]&m[3]&m[4]&m[5]&m[6]&m[7]&m[8] == 0x1ff {
		return z.canonGrid(p)
	}
	for level := range 9 {
		if level >= 6 && len(z.cur) == 1 && z.lastRows(level) {
			break
		}
		z.nxt = z.nxt[:0]
		z.best = ^uint64(0)
		if level == 0 {
			// Only the rows whose smallest first row is the smallest of all,
			// each from a candidate with nothing placed.
			//
			// An empty row (key 0) comes first, then a row of one digit
			// (key 1), and most puzzles have one or the other: the rows of
			// each kind, bit 9*tr+r, are found first with no table or
			// comparison of keys, from the rows' and columns' masks.
			// (load leaves this to here: the two words it would keep
			// live in its loop over the givens make it spill.)
			var filled, multi uint32 // bit 9*tr+r: rows with a digit, with two or more
			for i := range 9 {
				m := uint32(z.mask[1][i]) | uint32(z.mask[0][i])<<9
				multi |= filled & m
				filled |= m
			}
			// The empty rows if there are any, else the rows of one digit
			// (which include the empty ones), without a branch: (e+0x3ffff)>>18
			// is 1 exactly when e is not 0.
			empty, single := 0x3ffff&^filled, 0x3ffff&^multi
			some := (empty + 0x3ffff) >> 18
			at := single ^ (single^empty)&-some
			best := uint64(1 - some)
			if at == 0 {
				// Every row has two digits or more. The rows to try, bit
				// 9*tr+r, and their key, in one pass with no branch: keys
				// are below 1<<36, so the sign of k-best as a signed value
				// tells whether k < best, and of k-best-1 whether k <= best.
				best = uint64(1) << 36
				bit := uint32(1)
				for tr := range 2 {
					for r := range 9 {
						k := firstRowKey[z.mask[tr][r]&0x1ff]
						lt := uint64(int64(k-best) >> 63)
						le := uint32(int64(k-best-1) >> 63)
						at = at&^uint32(lt) | bit&le
						best ^= (best ^ k) & lt // min, which compiles to a jump here
						bit <<= 1
					}
				}
			}
			z.best = best
			c := canonCand{next: 1, stackOf: [3]uint8{noStack, noStack, noStack},
				label: [16]uint8{0, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit}}
			for ; at != 0; at &= at - 1 {
				i := bits.TrailingZeros32(at)
				tr, r := i/9, i%9
				c.tr = uint8(tr)
				if m := z.mask[tr&1][r]; m != 0 && m&(m-1) == 0 {
					z.oneDigit(&c, r, m)
				} else {
					z.expand(&c, level, r)
				}
			}
			z.keys[0] = z.best
			z.cur, z.nxt = z.nxt, z.cur
			continue
		}
		last := level%3 == 2 // the band's last row
		if level == 1 {
			z.boundSecondRow()
		}
		// Each candidate goes to the cheapest path its state allows: all
		// columns placed, all stacks placed, the band's last row, one or
		// two stacks open, or the general one. The second, fourth and last
		// first drop the rows whose smallest pattern already loses. The
		// first candidate of a level with every stack placed, which has no
		// best key to bound its rows yet, tries its smallest row first
		// (placedRowsFirst).
		cur := z.cur // the paths below add to z.nxt only
		for i := range cur {
			c := &cur[i]
			rs := allowedRows(c.used, &c.rows, level)
			placed := c.stackOf[0]|c.stackOf[1]|c.stackOf[2] != noStack // no stack open
			if placed && (c.tie == 0 || !last) {
				switch {
				case z.best == ^uint64(0) && rs&(rs-1) != 0:
					z.placedRowsFirst(c, level, rs)
				case c.tie == 0:
					z.fixedRows(c, level, rs)
				default:
					z.placedRows(c, level, rs)
				}
				continue
			}
			if last {
				// One row left in the band: the bound rarely beats finishRow's
				// own early exit.
				r := bits.TrailingZeros16(rs)
				m := z.mask[c.tr&1][r&15]
				switch {
				case m == 0:
					z.expand(c, level, r)
				case placed:
					z.finishRow(c, &c.stackOf, level, r)
				case c.stackOf[0] == noStack && c.stackOf[2] != noStack:
					z.placeOpen(c, level, r, m)
				default:
					z.expand(c, level, r)
				}
				continue
			}
			if c.stackOf[0] == noStack && c.stackOf[2] != noStack {
				if level == 1 && i < len(z.pats1) {
					// The patterns boundSecondRow worked out.
					pats := z.pats1[i]
					masks := &z.mask[c.tr&1]
					for ; rs != 0; rs &= rs - 1 {
						r := bits.TrailingZeros16(rs)
						m := masks[r&15]
						pat := uint16(pats)
						pats >>= 16
						if m == 0 {
							z.expand(c, level, r)
							continue
						}
						if patternKey[pat&0x1ff] > z.best {
							continue
						}
						z.placeOpen(c, level, r, m)
					}
					continue
				}
				z.openRows(c, level, rs)
				continue
			}
			// Every stack open (stacks are placed from the last): a row's
			// smallest pattern has its stacks in increasing order of digit
			// count, each with its digits at its right.
			masks := &z.mask[c.tr&1]
			if rs&(rs-1) != 0 {
				first := 7
				for t := rs; t != 0; t &= t - 1 {
					first = max(first, bits.LeadingZeros16(openPattern[masks[bits.TrailingZeros16(t)&15]&0x1ff]))
				}
				z.lower(first)
			}
			for ; rs != 0; rs &= rs - 1 {
				r := bits.TrailingZeros16(rs)
				if m := masks[r&15]; m != 0 && patternKey[openPattern[m&0x1ff]&0x1ff] > z.best {
					continue
				}
				z.expand(c, level, r)
			}
		}
		z.keys[level] = z.best
		z.cur, z.nxt = z.nxt, z.cur
	}
	// Every candidate left has each level's best row, so the form is the
	// nine best keys, a nibble a cell, spread to a byte a cell.
	var out solve.Grid
	for i, key := range &z.keys {
		lo := uint64(uint32(key))
		lo = (lo | lo<<16) & 0x0000ffff0000ffff
		lo = (lo | lo<<8) & 0x00ff00ff00ff00ff
		lo = (lo | lo<<4) & 0x0f0f0f0f0f0f0f0f
		binary.BigEndian.PutUint64(out[i*9+1:], lo)
		out[i*9] = uint8(key >> 32)
	}
	return out, z.cur[0].transform()
}

// lastRows finishes the search from result row level of the last band
// when one candidate is left with every column placed and at most one
// digit unlabelled, and reports whether it could. Then every row's key is
// fixed (the unlabelled digit becomes 9 wherever it comes first), and two
// rows that are not empty never have equal keys (equal labels in the same
// columns would repeat a digit in a column), so the level-by-level search
// would keep the rows in increasing order of key: they are sorted instead
// of labelled once a level. A band with an empty row is left to the
// search, which orders empty rows by its own rule.
func (z *Canonicalizer) lastRows(level int) bool {
	c := &z.cur[0]
	if c.tie != 0 || c.next < 9 || c.stackOf[0]|c.stackOf[1]|c.stackOf[2] == noStack {
		return false
	}
	rs := allowedRows(c.used, &c.rows, level)
	g := &z.src[c.tr&1]
	masks := &z.mask[c.tr&1]
	// Each row's key, with the row in the low four bits, so that a sort
	// of the values by min and max, without branches, carries the rows.
	keys := [4]uint64{^uint64(0), ^uint64(0), ^uint64(0)}
	// The labels with the unlabelled digit's (newDigit, 10) as 9, a byte
	// each, without a branch: (u+6)>>4 is 1 for u = 10, 0 below, and no
	// byte carries into the next.
	var lab [16]uint8
	for h := 0; h < 16; h += 8 {
		u := binary.LittleEndian.Uint64(c.label[h:])
		binary.LittleEndian.PutUint64(lab[h:], u-(u+0x0606060606060606)>>4&0x0101010101010101)
	}
	cols := &c.cols
	n := 0
	for ; rs != 0; rs &= rs - 1 {
		r := bits.TrailingZeros16(rs)
		if masks[r&15] == 0 {
			return false
		}
		row := &g[r&15]
		// Every cell, in result order, spelt out.
		key := uint64(lab[row[cols[0]&15]&15])<<36 | uint64(lab[row[cols[1]&15]&15])<<32 |
			uint64(lab[row[cols[2]&15]&15])<<28 | uint64(lab[row[cols[3]&15]&15])<<24 |
			uint64(lab[row[cols[4]&15]&15])<<20 | uint64(lab[row[cols[5]&15]&15])<<16 |
			uint64(lab[row[cols[6]&15]&15])<<12 | uint64(lab[row[cols[7]&15]&15])<<8 |
			uint64(lab[row[cols[8]&15]&15])<<4
		keys[n&3] = key | uint64(r)
		n++
	}
	// Sort the (at most three) rows by key.
	k0, k1, k2 := keys[0], keys[1], keys[2]
	k0, k1 = min(k0, k1), max(k0, k1)
	k1, k2 = min(k1, k2), max(k1, k2)
	k0, k1 = min(k0, k1), max(k0, k1)
	keys = [4]uint64{k0, k1, k2}
	for i := range n {
		// level+i is at most 8 (the band's rows left), which the check
		// below tells the compiler, sparing a remainder.
		if j := level + i; j < 9 {
			k := keys[i&3]
			z.keys[j] = k >> 4
			c.rows[j] = uint8(k & 15)
			c.used |= 1 << (k & 15)
		}
	}
	return true
}

// oneDigit offers source row r of c, whose only digit is in column m, as
// result row 0 of the initial candidate c, as expand and finishRow would:
// its stack becomes the last result stack with the digit, labelled 1, at
// the right and the two empty columns before it in order, interchangeable.
// (Most first rows of minimal puzzles have one digit.)
func (z *Canonicalizer) oneDigit(c *canonCand, r int, m uint16) {
	x := uint8(bits.TrailingZeros16(m))
	s := x / 3
	a, b := 3*s, 3*s+1 // the empty columns, in order
	if x == a {
		a, b = 3*s+1, 3*s+2
	} else if x == b {
		b = 3*s + 2
	}
	z.nxt = append(z.nxt, *c)
	ch := &z.nxt[len(z.nxt)-1]
	ch.cols[6], ch.cols[7], ch.cols[8] = a, b, x
	ch.stackOf[2] = s
	ch.tie = 1 << 6
	ch.label[z.src[c.tr&1][r&15][x&15]&15] = 1
	ch.next = 2
	ch.rows[0] = uint8(r)
	ch.used = 1 << r
}

// firstRowKey is the key of the smallest result row 0 a source row with
// the given filled columns can give: its stacks in increasing order of
// digit count, each stack's digits at its right, labelled 1, 2, ... from
// the left.
var firstRowKey = func() (keys [512]uint64) {
	for m := range 512 {
		var key uint64
		next := uint64(1)
		for _, k := range stackCounts(m) {
			for i := range 3 {
				key <<= 4
				if i >= 3-k {
					key |= next
					next++
				}
			}
		}
		keys[m] = key
	}
	return keys
}()

// openPattern is the smallest pattern of a row with digits in source
// columns m (bit 8-j for result column j) when every stack is open: its
// stacks in increasing order of digit count, each with its digits at its
// right.
var openPattern = func() (pats [512]uint16) {
	for m := range 512 {
		for p, k := range stackCounts(m) {
			pats[m] |= uint16(1<<k-1) << (3 * (2 - p))
		}
	}
	return pats
}()

// count3 returns how many of the low three bits of m are set, by a
// constant of nibbles rather than a population count, which a default
// (GOAMD64=v1) build guards with a check for the instruction.
func count3(m uint16) int {
	return int(0x32212110 >> (4 * (m & 7)) & 3)
}

// stackCounts returns how many of the columns in m (nine bits, three a
// stack) each stack holds, in increasing order.
func stackCounts(m int) [3]int {
	var cnt [3]int
	for s := range 3 {
		cnt[s] = bits.OnesCount(uint(m >> (3 * s) & 7))
	}
	slices.Sort(cnt[:])
	return cnt
}

// load stores g and its transpose with the filled-column masks of their rows.
// Values above 9 are not grid values; load stores them as empty cells. It
// reports whether no digit repeats in a row, column or box.
func (z *Canonicalizer) load(g *solve.Grid) bool {
	// Only the transposed grid's first nine rows are written below (and
	// read anywhere); the others stay empty.
	*(*[9][16]uint8)(z.src[1][:9]) = [9][16]uint8{}
	var mask [2][16]uint16
	// The row, column and box of each cell holding digit d, as in
	// canonCellUnits, in units[d]: one word read and written a cell, not one
	// for each kind of house. A digit repeats in a house exactly when two
	// of its cells share a bit, that is when the sum of its cells' words,
	// added up in sum for all digits, exceeds their union: so the loop
	// tests nothing a cell, and reads units[d] once.
	var units [16]uint32
	var sum uint64
	// A band at a time: its rows' masks side by side, 16 bits a row, so
	// that a given's bit is its cell's r<<4|c within the band, and the
	// loop over the givens ends three times, not nine (its end, after a
	// varying number of givens, is a mispredicted branch).
	for b := 0; b < 9; b += 3 {
		var band uint64
		for r := b; r < b+3; r++ {
			row := &z.src[0][r]
			// The row's first eight cells are read, and copied, as one word.
			x := binary.LittleEndian.Uint64(g[r*9:])
			last := g[r*9+8]
			binary.LittleEndian.PutUint64(row[:8], x)
			row[8] = last
			// The filled cells of the row: a byte's top bit after the
			// addition is set exactly when the byte is not zero.
			t := ((x & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f | x) & 0x8080808080808080
			// The last cell's bit without a branch: (v+255)>>8 is 1 for v > 0.
			m := uint16(t*0x0002040810204081>>56) | uint16((uint32(last)+0xff)>>8)<<8
			mask[0][r] = m
			// In at the top, so that after the band's three rows row b
			// is at bit 0 (a constant shift, not one by a count).
			band = band>>16 | uint64(m)<<32
		}
		for ; band != 0; band &= band - 1 {
			i := b<<4 + bits.TrailingZeros64(band) // the cell, r<<4|c
			r, c := i>>4&15, i&15
			v := z.src[0][r][c]
			if v > 9 {
				z.src[0][r][c] = 0
				mask[0][r] &^= 1 << c
				continue
			}
			z.src[1][c][r] = v
			mask[1][c] |= 1 << r
			u := canonCellUnits[i&255]
			units[v&15] |= u
			sum += uint64(u)
		}
	}
	z.mask = mask
	// The unions' total, spelt out (a loop costs five instructions a digit).
	union := uint64(units[1]) + uint64(units[2]) + uint64(units[3]) +
		uint64(units[4]) + uint64(units[5]) + uint64(units[6]) +
		uint64(units[7]) + uint64(units[8]) + uint64(units[9])
	return union == sum
}

// canonCellUnits holds the row, column and box of each cell r<<4|c as bits
// 0-8, 9-17 and 18-26 (256 long so that a cell masked to eight bits needs
// no bounds check).
var canonCellUnits = func() (u [256]uint32) {
	for r := range 9 {
		for c := range 9 {
			u[r<<4|c] = 1<<r | 1<<(9+c) | 1<<(18+r/3*3+c/3)
		}
	}
	return u
}()

// allowedRows returns the source rows that may become result row level
// after the rows already used: the first row of a result band opens a
// source band not used yet, the others continue the band of the row above.
func allowedRows(used uint16, rows *[9]uint8, level int) uint16 {
	if level%3 == 0 {
		// Bands are used whole, so at a band's start the unused rows are
		// those of the unused bands.
		return 0x1ff &^ used
	}
	// level is 1, 2, 4, 5, 7 or 8 here, so level-1 needs no remainder.
	return bandRows[rows[(level-1)&7]&15] &^ used
}

// bandRows holds the rows of each row's band (16 long so that a row
// masked to four bits needs no bounds check): a look-up rather than a
// division by 3 and a shift by a variable count.
var bandRows = [16]uint16{7, 7, 7, 7 << 3, 7 << 3, 7 << 3, 7 << 6, 7 << 6, 7 << 6}

// fixedRows tries the source rows rs as result row level of c, whose
// stacks and columns are all placed: each row's labels follow from c's
// with no choice left but the labels of its new digits, in column order.
func (z *Canonicalizer) fixedRows(c *canonCand, level int, rs uint16) {
	g := &z.src[c.tr&1]
	masks := &z.mask[c.tr&1]
	for ; rs != 0; rs &= rs - 1 {
		r := bits.TrailingZeros16(rs)
		m := masks[r&15]
		if m == 0 {
			z.expand(c, level, r)
			continue
		}
		row := &g[r&15]
		// key holds the labels so far at their places in the row's key,
		// as in finishRow, so that it is compared with the best key as it
		// is; a stack's three cells are spelt out.
		var key uint64
		next := c.next
		lost := false
		for p := 0; p < 9; p += 3 {
			q := (*[3]uint8)(c.cols[p:])
			u0 := c.label[row[q[0]&15]&15]
			u1 := c.label[row[q[1]&15]&15]
			u2 := c.label[row[q[2]&15]&15]
			if u0 == newDigit {
				u0 = next
				next++
			}
			if u1 == newDigit {
				u1 = next
				next++
			}
			if u2 == newDigit {
				u2 = next
				next++
			}
			key |= (uint64(u0)<<8 | uint64(u1)<<4 | uint64(u2)) << (4 * (6 - p) & 63)
			if key > z.best {
				lost = true
				break
			}
		}
		if lost {
			continue
		}
		if key < z.best {
			z.best = key
			z.nxt = z.nxt[:0]
		}
		z.nxt = append(z.nxt, *c)
		child := &z.nxt[len(z.nxt)-1]
		child.rows[level] = uint8(r)
		child.used |= 1 << (r & 15)
		if next != c.next {
			n := c.next
			for j := range 9 {
				if d := row[c.cols[j]&15]; c.label[d&15] == newDigit {
					child.label[d&15] = n
					n++
				}
			}
			child.next = n
		}
	}
}

// placedRows tries the source rows rs as result row level of c, whose
// stacks are all placed, after the pattern bound with the three stacks'
// lookups worked out once for c.
func (z *Canonicalizer) placedRows(c *canonCand, level int, rs uint16) {
	s0, s1, s2 := 3*c.stackOf[0]&15, 3*c.stackOf[1]&15, 3*c.stackOf[2]&15
	t0, t1, t2 := c.patternTable(0), c.patternTable(1), c.patternTable(2)
	masks := &z.mask[c.tr&1]
	for ; rs != 0; rs &= rs - 1 {
		r := bits.TrailingZeros16(rs)
		m := masks[r&15]
		if m == 0 {
			z.expand(c, level, r)
			continue
		}
		pat := uint16(t0[m>>s0&7])<<6 | uint16(t1[m>>s1&7])<<3 | uint16(t2[m>>s2&7])
		if patternKey[pat&0x1ff] > z.best {
			continue
		}
		z.finishRow(c, &c.stackOf, level, r)
	}
}

// placedRowsFirst is placedRows, and fixedRows, for the first candidate
// of a level, whose first row tried is labelled whatever its pattern (no
// key is known yet): it tries the row with the smallest pattern first,
// which is usually the best, so that the bound drops most of the others
// unlabelled.
//
// The children kept, and their order, are those of trying the rows in
// order. finishRow puts the empty cells of a group the search may order
// first, so a row's key has its smallest pattern. A row before the first
// with the smallest pattern has a larger smallest pattern, so its key is
// larger than that row's: the two are never both kept, and the children
// of the rows after it follow it as they would. An empty row is tried in
// order (offerEmpty keeps the first of equal states), and so is a
// smallest row that comes first anyway.
func (z *Canonicalizer) placedRowsFirst(c *canonCand, level int, rs uint16) {
	s0, s1, s2 := 3*c.stackOf[0]&15, 3*c.stackOf[1]&15, 3*c.stackOf[2]&15
	t0, t1, t2 := c.patternTable(0), c.patternTable(1), c.patternTable(2)
	masks := &z.mask[c.tr&1]
	// Patterns order as their keys do (the first cell in the top bit).
	var pats [16]uint16
	least := uint32(1) << 16 // above every pattern<<4|row
	for t := rs; t != 0; t &= t - 1 {
		r := bits.TrailingZeros16(t)
		m := masks[r&15]
		pat := uint16(t0[m>>s0&7])<<6 | uint16(t1[m>>s1&7])<<3 | uint16(t2[m>>s2&7])
		pats[r&15] = pat
		// The first row of least pattern, without a branch (min compiles
		// to one here): d is negative exactly when the row is less.
		d := int32(uint32(pat)<<4|uint32(r)) - int32(least)
		least += uint32(d & (d >> 31))
	}
	first := int(least & 15)
	if least>>4 != 0 {
		z.finishRow(c, &c.stackOf, level, first)
		rs &^= 1 << first
	}
	for ; rs != 0; rs &= rs - 1 {
		r := bits.TrailingZeros16(rs)
		if masks[r&15] == 0 {
			z.expand(c, level, r)
			continue
		}
		if patternKey[pats[r&15]&0x1ff] > z.best {
			continue
		}
		z.finishRow(c, &c.stackOf, level, r)
	}
}

// patternTable returns the entries of stackPattern for c's result stack p,
// which is placed: indexed by the stack's three bits of a row's mask.
func (c *canonCand) patternTable(p int) *[8]uint8 {
	b := (uint(c.cols[3*p])*9+uint(c.cols[3*p+1]))*32 + uint(c.tie>>(3*p)&3)*8
	return (*[8]uint8)(stackPattern[b&0xff8:])
}

// lower lowers the level's best key to the bound that a row whose smallest
// pattern has first leading zeros (7 plus the result column of its first
// digit, 16 if it is empty) sets, dropping the children kept so far, which
// are all larger.
//
// A row's smallest arrangement has its smallest pattern (empty cells go
// first in every group the search may still order, and open stacks with
// fewer digits first), and a row whose first digit comes later is smaller
// whatever its labels. So that row's key, and with it the level's best, is
// at most the key with empty cells before its first digit and 15s from
// there. The bound drops, before any labelling, the rows that would lose
// to that row when it is tried; the rows kept, and their order, are those
// the level keeps anyway, since no key but an empty row's equals a bound.
func (z *Canonicalizer) lower(first int) {
	if u := uint64(1)<<(4*(16-first)) - 1; u < z.best {
		z.best = u
		z.nxt = z.nxt[:0]
	}
}

// boundSecondRow lowers the best key of result row 1, before any row is
// tried, by the row whose first digit comes latest among the rows of all
// candidates with one or two stacks open (see lower): then no candidate
// labels a row that loses to a later candidate's row on where its first
// digit falls (0.6 of the 2.5 rows a minimal puzzle labelled here).
// Candidates with every stack open (an empty first row, as in most
// 17-clue puzzles) keep their own bound: in this pass they cost more
// than they saved. Only the first band's second row gains: at the first
// row of a later band (six rows a candidate) such a pass cost 17-clue
// puzzles 6-8%. The patterns of the first 32 candidates are kept in
// pats1 for when their rows are tried (two a candidate, one word).
func (z *Canonicalizer) boundSecondRow() {
	first := 7
	for i := range z.cur {
		c := &z.cur[i]
		rs := allowedRows(c.used, &c.rows, 1)
		if c.stackOf[0] == noStack && c.stackOf[2] != noStack {
			pats := z.rowPatterns(c, rs)
			if i < len(z.pats1) {
				z.pats1[i] = pats
			}
			first = max(first, bits.LeadingZeros16(uint16(pats)), bits.LeadingZeros16(uint16(pats>>16)))
		}
	}
	z.lower(first)
}

// rowPatterns returns the smallest patterns of the two rows rs of c, a
// candidate with open stacks as openRows takes (the lower row in the low
// half).
func (z *Canonicalizer) rowPatterns(c *canonCand, rs uint16) uint32 {
	s2 := 3 * c.stackOf[2] & 15
	t2 := c.patternTable(2)
	open := &openPatterns[c.stackOf[2]&3]
	s1 := uint8(0)
	t1 := &noPattern
	if one := c.stackOf[1]; one != noStack {
		open = &openPatterns[4+(3-one-c.stackOf[2])&3]
		s1 = 3 * one & 15
		t1 = c.patternTable(1)
	}
	masks := &z.mask[c.tr&1]
	m := masks[bits.TrailingZeros16(rs)&15]
	p0 := open[m&0x1ff] | uint16(t1[m>>s1&7])<<3 | uint16(t2[m>>s2&7])
	m = masks[(15-bits.LeadingZeros16(rs))&15]
	p1 := open[m&0x1ff] | uint16(t1[m>>s1&7])<<3 | uint16(t2[m>>s2&7])
	return uint32(p0) | uint32(p1)<<16
}

// openRows is placedRows for a candidate whose first one or two result
// stacks are open (expand places stacks from the last free one, so the
// open ones are always the first): the open source stacks take them in
// increasing order of digit count, each with its digits at its right.
// Its first lines are rowPatterns': a function returning the parts costs
// the canonical form 1-2% (too big to inline, it is a call a candidate).
func (z *Canonicalizer) openRows(c *canonCand, level int, rs uint16) {
	s2 := 3 * c.stackOf[2] & 15
	t2 := c.patternTable(2)
	// The open stacks' part of each row's pattern, by table, and the
	// second result stack's part: nothing when it is open too.
	open := &openPatterns[c.stackOf[2]&3]
	s1 := uint8(0)
	t1 := &noPattern
	if one := c.stackOf[1]; one != noStack {
		open = &openPatterns[4+(3-one-c.stackOf[2])&3]
		s1 = 3 * one & 15
		t1 = c.patternTable(1)
	}
	masks := &z.mask[c.tr&1]
	for ; rs != 0; rs &= rs - 1 {
		r := bits.TrailingZeros16(rs)
		m := masks[r&15]
		if m == 0 {
			z.expand(c, level, r)
			continue
		}
		pat := open[m&0x1ff] | uint16(t1[m>>s1&7])<<3 | uint16(t2[m>>s2&7])
		if patternKey[pat&0x1ff] > z.best {
			continue
		}
		z.placeOpen(c, level, r, m)
	}
}

// noPattern is the pattern table of a stack with no digit.
var noPattern [8]uint8

// openPatterns gives openRows the part of a row's smallest pattern that
// its open stacks make, indexed by the row's filled columns: at s, for
// the two stacks other than source stack s, open in the first two result
// stacks (the stack with fewer digits first, each with its digits at its
// right); at 4+s, for source stack s alone, open in the first.
var openPatterns = func() (tab [8][512]uint16) {
	for m := range 512 {
		right := func(s int) uint16 { return uint16(1)<<bits.OnesCount(uint(m>>(3*s)&7)) - 1 }
		for s := range 3 {
			ka, kb := right((s+1)%3), right((s+2)%3)
			tab[s][m] = (ka&kb)<<6 | (ka|kb)<<3
			tab[4+s][m] = right(s) << 6
		}
	}
	return tab
}()

// placeOpen tries source row r, with digits in columns m, as result row
// level of c, whose first one or two result stacks are open, placing the
// open stacks as expand does: those with digits go to the last free result
// stacks by count, the first source stack first on equal counts and then
// the other way round.
func (z *Canonicalizer) placeOpen(c *canonCand, level, r int, m uint16) {
	open := uint8(7) &^ (1 << c.stackOf[2])
	stackOf := c.stackOf
	if c.stackOf[1] != noStack {
		open &^= 1 << c.stackOf[1]
		if a := uint8(bits.TrailingZeros8(open)); m>>(3*a)&7 != 0 {
			stackOf[0] = a
		}
		z.finishRow(c, &stackOf, level, r)
		return
	}
	a := uint8(bits.TrailingZeros8(open))
	b := uint8(7 - bits.LeadingZeros8(open))
	ka := count3(m >> (3 * a))
	kb := count3(m >> (3 * b))
	switch {
	case ka == 0 && kb == 0:
	case ka == 0:
		stackOf[1] = b
	case kb == 0:
		stackOf[1] = a
	case ka <= kb:
		stackOf[0], stackOf[1] = a, b
	default:
		stackOf[0], stackOf[1] = b, a
	}
	z.finishRow(c, &stackOf, level, r)
	if ka == kb && ka != 0 {
		stackOf[0], stackOf[1] = stackOf[1], stackOf[0]
		z.finishRow(c, &stackOf, level, r)
	}
}

// offerEmpty offers child, which took an empty row, unless a kept
// candidate has the same future: the same grid, rows used, column order,
// labels and open choices. Such candidates differ only in the order of
// empty rows, so every continuation of one is a continuation of the other
// with the same string. (Once an empty row is the best, every kept
// candidate took one, so the scan stays as short as the set of distinct
// states; the empty grid keeps two candidates a level instead of up to
// 2,592.)
func (z *Canonicalizer) offerEmpty(child *canonCand) {
	if z.best != 0 {
		z.best = 0
		z.nxt = z.nxt[:0]
	}
	for i := range z.nxt {
		o := &z.nxt[i]
		if o.used == child.used && o.tr == child.tr && o.cols == child.cols && o.label == child.label &&
			o.stackOf == child.stackOf && o.tie == child.tie && o.next == child.next {
			return
		}
	}
	z.nxt = append(z.nxt, *child)
}

// canonOrders lists the orders of n = 0..3 items, identity first.
var canonOrders = [4][][3]uint8{
	{{}},
	{{0}},
	{{0, 1}, {1, 0}},
	{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}},
}

// expand tries source row r of c's grid as result row level.
func (z *Canonicalizer) expand(c *canonCand, level, r int) {
	m := z.mask[c.tr&1][r&15]
	if m == 0 {
		// An empty row keeps every open choice open.
		child := *c
		child.rows[level] = uint8(r)
		child.used |= 1 << (r & 15)
		z.offerEmpty(&child)
		return
	}
	if c.stackOf[0] != noStack && c.stackOf[1] != noStack && c.stackOf[2] != noStack {
		z.finishRow(c, &c.stackOf, level, r)
		return
	}
	// Unassigned source stacks that have a digit in this row must be given
	// result stacks now; the others stay open. A stack with fewer digits
	// in the row must come first (its sorted cells start with more
	// empties), so the stacks go, by count, to the last free result
	// stacks, and only stacks with equal counts are tried in both orders.
	var free [3]uint8 // unassigned result stacks, in order
	nf := 0
	var open uint8 = 7 // unassigned source stacks
	for p := range 3 {
		if s := c.stackOf[p]; s == noStack {
			free[nf] = uint8(p)
			nf++
		} else {
			open &^= 1 << s
		}
	}
	var need, cnt [3]uint8 // unassigned stacks with a digit in this row, by count
	nn := 0
	for s := range 3 {
		if open&(1<<s) == 0 {
			continue
		}
		k := uint8(count3(m >> (3 * s)))
		if k == 0 {
			continue
		}
		i := nn
		for i > 0 && cnt[i-1] > k {
			need[i], cnt[i] = need[i-1], cnt[i-1]
			i--
		}
		need[i], cnt[i] = uint8(s), k
		nn++
	}
	// One or two stacks to place (the usual case) are spelt out; the
	// orders are those of canonOrders, identity first.
	switch nn {
	case 0:
		z.finishRow(c, &c.stackOf, level, r)
		return
	case 1:
		stackOf := c.stackOf
		stackOf[free[nf-1]] = need[0]
		z.finishRow(c, &stackOf, level, r)
		return
	case 2:
		stackOf := c.stackOf
		a, b := free[nf-2], free[nf-1]
		stackOf[a], stackOf[b] = need[0], need[1]
		z.finishRow(c, &stackOf, level, r)
		if cnt[0] == cnt[1] {
			stackOf[a], stackOf[b] = need[1], need[0]
			z.finishRow(c, &stackOf, level, r)
		}
		return
	}
	for _, pm := range canonOrders[nn] {
		stackOf := c.stackOf
		ok := true
		for i := range nn {
			if i > 0 && cnt[pm[i-1]] != cnt[pm[i]] && pm[i-1] > pm[i] {
				ok = false // only equal counts may change places
				break
			}
			stackOf[free[nf-nn+i]] = need[pm[i]]
		}
		if ok {
			z.finishRow(c, &stackOf, level, r)
		}
	}
}

// finishRow tries source row r as result row level of c with the result
// stacks given by stackOf (c's, plus stacks newly placed for this row).
// It orders the open column groups for the row and gives labels to its
// new digits; if the row's key is no larger than the best of the level it
// offers the child, and its variants that order tied new digits
// differently.
func (z *Canonicalizer) finishRow(c *canonCand, stackOf *[3]uint8, level, r int) {
	row := &z.src[c.tr&1][r&15]
	// The child is built in place in the slot after the level's
	// candidates, and kept by extending the slice: copying a struct just
	// written byte by byte stalls the loads that read it back.
	// Below, c's fields are read from the child, which holds them until
	// it overwrites them (after they are read: a row holds each digit
	// once), so that c need not stay in a register.
	ch := z.scratch(c)
	ch.rows[level] = uint8(r)
	ch.used |= 1 << (r & 15)
	// The groups of tied new digits, a byte each, the latest in the low
	// byte: the group's first result column, and its length above bit 4.
	z.forkGroups = 0
	// key holds the row's labels so far, four bits a cell, at their
	// places in the row's key (the cells not done yet are 0), so that the
	// row is dropped as soon as key exceeds the best row's key: that is
	// exactly when its prefix exceeds the best row's.
	var key uint64
	next := ch.next
	m := z.mask[ch.tr&1][r&15]
	for p := range 3 {
		s := stackOf[p]
		if ch.stackOf[p] == s && m>>(3*s&15)&7 == 0 {
			// Open, or placed with no digit in this row: three empty
			// cells, which leave key as it is, and the stack's order and
			// ties stay as they are.
			continue
		}
		place := uint(24-12*p) & 63   // the stack's place in the key
		t := uint8(ch.tie>>(3*p)) & 3 // bit i: columns i and i+1 of the stack are interchangeable
		if t == 0 && ch.stackOf[p] == s {
			// A placed stack with no ties: its order stays, and only new
			// digits need labels, in column order.
			u0 := ch.label[row[ch.cols[3*p]&15]&15]
			u1 := ch.label[row[ch.cols[3*p+1]&15]&15]
			u2 := ch.label[row[ch.cols[3*p+2]&15]&15]
			if u0 == newDigit {
				u0 = next
				ch.label[row[ch.cols[3*p]&15]&15] = next
				next++
			}
			if u1 == newDigit {
				u1 = next
				ch.label[row[ch.cols[3*p+1]&15]&15] = next
				next++
			}
			if u2 == newDigit {
				u2 = next
				ch.label[row[ch.cols[3*p+2]&15]&15] = next
				next++
			}
			key |= (uint64(u0)<<8 | uint64(u1)<<4 | uint64(u2)) << place
			if key > z.best {
				return
			}
			continue
		}
		cols := (*[3]uint8)(ch.cols[3*p:])
		q0, q1, q2 := cols[0], cols[1], cols[2]
		if ch.stackOf[p] == noStack {
			// Newly placed: its three columns are one open group (both
			// paths below write all three columns).
			if k := m >> (3 * s & 15) & 7; k&(k-1) == 0 {
				// One digit (most newly placed stacks), at source column
				// 3s+k>>1 (k is 1, 2 or 4): it goes last, after the two
				// empty columns in order, which stay interchangeable (as
				// the path below would place it).
				cols[0], cols[1], cols[2] = 3*s+uint8(k&1), 3*s+1+uint8(k>>2^1), 3*s+uint8(k>>1)
				ch.tie = ch.tie&^(3<<(3*p)) | 1<<(3*p)
				d := row[(3*s+uint8(k>>1))&15] & 15
				u := ch.label[d]
				if u == newDigit {
					u = next
					ch.label[d] = next
					next++
				}
				key |= uint64(u) << place
				if key > z.best {
					return
				}
				continue
			}
			q0, q1, q2 = 3*s, 3*s+1, 3*s+2
			t = 3
		}
		if t == 1 && count3(m>>(3*s&15)) == 1 {
			// One digit in a placed stack whose first two columns are
			// interchangeable (the state a newly placed stack of one digit
			// leaves): the sort below would put it after the empty cell of
			// its group. In the last column it stays, and so does the tie;
			// in the first two it goes to the middle, after the empty one,
			// and no tie is left. Without a branch: (d+15)>>4 is 1 for a
			// digit, 0 for an empty cell.
			d0, d1, d2 := row[q0&15]&15, row[q1&15]&15, row[q2&15]&15
			n2 := (d2 + 15) >> 4
			swap := (q0 ^ q1) & (0 - (d0+15)>>4) // the digit first: the two change places
			cols[0], cols[1] = q0^swap, q1^swap
			ch.tie = ch.tie&^(3<<(3*p)) | uint16(n2)<<(3*p)
			e := d0 | d1 | d2
			u := ch.label[e]
			if u == newDigit {
				u = next
				ch.label[e] = next
				next++
			}
			key |= uint64(u) << ((place + 4 - 4*uint(n2)) & 63)
			if key > z.best {
				return
			}
			continue
		}
		// Sort the stack's cells by group, then class, then position: a
		// stable sort of each group by class, with no branch (min and max
		// of 32-bit values compile to conditional moves, of bytes to
		// branches). A cell's group number is the count of group starts
		// up to it. Below the position each value carries its cell's
		// source column and digit, which the position keeps out of the
		// comparison, so that no shift by a variable count reads them
		// back.
		g1 := 1 - t&1
		g2 := g1 + 1 - t>>1
		d0, d1, d2 := row[q0&15]&15, row[q1&15]&15, row[q2&15]&15
		w0 := uint32(ch.label[d0])<<10 | 0<<8 | uint32(q0)<<4 | uint32(d0)
		w1 := uint32(g1)<<14 | uint32(ch.label[d1])<<10 | 1<<8 | uint32(q1)<<4 | uint32(d1)
		w2 := uint32(g2)<<14 | uint32(ch.label[d2])<<10 | 2<<8 | uint32(q2)<<4 | uint32(d2)
		w0, w1 = min(w0, w1), max(w0, w1)
		w1, w2 = min(w1, w2), max(w1, w2)
		w0, w1 = min(w0, w1), max(w0, w1)
		cols[0], cols[1], cols[2] = uint8(w0>>4&15), uint8(w1>>4&15), uint8(w2>>4&15)
		e0, e1, e2 := uint8(w0&15), uint8(w1&15), uint8(w2&15)
		u0, u1, u2 := uint8(w0>>10&15), uint8(w1>>10&15), uint8(w2>>10&15)
		// Interchangeable columns stay so while both are still empty.
		var e01, e12 uint8
		if u0|u1 == 0 {
			e01 = 1
		}
		if u1|u2 == 0 {
			e12 = 1
		}
		ch.tie = ch.tie&^(3<<(3*p)) | uint16(t&(e01|e12<<1))<<(3*p)
		if u1 == newDigit {
			// New digits sort last in their group, so a group with two or
			// more holds its middle cell's: note them for forks.
			if t&1 != 0 && u0 == newDigit {
				z.forkGroups = z.forkGroups<<8 | uint32(2+t>>1)<<4 | uint32(3*p)
			} else if t&2 != 0 && u1 == newDigit {
				z.forkGroups = z.forkGroups<<8 | 2<<4 | uint32(3*p+1)
			}
		}
		if u0 == newDigit {
			u0 = next
			ch.label[e0] = next
			next++
		}
		if u1 == newDigit {
			u1 = next
			ch.label[e1] = next
			next++
		}
		if u2 == newDigit {
			u2 = next
			ch.label[e2] = next
			next++
		}
		key |= (uint64(u0)<<8 | uint64(u1)<<4 | uint64(u2)) << place
		if key > z.best {
			return
		}
	}
	if key > z.best {
		return
	}
	ch.stackOf[0], ch.stackOf[1], ch.stackOf[2] = stackOf[0], stackOf[1], stackOf[2]
	ch.next = next
	if key < z.best {
		z.best = key
		if len(z.nxt) > 0 {
			z.nxt[0] = *ch
			ch = &z.nxt[0]
		}
		z.nxt = z.nxt[:1]
	} else {
		z.nxt = z.nxt[:len(z.nxt)+1]
	}
	forks := z.forkGroups
	if forks == 0 {
		return
	}
	if forks < 1<<8 {
		z.fork1(*ch, row, uint8(forks&15), uint8(forks>>4))
		return
	}
	// Two or three groups, the first in the highest byte.
	var at, n [3]uint8
	k := 0
	for sh := 16; sh >= 0; sh -= 8 {
		if f := uint8(forks >> sh); f != 0 {
			at[k], n[k] = f&15, f>>4
			k++
		}
	}
	z.forks(*ch, row[:], at[:k], n[:k], true)
}

// scratch copies c into the slot after z.nxt's candidates and returns it.
func (z *Canonicalizer) scratch(c *canonCand) *canonCand {
	if len(z.nxt) == cap(z.nxt) {
		z.nxt = append(z.nxt, canonCand{})[:len(z.nxt)]
	}
	ch := &z.nxt[:len(z.nxt)+1][len(z.nxt)]
	*ch = *c
	return ch
}

// forks offers every variant of child that orders the tied new digits of
// the groups at[i] (n[i] digits long) differently; identity says every
// group handled so far keeps child's order (offer already kept that one).
func (z *Canonicalizer) forks(child canonCand, row []uint8, at, n []uint8, identity bool) {
	if len(at) == 0 {
		if !identity {
			z.nxt = append(z.nxt, child)
		}
		return
	}
	a, m := int(at[0]), int(n[0])
	first := child.label[row[child.cols[a]]]
	var orig [3]uint8
	copy(orig[:m], child.cols[a:a+m])
	for i, pm := range canonOrders[m] {
		v := child
		for k := range m {
			v.cols[a+k] = orig[pm[k]]
			v.label[row[v.cols[a+k]]] = first + uint8(k)
		}
		z.forks(v, row, at[1:], n[1:], identity && i == 0)
	}
}

// fork1 is forks for one group of tied new digits, the usual case,
// writing each variant in place after the kept child.
func (z *Canonicalizer) fork1(child canonCand, row *[16]uint8, a, m uint8) {
	if a > 7 || m > 3 {
		return
	}
	first := child.label[row[child.cols[a]&15]&15]
	if m == 2 {
		// Two tied new digits (the usual group): the one other order.
		x0, x1 := child.cols[a], child.cols[a+1]
		child.cols[a], child.cols[a+1] = x1, x0
		child.label[row[x1&15]&15] = first
		child.label[row[x0&15]&15] = first + 1
		z.nxt = append(z.nxt, child)
		return
	}
	orig := [3]uint8{child.cols[a], child.cols[a+1], child.cols[(a+2)%9]} // a third only when a starts a stack
	for _, pm := range canonOrders[m][1:] {
		z.nxt = append(z.nxt, child)
		v := &z.nxt[len(z.nxt)-1]
		for k := range m {
			x := orig[pm[k]%3]
			v.cols[(a+k)%9] = x
			v.label[row[x&15]&15] = first + k
		}
	}
}

// transform returns the transform of c, which has all nine rows: open
// stacks and columns are all empty, so any order serves; digits that never
// appear take the remaining labels in increasing order. It builds the
// Transform's fields in place, eight bytes at a time, as makeTransform
// does, rather than through arrays returned and passed by value.
func (c *canonCand) transform() Transform {
	const id = 0x0706050403020100 // the identity's first eight values
	le := binary.LittleEndian
	t := Transform{transpose: c.tr == 1}
	le.PutUint64(t.rows[:8], le.Uint64(c.rows[:8])^id)
	t.rows[8] = c.rows[8] ^ 8
	cols := c.cols
	if c.stackOf[0]|c.stackOf[1]|c.stackOf[2] == noStack {
		// An open stack (rare): the open ones take the free source
		// stacks in order.
		var open uint8 = 7
		for p := range 3 {
			if s := c.stackOf[p]; s != noStack {
				open &^= 1 << s
			}
		}
		for p := range 3 {
			if c.stackOf[p] == noStack {
				s := uint8(bits.TrailingZeros8(open))
				open &^= 1 << s
				cols[3*p], cols[3*p+1], cols[3*p+2] = 3*s, 3*s+1, 3*s+2
			}
		}
	}
	le.PutUint64(t.cols[:8], le.Uint64(cols[:8])^id)
	t.cols[8] = cols[8] ^ 8
	// The labels of digits 0-7 and of 8 and 9 (label[0] is 0).
	lo, hi := le.Uint64(c.label[:8]), le.Uint16(c.label[8:])
	if c.next >= 9 {
		// At most one digit unlabelled, which takes 9: newDigit (10)
		// becomes 9 without a branch, as in lastRows.
		lo -= (lo + 0x0606060606060606) >> 4 & 0x0101010101010101
		hi -= (hi + 0x0606) >> 4 & 0x0101
	} else {
		var digits [10]uint8
		le.PutUint64(digits[:8], lo)
		le.PutUint16(digits[8:], hi)
		next := c.next
		for d := 1; d <= 9; d++ {
			if digits[d] == newDigit {
				digits[d] = next
				next++
			}
		}
		lo, hi = le.Uint64(digits[:8]), le.Uint16(digits[8:])
	}
	le.PutUint64(t.digits[:8], lo^id)
	le.PutUint16(t.digits[8:], hi^0x0908)
	return t
}

// canonIsFull reports whether g is a complete grid with every row, column
// and box holding each digit once.
func canonIsFull(g *solve.Grid) bool {
	var rows, cols, boxes [9]uint16
	for r := range 9 {
		for c := range 9 {
			v := g[r*9+c]
			if v == 0 || v > 9 {
				return false
			}
			rows[r] |= 1 << v
			cols[c] |= 1 << v
			boxes[canonBoxOf[r*9+c]] |= 1 << v
		}
	}
	for i := range 9 {
		if rows[i] != 0x3fe || cols[i] != 0x3fe || boxes[i] != 0x3fe {
			return false
		}
	}
	return true
}

// canonBoxOf is the box (0..8) of each cell.
var canonBoxOf = func() (b [81]uint8) {
	for i := range b {
		b[i] = uint8(i/27*3 + i%9/3)
	}
	return b
}()

// CanonGrid is the package-level CanonGrid using z's scratch space.
func (z *Canonicalizer) CanonGrid(sol solve.Grid) (solve.Grid, Transform) {
	if !canonIsFull(&sol) {
		return z.Canon(sol)
	}
	z.load(&sol)
	return z.canonGrid(&sol)
}

// canonGrid is CanonGrid for a full valid grid that load has just stored.
func (z *Canonicalizer) canonGrid(sol *solve.Grid) (solve.Grid, Transform) {
	z.gcur = z.gcur[:0]
	for tr := range 2 {
		for r := range 9 {
			c := gridCand{tr: uint8(tr), used: 1 << r, stackOf: [3]uint8{noStack, noStack, noStack}, stackAt: [3]uint8{noStack, noStack, noStack}}
			c.rows[0] = uint8(r)
			for col := range 9 {
				c.pos[z.src[tr][r][col]] = uint8(col)
			}
			z.gcur = append(z.gcur, c)
		}
	}
	// Row 1: rate every pair of rows, then search from the best pairs.
	var keys [18][2]uint64
	var first [18][2]uint16
	z.best = ^uint64(0)
	for i := range z.gcur {
		c := &z.gcur[i]
		band := c.rows[0] / 3 * 3
		for n := range 2 {
			r := band + (c.rows[0]+uint8(n)+1)%3
			keys[i][n], first[i][n] = z.pairKey(c, int(r))
			z.best = min(z.best, keys[i][n])
		}
	}
	bound := z.best
	z.gnxt = z.gnxt[:0]
	for i := range z.gcur {
		c := &z.gcur[i]
		band := c.rows[0] / 3 * 3
		for n := range 2 {
			if keys[i][n] != bound {
				continue
			}
			r := band + (c.rows[0]+uint8(n)+1)%3
			child := *c
			child.rows[1] = r
			child.used |= 1 << (r & 15)
			row := (*[9]uint8)(z.src[c.tr][r][:9])
			z.gridRow(child, row, 0, 0, first[i][n])
		}
	}
	z.gcur, z.gnxt = z.gnxt, z.gcur
	for level := 2; level < 9; level++ {
		z.gnxt = z.gnxt[:0]
		z.best = ^uint64(0)
		for i := range z.gcur {
			c := &z.gcur[i]
			for rs := allowedRows(c.used, &c.rows, level); rs != 0; rs &= rs - 1 {
				r := bits.TrailingZeros16(rs)
				row := (*[9]uint8)(z.src[c.tr][r][:9])
				if c.posSet != 0x1ff {
					child := *c
					child.rows[level] = uint8(r)
					child.used |= 1 << (r & 15)
					z.gridRow(child, row, 0, 0, 0x1ff)
					continue
				}
				// Every column is placed: the row's labels are fixed.
				var key uint64
				for j := range 9 {
					key = key<<4 | uint64(c.inv[c.pos[row[c.cols[j]]]]+1)
				}
				if key > z.best {
					continue
				}
				if key < z.best {
					z.best = key
					z.gnxt = z.gnxt[:0]
				}
				z.gnxt = append(z.gnxt, *c)
				child := &z.gnxt[len(z.gnxt)-1]
				child.rows[level] = uint8(r)
				child.used |= 1 << (r & 15)
			}
		}
		z.gcur, z.gnxt = z.gnxt, z.gcur
	}
	t := z.gcur[0].transform()
	return t.Apply(*sol), t
}

// Row pairs. Result row 1 of a full grid depends only on the pair of source
// rows that become result rows 0 and 1 and on the column order, and its
// first cells follow from the pair alone, so the column search runs only
// for the pairs whose first cells are smallest, and only from the first
// columns that give them.
//
// Let f map each column to the column of row 0 that holds the digit of row
// 1 in it; f sends no column into its own stack. Call the pair pure if f
// sends each stack into a single stack. A pure pair's row 1 is 456789 and
// then 123, 132 or 231 as f cubed fixes three, one or no columns of a
// stack (only the fixed columns may come first for 132). Otherwise each
// stack sends two columns to one stack and one to the other, and the row
// starts 457: result column 0 is one of the pair x sent into the same
// stack, and cell 3 is 1, 2 or 3 if f(f(x)) is back in x's stack (at result
// column 0, 1 or 2) and 8 if not.

// stackOfLine is the band or stack (0..2) of each line.
var stackOfLine = [9]uint8{0, 0, 0, 1, 1, 1, 2, 2, 2}

// lineSiblings lists the two other lines of each line's band.
var lineSiblings = [9][2]uint8{{1, 2}, {2, 0}, {0, 1}, {4, 5}, {5, 3}, {3, 4}, {7, 8}, {8, 6}, {6, 7}}

// pureKeys are the row-1 keys of pure pairs by fixed points of f cubed.
var pureKeys = [4]uint64{0: 0x456789231, 1: 0x456789132, 3: 0x456789123}

// pairKey returns an upper bound on the row-1 key of c's row 0 followed by
// source row r that is exact in as many cells as the pair decides (all
// nine for a pure pair, four otherwise, then all ones), and the source
// columns that may come first in a row achieving it.
func (z *Canonicalizer) pairKey(c *gridCand, r int) (uint64, uint16) {
	row := (*[9]uint8)(z.src[c.tr][r][:9])
	var f [9]uint8
	for col := range 9 {
		f[col] = c.pos[row[col]]
	}
	pure := true
	for s := 0; s < 9; s += 3 {
		if f[s]/3 != f[s+1]/3 || f[s]/3 != f[s+2]/3 {
			pure = false
			break
		}
	}
	if pure {
		fixed := 0
		var fixedCols uint16
		for col := range 9 {
			if f[f[f[col]]] == uint8(col) {
				fixed++
				fixedCols |= 1 << col
			}
		}
		fixed /= 3
		if fixed == 1 {
			return pureKeys[1], fixedCols
		}
		return pureKeys[fixed], 0x1ff
	}
	var fs [9]uint8 // stack of f
	for col := range 9 {
		fs[col] = stackOfLine[f[col]]
	}
	least := uint8(0xff)
	var mask uint16
	for x := range uint8(9) {
		// x' is the other column of x's stack sent with it, a3 the third.
		xx, a3 := lineSiblings[x][0], lineSiblings[x][1]
		if fs[xx] != fs[x] {
			xx, a3 = a3, xx
		}
		if fs[xx] != fs[x] {
			continue
		}
		v := uint8(8)
		switch f[f[x]] {
		case x:
			v = 1
		case xx:
			v = 2
		case a3:
			v = 3
		}
		if v < least {
			least, mask = v, 0
		}
		if v == least {
			mask |= 1 << x
		}
	}
	return (0x4570|uint64(least))<<20 | 0xfffff, mask
}

// gridRow extends c cell by cell through result row cells j..8 of source
// row row, whose key so far is key, branching where the result column is
// still open, and offers every completion whose key is the smallest.

func (z *Canonicalizer) gridRow(c gridCand, row *[9]uint8, j int, key uint64, first uint16) {
	for ; j < 9; j++ {
		if key > z.best>>(4*(9-j)) {
			return
		}
		if c.posSet&(1<<j) == 0 {
			// Branch over the source columns that may fill column j.
			t := j / 3
			var choices uint16
			if j == 0 {
				choices = first
			} else if s := c.stackOf[t]; s != noStack {
				choices = 7 << (3 * s) &^ c.colSet
			} else {
				for s := range 3 {
					if c.stackAt[s] == noStack {
						choices |= 7 << (3 * s)
					}
				}
			}
			// Only the choices with the smallest label here can win.
			var best uint16
			least := uint8(0xff)
			for x := 0; x < 9; x++ {
				if choices&(1<<x) == 0 {
					continue
				}
				d := c
				d.place(uint8(x), j)
				v := d.value(row[x])
				if v < least {
					least, best = v, 0
				}
				if v == least {
					best |= 1 << x
				}
			}
			key = key<<4 | uint64(least)
			if best&(best-1) == 0 {
				x := uint8(bits.TrailingZeros16(best))
				c.place(x, j)
				c.value(row[x])
				continue
			}
			for x := uint8(0); x < 9; x++ {
				if best&(1<<x) != 0 {
					d := c
					d.place(x, j)
					d.value(row[x])
					z.gridRow(d, row, j+1, key, first)
				}
			}
			return
		}
		key = key<<4 | uint64(c.value(row[c.cols[j]]))
	}
	if key > z.best {
		return
	}
	if key < z.best {
		z.best = key
		z.gnxt = z.gnxt[:0]
	}
	z.gnxt = append(z.gnxt, c)
}

// place puts source column x at result column j, and x's stack at j's
// stack if that is still open.
func (c *gridCand) place(x uint8, j int) {
	if t := j / 3; c.stackOf[t] == noStack {
		c.stackOf[t] = x / 3
		c.stackAt[x/3] = uint8(t)
	}
	c.assign(x, j)
}

// assign puts source column x at result column j.
func (c *gridCand) assign(x uint8, j int) {
	c.cols[j] = x
	c.inv[x] = uint8(j)
	c.colSet |= 1 << x
	c.posSet |= 1 << j
}

// value returns the label of digit d: one plus the result column of d in
// result row 0. If that column is still open, d's source column goes to the
// first free result column it may take, which gives the smallest label.
func (c *gridCand) value(d uint8) uint8 {
	y := c.pos[d]
	if c.colSet&(1<<y) != 0 {
		return c.inv[y] + 1
	}
	s := y / 3
	t := c.stackAt[s]
	if t == noStack {
		for t = 0; c.stackOf[t] != noStack; t++ {
		}
		c.stackOf[t] = s
		c.stackAt[s] = t
	}
	j := int(3*t) + bits.TrailingZeros16(^c.posSet>>(3*t))
	c.assign(y, j)
	return uint8(j) + 1
}

// transform turns a finished gridCand into a Transform.
func (c *gridCand) transform() Transform {
	var digits [10]uint8
	for d := 1; d <= 9; d++ {
		digits[d] = c.inv[c.pos[d]] + 1
	}
	return makeTransform(c.tr == 1, c.rows, c.cols, digits)
}

// A row's key is at least its pattern key: its empty cells as 0 and its
// digits as 1. Before a row is worked out cell by cell, the smallest
// pattern any completion of a candidate can give it is compared with the
// best key of the level: most rows lose on where their digits fall.

// stackPattern gives, for a stack whose result columns hold source
// columns 3s+q0, 3s+q1, 3s+q2 (of source stack s) with ties t (bit 0: the
// first two interchangeable, bit 1: the last two), the smallest pattern
// (bit 2 for the first column) of a row with digits in columns 3s+i for
// the bits i of mask: at index ((3s+q0)*9+3s+q1)*32+t*8+mask, so that
// finding a stack's entries takes no subtraction of its first column
// (4096 long so that an index masked to twelve bits needs no bounds
// check).
var stackPattern = func() (tab [4096]uint8) {
	for c := range 9 {
		for q1 := range 3 {
			q0 := c % 3
			if q1 == q0 {
				continue
			}
			q := [3]int{q0, q1, 3 - q0 - q1}
			for t := range 4 {
				for mask := range 8 {
					var pat uint8
					for a := 0; a < 3; {
						b := a
						for b < 2 && t&(1<<b) != 0 {
							b++
						}
						k := 0
						for j := a; j <= b; j++ {
							k += mask >> q[j] & 1
						}
						for j := b - k + 1; j <= b; j++ {
							pat |= 1 << (2 - j)
						}
						a = b + 1
					}
					tab[(c*9+c/3*3+q1)*32+t*8+mask] = pat
				}
			}
		}
	}
	return tab
}()

// patternKey is the key of each pattern: a 1 in each cell with a digit.
var patternKey = func() (keys [512]uint64) {
	for pat := range 512 {
		for i := range 9 {
			if pat&(1<<i) != 0 {
				keys[pat] |= 1 << (4 * i)
			}
		}
	}
	return keys
}()
