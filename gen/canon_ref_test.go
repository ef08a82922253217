package gen

// This file keeps the canonical-form search as it stood before the
// speed work of issue 30, verbatim but for its names, as the reference
// the fast search must match byte for byte: banks store the form and
// dedup by it. It was itself checked against the brute-force search.

import (
	"math/bits"
	"slices"

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

// refNoStack marks a result stack that no source stack is assigned to yet.
const refNoStack = 0xff

// refNewDigit is the class of a digit not yet labelled; it sorts after every
// label because the next label is larger than all labels given so far.
const refNewDigit = 10

// refCanonCand is a partial transform of a puzzle after some result rows.
type refCanonCand struct {
	rows    [9]uint8  // source row of each result row done so far
	cols    [9]uint8  // source column of each result column of an assigned stack
	label   [10]uint8 // label of each source digit, refNewDigit while unlabelled; label[0] is 0
	stackOf [3]uint8  // source stack of each result stack, or refNoStack
	tie     uint16    // bit j: result columns j and j+1 are interchangeable
	used    uint16    // source rows used
	tr      uint8     // 1 if the source is the transposed grid
	next    uint8     // the next label to give
}

// refGridCand is a partial transform of a full grid after some result rows. In a
// full grid the labels follow from result row 0, which is always 123456789:
// digit d becomes one plus the result column of d in that row.
type refGridCand struct {
	rows    [9]uint8  // source row of each result row done so far
	cols    [9]uint8  // source column of each assigned result column
	inv     [9]uint8  // result column of each assigned source column
	pos     [10]uint8 // source column of each digit in source row rows[0]
	stackOf [3]uint8  // source stack of each result stack, or refNoStack
	stackAt [3]uint8  // result stack of each source stack, or refNoStack
	colSet  uint16    // source columns assigned
	posSet  uint16    // result columns assigned
	used    uint16    // source rows used
	tr      uint8
}

// refCanonicalizer computes canonical forms with reusable scratch space, so
// that after the first few calls it does not allocate. The zero value is
// ready to use. A refCanonicalizer is not safe for concurrent use; use one per
// goroutine (the package-level Canon and CanonGrid do that for you).
type refCanonicalizer struct {
	src        [2]solve.Grid // the grid and its transpose
	mask       [2][9]uint16  // filled columns of each row of src
	cur, nxt   []refCanonCand
	gcur, gnxt []refGridCand
	best       uint64 // the smallest row key of the level being built
}

// Canon is the reference Canon.
func (z *refCanonicalizer) Canon(p solve.Grid) (solve.Grid, Transform) {
	if refCanonIsFull(p) {
		return z.CanonGrid(p)
	}
	return z.canonPuzzle(p)
}

// canonPuzzle is Canon without the shortcut for full grids.
func (z *refCanonicalizer) canonPuzzle(p solve.Grid) (solve.Grid, Transform) {
	if !z.load(&p) {
		return Identity().Apply(p), Identity()
	}
	z.cur = z.cur[:0]
	for tr := range 2 {
		z.cur = append(z.cur, refCanonCand{tr: uint8(tr), next: 1, stackOf: [3]uint8{refNoStack, refNoStack, refNoStack},
			label: [10]uint8{0, refNewDigit, refNewDigit, refNewDigit, refNewDigit, refNewDigit, refNewDigit, refNewDigit, refNewDigit, refNewDigit}})
	}
	for level := range 9 {
		z.nxt = z.nxt[:0]
		z.best = ^uint64(0)
		if level == 0 {
			for tr := range 2 {
				for r := range 9 {
					z.best = min(z.best, refFirstRowKey[z.mask[tr][r]])
				}
			}
		}
		for i := range z.cur {
			c := &z.cur[i]
			for rs := refAllowedRows(c.used, c.rows, level); rs != 0; rs &= rs - 1 {
				r := bits.TrailingZeros16(rs)
				if level > 0 || refFirstRowKey[z.mask[c.tr][r]] == z.best {
					z.expand(c, level, r)
				}
			}
		}
		z.cur, z.nxt = z.nxt, z.cur
	}
	rows, cols, digits := z.cur[0].complete()
	g := &z.src[z.cur[0].tr]
	var out solve.Grid
	for i := range 9 {
		for j := range 9 {
			out[i*9+j] = digits[g[int(rows[i])*9+int(cols[j])]]
		}
	}
	return out, makeTransform(z.cur[0].tr == 1, rows, cols, digits)
}

// refFirstRowKey is the key of the smallest result row 0 a source row with
// the given filled columns can give: its stacks in increasing order of
// digit count, each stack's digits at its right, labelled 1, 2, ... from
// the left.
var refFirstRowKey = func() (keys [512]uint64) {
	for m := range 512 {
		var cnt [3]int
		for s := range 3 {
			cnt[s] = bits.OnesCount(uint(m >> (3 * s) & 7))
		}
		slices.Sort(cnt[:])
		var key uint64
		next := uint64(1)
		for _, k := range cnt {
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

// load stores g and its transpose with the filled-column masks of their rows.
// Values above 9 are not grid values; load stores them as empty cells. It
// reports whether no digit repeats in a row, column or box.
func (z *refCanonicalizer) load(g *solve.Grid) bool {
	z.mask = [2][9]uint16{}
	var rows, cols, boxes [9]uint16
	ok := true
	for r := range 9 {
		for c := range 9 {
			v := g[r*9+c]
			if v > 9 {
				v = 0
			}
			z.src[0][r*9+c] = v
			z.src[1][c*9+r] = v
			if v != 0 {
				z.mask[0][r] |= 1 << c
				z.mask[1][c] |= 1 << r
				bit := uint16(1) << v
				b := refCanonBoxOf[r*9+c]
				if (rows[r]|cols[c]|boxes[b])&bit != 0 {
					ok = false
				}
				rows[r] |= bit
				cols[c] |= bit
				boxes[b] |= bit
			}
		}
	}
	return ok
}

// refAllowedRows returns the source rows that may become result row level
// after the rows already used: the first row of a result band opens a
// source band not used yet, the others continue the band of the row above.
func refAllowedRows(used uint16, rows [9]uint8, level int) uint16 {
	if level%3 != 0 {
		return 7 << (rows[level-1] / 3 * 3) &^ used
	}
	var m uint16
	for b := 0; b < 9; b += 3 {
		if used&(7<<b) == 0 {
			m |= 7 << b
		}
	}
	return m
}

// offer records child with row key key: it replaces the level's candidates
// if key is smaller than every key so far, joins them if equal, and is
// dropped if larger. It reports whether the child was kept.
func (z *refCanonicalizer) offer(key uint64, child *refCanonCand) bool {
	if key > z.best {
		return false
	}
	if key < z.best {
		z.best = key
		z.nxt = z.nxt[:0]
	}
	z.nxt = append(z.nxt, *child)
	return true
}

// offerEmpty offers child, which took an empty row, unless a kept
// candidate has the same future: the same grid, rows used, column order,
// labels and open choices. Such candidates differ only in the order of
// empty rows, so every continuation of one is a continuation of the other
// with the same string. (Once an empty row is the best, every kept
// candidate took one, so the scan stays as short as the set of distinct
// states; the empty grid keeps two candidates a level instead of up to
// 2,592.)
func (z *refCanonicalizer) offerEmpty(child *refCanonCand) {
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

// refCanonOrders lists the orders of n = 0..3 items, identity first.
var refCanonOrders = [4][][3]uint8{
	{{}},
	{{0}},
	{{0, 1}, {1, 0}},
	{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}},
}

// expand tries source row r of c's grid as result row level.
func (z *refCanonicalizer) expand(c *refCanonCand, level, r int) {
	m := z.mask[c.tr][r]
	if m == 0 {
		// An empty row keeps every open choice open.
		child := *c
		child.rows[level] = uint8(r)
		child.used |= 1 << r
		z.offerEmpty(&child)
		return
	}
	if c.stackOf[0] != refNoStack && c.stackOf[1] != refNoStack && c.stackOf[2] != refNoStack {
		z.finishRow(c, c.stackOf, level, r)
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
		if s := c.stackOf[p]; s == refNoStack {
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
		k := uint8(bits.OnesCount16(m >> (3 * s) & 7))
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
	for _, pm := range refCanonOrders[nn] {
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
			z.finishRow(c, stackOf, level, r)
		}
	}
}

// finishRow tries source row r as result row level of c with the result
// stacks given by stackOf (c's, plus stacks newly placed for this row).
// It orders the open column groups for the row and gives labels to its
// new digits; if the row's key is no larger than the best of the level it
// offers the child, and its variants that order tied new digits
// differently.
func (z *refCanonicalizer) finishRow(c *refCanonCand, stackOf [3]uint8, level, r int) {
	row := (*[9]uint8)(z.src[c.tr][r*9 : r*9+9])
	cols, tie := c.cols, c.tie
	var cls [9]uint8
	var forkAt, forkLen [3]uint8
	nfork := 0
	// key holds the row's labels so far, four bits a cell; the row is
	// dropped as soon as its prefix exceeds the best row's.
	var key uint64
	next := c.next
	for p := range 3 {
		s := stackOf[p]
		if s == refNoStack {
			key <<= 12
			if key > z.best>>(4*(6-3*p)) {
				return
			}
			continue
		}
		if c.stackOf[p] == refNoStack {
			// Newly placed: its three columns are one open group.
			cols[3*p], cols[3*p+1], cols[3*p+2] = 3*s, 3*s+1, 3*s+2
			tie |= 3 << (3 * p)
		} else if tie>>(3*p)&3 == 0 {
			// Every column of the stack is fixed: no group to order.
			for j := 3 * p; j < 3*p+3; j++ {
				v := c.label[row[cols[j]]]
				cls[j] = v
				if v == refNewDigit {
					v = next
					next++
				}
				key = key<<4 | uint64(v)
			}
			if key > z.best>>(4*(6-3*p)) {
				return
			}
			continue
		}
		a := 3 * p
		for a < 3*p+3 {
			b := a
			for tie&(1<<b) != 0 {
				b++
			}
			// Columns a..b form a group, empty in every row so far.
			for j := a; j <= b; j++ {
				col := cols[j]
				v := c.label[row[col]]
				// Insertion sort by class, stable, within the group.
				k := j
				for k > a && cls[k-1] > v {
					cls[k] = cls[k-1]
					cols[k] = cols[k-1]
					k--
				}
				cls[k] = v
				cols[k] = col
			}
			news := 0
			for j := a; j <= b; j++ {
				v := cls[j]
				if v == refNewDigit {
					v = next
					next++
					news++
				}
				key = key<<4 | uint64(v)
			}
			if key > z.best>>(4*(8-b)) {
				return
			}
			if b > a {
				tie &^= (1<<(b-a) - 1) << a
				for j := a; j < b; j++ {
					if cls[j] == 0 && cls[j+1] == 0 {
						tie |= 1 << j
					}
				}
				if news > 1 {
					forkAt[nfork], forkLen[nfork] = uint8(b+1-news), uint8(news)
					nfork++
				}
			}
			a = b + 1
		}
	}
	child := *c
	child.rows[level] = uint8(r)
	child.used |= 1 << r
	child.stackOf, child.cols, child.tie = stackOf, cols, tie
	next = c.next
	for j := range 9 {
		if cls[j] == refNewDigit {
			child.label[row[cols[j]]] = next
			next++
		}
	}
	child.next = next
	if !z.offer(key, &child) || nfork == 0 {
		return
	}
	z.forks(child, row[:], forkAt[:nfork], forkLen[:nfork], true)
}

// forks offers every variant of child that orders the tied new digits of
// the groups at[i] (n[i] digits long) differently; identity says every
// group handled so far keeps child's order (offer already kept that one).
func (z *refCanonicalizer) forks(child refCanonCand, row []uint8, at, n []uint8, identity bool) {
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
	for i, pm := range refCanonOrders[m] {
		v := child
		for k := range m {
			v.cols[a+k] = orig[pm[k]]
			v.label[row[v.cols[a+k]]] = first + uint8(k)
		}
		z.forks(v, row, at[1:], n[1:], identity && i == 0)
	}
}

// complete returns the line maps and relabelling of c, which has all nine
// rows: open stacks and columns are all empty, so any order serves; digits
// that never appear take the remaining labels in increasing order.
func (c *refCanonCand) complete() (rows, cols [9]uint8, digits [10]uint8) {
	rows = c.rows
	var open uint8 = 7
	for p := range 3 {
		if s := c.stackOf[p]; s != refNoStack {
			open &^= 1 << s
		}
	}
	for p := range 3 {
		s := c.stackOf[p]
		if s == refNoStack {
			for s = 0; open&(1<<s) == 0; s++ {
			}
			open &^= 1 << s
			cols[3*p], cols[3*p+1], cols[3*p+2] = 3*s, 3*s+1, 3*s+2
		} else {
			copy(cols[3*p:3*p+3], c.cols[3*p:3*p+3])
		}
	}
	next := c.next
	for d := 1; d <= 9; d++ {
		if c.label[d] != refNewDigit {
			digits[d] = c.label[d]
		} else {
			digits[d] = next
			next++
		}
	}
	return rows, cols, digits
}

// refCanonIsFull reports whether g is a complete grid with every row, column
// and box holding each digit once.
func refCanonIsFull(g solve.Grid) bool {
	var rows, cols, boxes [9]uint16
	for r := range 9 {
		for c := range 9 {
			v := g[r*9+c]
			if v == 0 || v > 9 {
				return false
			}
			rows[r] |= 1 << v
			cols[c] |= 1 << v
			boxes[refCanonBoxOf[r*9+c]] |= 1 << v
		}
	}
	for i := range 9 {
		if rows[i] != 0x3fe || cols[i] != 0x3fe || boxes[i] != 0x3fe {
			return false
		}
	}
	return true
}

// refCanonBoxOf is the box (0..8) of each cell.
var refCanonBoxOf = func() (b [81]uint8) {
	for i := range b {
		b[i] = uint8(i/27*3 + i%9/3)
	}
	return b
}()

// CanonGrid is the reference CanonGrid.
func (z *refCanonicalizer) CanonGrid(sol solve.Grid) (solve.Grid, Transform) {
	if !refCanonIsFull(sol) {
		return z.Canon(sol)
	}
	z.load(&sol)
	z.gcur = z.gcur[:0]
	for tr := range 2 {
		for r := range 9 {
			c := refGridCand{tr: uint8(tr), used: 1 << r, stackOf: [3]uint8{refNoStack, refNoStack, refNoStack}, stackAt: [3]uint8{refNoStack, refNoStack, refNoStack}}
			c.rows[0] = uint8(r)
			for col := range 9 {
				c.pos[z.src[tr][r*9+col]] = uint8(col)
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
			child.used |= 1 << r
			row := (*[9]uint8)(z.src[c.tr][int(r)*9 : int(r)*9+9])
			z.gridRow(child, row, 0, 0, first[i][n])
		}
	}
	z.gcur, z.gnxt = z.gnxt, z.gcur
	for level := 2; level < 9; level++ {
		z.gnxt = z.gnxt[:0]
		z.best = ^uint64(0)
		for i := range z.gcur {
			c := &z.gcur[i]
			for rs := refAllowedRows(c.used, c.rows, level); rs != 0; rs &= rs - 1 {
				r := bits.TrailingZeros16(rs)
				row := (*[9]uint8)(z.src[c.tr][r*9 : r*9+9])
				if c.posSet != 0x1ff {
					child := *c
					child.rows[level] = uint8(r)
					child.used |= 1 << r
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
				child.used |= 1 << r
			}
		}
		z.gcur, z.gnxt = z.gnxt, z.gcur
	}
	t := z.gcur[0].transform()
	return t.Apply(sol), t
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

// refStackOfLine is the band or stack (0..2) of each line.
var refStackOfLine = [9]uint8{0, 0, 0, 1, 1, 1, 2, 2, 2}

// refLineSiblings lists the two other lines of each line's band.
var refLineSiblings = [9][2]uint8{{1, 2}, {2, 0}, {0, 1}, {4, 5}, {5, 3}, {3, 4}, {7, 8}, {8, 6}, {6, 7}}

// refPureKeys are the row-1 keys of pure pairs by fixed points of f cubed.
var refPureKeys = [4]uint64{0: 0x456789231, 1: 0x456789132, 3: 0x456789123}

// pairKey returns an upper bound on the row-1 key of c's row 0 followed by
// source row r that is exact in as many cells as the pair decides (all
// nine for a pure pair, four otherwise, then all ones), and the source
// columns that may come first in a row achieving it.
func (z *refCanonicalizer) pairKey(c *refGridCand, r int) (uint64, uint16) {
	row := (*[9]uint8)(z.src[c.tr][r*9 : r*9+9])
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
			return refPureKeys[1], fixedCols
		}
		return refPureKeys[fixed], 0x1ff
	}
	var fs [9]uint8 // stack of f
	for col := range 9 {
		fs[col] = refStackOfLine[f[col]]
	}
	least := uint8(0xff)
	var mask uint16
	for x := range uint8(9) {
		// x' is the other column of x's stack sent with it, a3 the third.
		xx, a3 := refLineSiblings[x][0], refLineSiblings[x][1]
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

func (z *refCanonicalizer) gridRow(c refGridCand, row *[9]uint8, j int, key uint64, first uint16) {
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
			} else if s := c.stackOf[t]; s != refNoStack {
				choices = 7 << (3 * s) &^ c.colSet
			} else {
				for s := range 3 {
					if c.stackAt[s] == refNoStack {
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
func (c *refGridCand) place(x uint8, j int) {
	if t := j / 3; c.stackOf[t] == refNoStack {
		c.stackOf[t] = x / 3
		c.stackAt[x/3] = uint8(t)
	}
	c.assign(x, j)
}

// assign puts source column x at result column j.
func (c *refGridCand) assign(x uint8, j int) {
	c.cols[j] = x
	c.inv[x] = uint8(j)
	c.colSet |= 1 << x
	c.posSet |= 1 << j
}

// value returns the label of digit d: one plus the result column of d in
// result row 0. If that column is still open, d's source column goes to the
// first free result column it may take, which gives the smallest label.
func (c *refGridCand) value(d uint8) uint8 {
	y := c.pos[d]
	if c.colSet&(1<<y) != 0 {
		return c.inv[y] + 1
	}
	s := y / 3
	t := c.stackAt[s]
	if t == refNoStack {
		for t = 0; c.stackOf[t] != refNoStack; t++ {
		}
		c.stackOf[t] = s
		c.stackAt[s] = t
	}
	j := int(3*t) + bits.TrailingZeros16(^c.posSet>>(3*t))
	c.assign(y, j)
	return uint8(j) + 1
}

// transform turns a finished refGridCand into a Transform.
func (c *refGridCand) transform() Transform {
	var digits [10]uint8
	for d := 1; d <= 9; d++ {
		digits[d] = c.inv[c.pos[d]] + 1
	}
	return makeTransform(c.tr == 1, c.rows, c.cols, digits)
}
