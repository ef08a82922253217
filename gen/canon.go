package gen

import (
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

// noStack marks a result stack that no source stack is assigned to yet.
const noStack = 0xff

// newDigit is the class of a digit not yet labelled; it sorts after every
// label because the next label is larger than all labels given so far.
const newDigit = 10

// cand is a partial transform of a puzzle after some result rows.
type cand struct {
	rows    [9]uint8  // source row of each result row done so far
	cols    [9]uint8  // source column of each result column of an assigned stack
	label   [10]uint8 // label of each source digit; 0 while unlabelled
	stackOf [3]uint8  // source stack of each result stack, or noStack
	tie     uint16    // bit j: result columns j and j+1 are interchangeable
	used    uint16    // source rows used
	tr      uint8     // 1 if the source is the transposed grid
	next    uint8     // the next label to give
}

// gcand is a partial transform of a full grid after some result rows. In a
// full grid the labels follow from result row 0, which is always 123456789:
// digit d becomes one plus the result column of d in that row.
type gcand struct {
	rows    [9]uint8  // source row of each result row done so far
	cols    [9]uint8  // source column of each assigned result column
	inv     [9]uint8  // result column of each assigned source column
	pos     [10]uint8 // source column of each digit in source row rows[0]
	stackOf [3]uint8  // source stack of each result stack, or noStack
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
	src        [2]solve.Grid // the grid and its transpose
	mask       [2][9]uint16  // filled columns of each row of src
	cur, nxt   []cand
	gcur, gnxt []gcand
	best       uint64 // the smallest row key of the level being built
}

var canonPool = sync.Pool{New: func() any { return new(Canonicalizer) }}

// Canon returns the canonical form of puzzle p and a transform t with
// t.Apply(p) equal to it. p must be a grid with no digit repeated in a row,
// column or box (any puzzle that passes solve.Parse); for other grids the
// result is some transform of p but may not be canonical. Canon is safe for
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
	if isFullGrid(p) {
		return z.CanonGrid(p)
	}
	for i := range 81 {
		if p[i] > 9 {
			p[i] = 0
		}
	}
	z.load(p)
	z.cur = z.cur[:0]
	for tr := range 2 {
		z.cur = append(z.cur, cand{tr: uint8(tr), next: 1, stackOf: [3]uint8{noStack, noStack, noStack}})
	}
	for level := range 9 {
		z.nxt = z.nxt[:0]
		z.best = ^uint64(0)
		for i := range z.cur {
			c := &z.cur[i]
			for r := range 9 {
				if allowedRow(c.used, c.rows, level, r) {
					z.expand(c, level, r)
				}
			}
		}
		z.cur, z.nxt = z.nxt, z.cur
	}
	t := z.cur[0].transform()
	return t.Apply(p), t
}

// load stores g and its transpose with the filled-column masks of their rows.
func (z *Canonicalizer) load(g solve.Grid) {
	z.src[0] = g
	for r := range 9 {
		for c := range 9 {
			z.src[1][c*9+r] = g[r*9+c]
		}
	}
	for tr := range 2 {
		for r := range 9 {
			var m uint16
			for c := range 9 {
				if z.src[tr][r*9+c] != 0 {
					m |= 1 << c
				}
			}
			z.mask[tr][r] = m
		}
	}
}

// allowedRow reports whether source row r may become result row level
// after the rows already used: the first row of a result band opens a
// source band not used yet, the others continue the band of the row above.
func allowedRow(used uint16, rows [9]uint8, level, r int) bool {
	if used&(1<<r) != 0 {
		return false
	}
	if level%3 == 0 {
		return used&(7<<(r/3*3)) == 0
	}
	return int(rows[level-1])/3 == r/3
}

// offer records child with row key key: it replaces the level's candidates
// if key is smaller than every key so far, joins them if equal, and is
// dropped if larger. It reports whether the child was kept.
func (z *Canonicalizer) offer(key uint64, child *cand) bool {
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

// perms lists the orders of n = 0..3 items, identity first.
var perms = [4][][3]uint8{
	{{}},
	{{0}},
	{{0, 1}, {1, 0}},
	{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}},
}

// expand tries source row r of c's grid as result row level.
func (z *Canonicalizer) expand(c *cand, level, r int) {
	m := z.mask[c.tr][r]
	if m == 0 {
		// An empty row keeps every open choice open.
		child := *c
		child.rows[level] = uint8(r)
		child.used |= 1 << r
		z.offer(0, &child)
		return
	}
	// Unassigned source stacks that have a digit in this row must be given
	// result stacks now; the others stay open.
	var free [3]uint8 // unassigned result stacks
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
	var need [3]uint8 // unassigned source stacks with a digit in this row
	nn := 0
	for s := range 3 {
		if open&(1<<s) != 0 && m&(7<<(3*s)) != 0 {
			need[nn] = uint8(s)
			nn++
		}
	}
	for _, pm := range perms[nf] {
		// Positions pm[nn:] stay unassigned; take each set of them once.
		if nf-nn == 2 && pm[nn] > pm[nn+1] {
			continue
		}
		child := *c
		child.rows[level] = uint8(r)
		child.used |= 1 << r
		for i := range nn {
			p, s := free[pm[i]], need[i]
			child.stackOf[p] = s
			child.cols[3*p], child.cols[3*p+1], child.cols[3*p+2] = 3*s, 3*s+1, 3*s+2
			child.tie |= 3 << (3 * p)
		}
		z.finishRow(&child, &z.src[c.tr], r)
	}
}

// finishRow orders the open column groups of child for source row r, gives
// labels to the row's new digits, and offers the child (and, if it is
// kept, its variants that order tied new digits differently).
func (z *Canonicalizer) finishRow(child *cand, g *solve.Grid, r int) {
	row := g[r*9 : r*9+9 : r*9+9]
	var cls [9]uint8
	var forkAt, forkLen [3]uint8
	nfork := 0
	for p := range 3 {
		if child.stackOf[p] == noStack {
			continue
		}
		a := 3 * p
		for a < 3*p+3 {
			b := a
			for child.tie&(1<<b) != 0 {
				b++
			}
			// Columns a..b form a group, empty in every row so far.
			for j := a; j <= b; j++ {
				v := row[child.cols[j]]
				switch {
				case v == 0:
				case child.label[v] != 0:
					v = child.label[v]
				default:
					v = newDigit
				}
				// Insertion sort by class, stable, within the group.
				col := child.cols[j]
				k := j
				for k > a && cls[k-1] > v {
					cls[k] = cls[k-1]
					child.cols[k] = child.cols[k-1]
					k--
				}
				cls[k] = v
				child.cols[k] = col
			}
			if b > a {
				child.tie &^= (1<<(b-a) - 1) << a
				news := 0
				for j := a; j <= b; j++ {
					if j < b && cls[j] == 0 && cls[j+1] == 0 {
						child.tie |= 1 << j
					}
					if cls[j] == newDigit {
						news++
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
	var key uint64
	next := child.next
	for j := range 9 {
		v := cls[j]
		if v == newDigit {
			v = next
			child.label[row[child.cols[j]]] = next
			next++
		}
		key = key<<4 | uint64(v)
	}
	child.next = next
	if !z.offer(key, child) || nfork == 0 {
		return
	}
	z.forks(*child, row, forkAt[:nfork], forkLen[:nfork], true)
}

// forks offers every variant of child that orders the tied new digits of
// the given groups differently; identity says the first group is still in
// its original order in every group so far (that variant was offered).
func (z *Canonicalizer) forks(child cand, row []uint8, at, n []uint8, identity bool) {
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
	for i, pm := range perms[m] {
		v := child
		for k := range m {
			v.cols[a+k] = orig[pm[k]]
			v.label[row[v.cols[a+k]]] = first + uint8(k)
		}
		z.forks(v, row, at[1:], n[1:], identity && i == 0)
	}
}

// transform completes c, which has all nine rows, into a Transform: open
// stacks and columns are all empty, so any order serves; digits that never
// appear take the remaining labels in increasing order.
func (c *cand) transform() Transform {
	var rows, cols [9]uint8
	var digits [10]uint8
	rows = c.rows
	var open uint8 = 7
	for p := range 3 {
		if s := c.stackOf[p]; s != noStack {
			open &^= 1 << s
		}
	}
	for p := range 3 {
		s := c.stackOf[p]
		if s == noStack {
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
		if c.label[d] != 0 {
			digits[d] = c.label[d]
		} else {
			digits[d] = next
			next++
		}
	}
	return makeTransform(c.tr == 1, rows, cols, digits)
}

// isFullGrid reports whether g is a complete grid with every row, column
// and box holding each digit once.
func isFullGrid(g solve.Grid) bool {
	var rows, cols, boxes [9]uint16
	for i, v := range g {
		if v == 0 || v > 9 {
			return false
		}
		r, c := i/9, i%9
		rows[r] |= 1 << v
		cols[c] |= 1 << v
		boxes[r/3*3+c/3] |= 1 << v
	}
	for i := range 9 {
		if rows[i] != 0x3fe || cols[i] != 0x3fe || boxes[i] != 0x3fe {
			return false
		}
	}
	return true
}

// CanonGrid is the package-level CanonGrid using z's scratch space.
func (z *Canonicalizer) CanonGrid(sol solve.Grid) (solve.Grid, Transform) {
	if !isFullGrid(sol) {
		return z.Canon(sol)
	}
	z.load(sol)
	z.gcur = z.gcur[:0]
	for tr := range 2 {
		for r := range 9 {
			c := gcand{tr: uint8(tr), used: 1 << r, stackOf: [3]uint8{noStack, noStack, noStack}}
			c.rows[0] = uint8(r)
			for col := range 9 {
				c.pos[z.src[tr][r*9+col]] = uint8(col)
			}
			z.gcur = append(z.gcur, c)
		}
	}
	for level := 1; level < 9; level++ {
		z.gnxt = z.gnxt[:0]
		z.best = ^uint64(0)
		for i := range z.gcur {
			c := &z.gcur[i]
			for r := range 9 {
				if allowedRow(c.used, c.rows, level, r) {
					child := *c
					child.rows[level] = uint8(r)
					child.used |= 1 << r
					row := (*[9]uint8)(z.src[c.tr][r*9 : r*9+9])
					z.gridRow(child, row, 0, 0)
				}
			}
		}
		z.gcur, z.gnxt = z.gnxt, z.gcur
	}
	t := z.gcur[0].transform()
	return t.Apply(sol), t
}

// gridRow extends c cell by cell through result row cells j..8 of source
// row row, whose key so far is key, branching where the result column is
// still open, and offers every completion whose key is the smallest.
func (z *Canonicalizer) gridRow(c gcand, row *[9]uint8, j int, key uint64) {
	for ; j < 9; j++ {
		if key > z.best>>(4*(9-j)) {
			return
		}
		if c.posSet&(1<<j) == 0 {
			// Branch over the source columns that may fill column j.
			t := j / 3
			var choices uint16
			if s := c.stackOf[t]; s != noStack {
				choices = 7 << (3 * s) &^ c.colSet
			} else {
				for s := range 3 {
					if c.stackIndex(uint8(s)) < 0 {
						choices |= 7 << (3 * s)
					}
				}
			}
			for x := 0; x < 9; x++ {
				if choices&(1<<x) == 0 {
					continue
				}
				d := c
				d.stackOf[t] = uint8(x / 3)
				d.assign(uint8(x), j)
				v := d.value(row[x])
				z.gridRow(d, row, j+1, key<<4|uint64(v))
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

// stackIndex returns the result stack that source stack s is assigned to,
// or -1.
func (c *gcand) stackIndex(s uint8) int {
	for p := range 3 {
		if c.stackOf[p] == s {
			return p
		}
	}
	return -1
}

// assign puts source column x at result column j.
func (c *gcand) assign(x uint8, j int) {
	c.cols[j] = x
	c.inv[x] = uint8(j)
	c.colSet |= 1 << x
	c.posSet |= 1 << j
}

// value returns the label of digit d: one plus the result column of d in
// result row 0. If that column is still open, d's source column goes to the
// first free result column it may take, which gives the smallest label.
func (c *gcand) value(d uint8) uint8 {
	y := c.pos[d]
	if c.colSet&(1<<y) != 0 {
		return c.inv[y] + 1
	}
	s := y / 3
	t := c.stackIndex(s)
	if t < 0 {
		for t = 0; c.stackOf[t] != noStack; t++ {
		}
		c.stackOf[t] = s
	}
	j := 3 * t
	for c.posSet&(1<<j) != 0 {
		j++
	}
	c.assign(y, j)
	return uint8(j) + 1
}

// transform turns a finished gcand into a Transform.
func (c *gcand) transform() Transform {
	var digits [10]uint8
	for d := 1; d <= 9; d++ {
		digits[d] = c.inv[c.pos[d]] + 1
	}
	return makeTransform(c.tr == 1, c.rows, c.cols, digits)
}
