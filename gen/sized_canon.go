package gen

import (
	"bytes"
	"math/bits"
	"sync"

	"sudokubank/grid"
)

// The sized canonical form of a grid of any shape is defined as the 9x9
// form is (canon.go): the smallest, in row-major order, of the N*N-value
// strings of all its transforms under the shape's group, an empty cell
// sorting before every value and the values of each transformed grid
// relabelled in order of first appearance. On 9x9 grids it is the very
// grid Canon returns.
//
// The search builds the form one result row at a time and keeps every
// partial transform whose rows so far are the smallest (a level's
// candidates). Within a row it goes cell by cell and commits only what the
// smallest value at that cell needs; everything the rows so far cannot
// tell apart stays open:
//
//   - result stacks not yet given a source stack (all their columns are
//     empty in every row so far) form a prefix of the result stacks;
//   - the positions of each assigned result stack are split into cells,
//     ranges of positions holding a set of source columns in no order yet;
//     a cell of one column is placed;
//   - the labels of values first met together in one cell of one row are
//     bound to their columns: such a value's label is beta plus the final
//     position of its column, so that whatever order the cell takes later
//     its labels still run in position order.
//
// A value bound to an unplaced column, met again elsewhere, gets its
// smallest label by moving that column to the front of its cell; ties
// between columns that give the same value are the only branches, besides
// rows and stacks with equal digit counts.
//
// Two shortcuts keep grids with many automorphisms (full grids, the empty
// grid, patterns) fast: a candidate whose columns and labels are all fixed
// is finished at once by sorting its remaining rows, and only the best of
// those is kept; and two finished candidates with one string reveal an
// automorphism, under which whole orbits of first-row candidates are
// skipped (see automorphism).

// sizedMax is the largest N, grid.MaxN, as an array bound.
const sizedMax = grid.MaxN

// Label states of a value in a sizedCand.
const (
	unseenLabel  = 0    // the value is in no row so far
	pendingLabel = 0xff // the value's label is bound to a column (bind, beta)
	openStack    = 0xff // a result stack with no source stack yet
)

// sizedState is everything about a partial transform that decides its
// future: two candidates with equal states finish alike.
type sizedState struct {
	col     [sizedMax]uint8     // source column at each position (a cell's columns in any order)
	pos     [sizedMax]uint8     // position of each source column of an assigned stack
	lab     [sizedMax + 1]uint8 // label of each value, unseenLabel or pendingLabel
	bind    [sizedMax + 1]uint8 // column a pending value's label is bound to
	beta    [sizedMax + 1]int8  // a pending value's label minus its column's position
	stackOf [5]uint8            // source stack of each result stack, or openStack
	split   uint32              // bit p: a cell starts at position p; bit N always set
	used    uint32              // source rows used
	open    uint8               // result stacks [0, open) have no source stack
	next    uint8               // the next label to give
	tr      uint8               // 1 if the source is the transposed grid
	done    bool                // rows holds every row: the candidate is determined
}

// sizedCand is a partial transform after some result rows.
type sizedCand struct {
	st   sizedState
	rows [sizedMax]uint8 // source row of each result row done so far
	anc  int32           // the level-0 candidate it descends from
}

// key128 is a result row of up to 25 values, five bits each, first value
// highest, so that rows compare as numbers.
type key128 struct{ hi, lo uint64 }

// push appends value v to the row k.
func (k key128) push(v uint8) key128 { return key128{k.hi<<5 | k.lo>>59, k.lo<<5 | uint64(v)} }

// shr drops the last s/5 values of the row k.
func (k key128) shr(s uint) key128 {
	switch {
	case s == 0:
		return k
	case s >= 64:
		return key128{0, k.hi >> (s - 64)}
	}
	return key128{k.hi >> s, k.lo>>s | k.hi<<(64-s)}
}

// less reports whether row k comes before row o (both of one length).
func (k key128) less(o key128) bool { return k.hi < o.hi || k.hi == o.hi && k.lo < o.lo }

// SizedCanonicalizer computes sized canonical forms with reusable scratch
// space. The zero value is ready to use; it is not safe for concurrent use.
type SizedCanonicalizer struct {
	s          grid.Shape
	src        [2][]uint8 // the grid and its transpose
	cur, nxt   []sizedCand
	best       key128 // the smallest row of the level so far
	level      int
	r          int     // the source row being tried
	row        []uint8 // its values
	empty      bool    // it has no value
	parentRows *[sizedMax]uint8
	g          grid.Grid
	rowVals    [2][sizedMax]uint32 // values present in each source row
	fin        int                 // index in nxt of the level's determined candidate, or -1
	anc        int32               // level-0 ancestor of the children being made
	buf        []uint8             // row strings of a completion
	order      [sizedMax]uint8

	// Orbits of the level-0 candidates under the automorphisms found so
	// far, a union-find forest; proc marks roots of orbits already tried.
	uf    []int32
	proc  []bool
	index map[uint32]int32
}

var sizedCanonPool = sync.Pool{New: func() any { return new(SizedCanonicalizer) }}

// SizedCanon returns the canonical form of p, a puzzle or a full grid of
// any shape, under its shape's group, and a transform t with t.Apply(p)
// equal to it. Two grids get the same form exactly when one is a transform
// of the other. A grid that fails Check has no form: SizedCanon returns it
// unchanged with the identity. SizedCanon is safe for concurrent use.
func SizedCanon(p grid.Grid) (grid.Grid, grid.Transform) {
	z := sizedCanonPool.Get().(*SizedCanonicalizer)
	f, t := z.Canon(p)
	sizedCanonPool.Put(z)
	return f, t
}

// Canon is SizedCanon using z's scratch space.
func (z *SizedCanonicalizer) Canon(p grid.Grid) (grid.Grid, grid.Transform) {
	s := p.Shape
	if !s.Valid() || p.Check() != nil {
		return p.Clone(), grid.Identity(s)
	}
	z.load(p)
	n := s.N
	z.cur = z.cur[:0]
	var start sizedCand
	start.st.open = uint8(s.Stacks())
	start.st.next = 1
	for t := range start.st.stackOf {
		start.st.stackOf[t] = openStack
	}
	for p := 0; p <= n; p += s.BoxCols {
		start.st.split |= 1 << p
	}
	trs := 1
	if s.Square() {
		trs = 2
	}
	for tr := range trs {
		start.st.tr = uint8(tr)
		z.cur = append(z.cur, start)
	}
	for z.level = 0; z.level < n; z.level++ {
		z.nxt = z.nxt[:0]
		z.best = key128{^uint64(0), ^uint64(0)}
		if z.level == 0 {
			for tr := range trs {
				for r := range n {
					if k := z.firstRowKey(tr, r); k.less(z.best) {
						z.best = k
					}
				}
			}
		}
		z.fin = -1
		if z.level == 1 {
			z.startOrbits()
		}
		for i := range z.cur {
			c := &z.cur[i]
			if z.level == 1 {
				if z.orbitDone(i) {
					continue
				}
				z.anc = int32(i)
			} else {
				z.anc = c.anc
			}
			if c.st.done {
				z.tryDone(c)
				continue
			}
			z.tryRows(c)
			if z.level == 1 {
				z.proc[z.find(int32(i))] = true
			}
		}
		z.cur, z.nxt = z.nxt, z.cur
	}
	t := z.complete(&z.cur[0])
	z.g = grid.Grid{}
	if cap(z.cur)+cap(z.nxt) > maxKeptCands {
		z.cur, z.nxt = nil, nil // a rare symmetric grid: do not pool its memory
	}
	return t.Apply(p), t
}

// maxKeptCands bounds the candidates a SizedCanonicalizer keeps room for
// between calls.
const maxKeptCands = 1 << 14

// load stores p and its transpose.
func (z *SizedCanonicalizer) load(p grid.Grid) {
	s := p.Shape
	n := s.N
	z.s = s
	z.g = p
	z.rowVals = [2][sizedMax]uint32{}
	for tr := range 2 {
		if cap(z.src[tr]) < n*n {
			z.src[tr] = make([]uint8, n*n)
		}
		z.src[tr] = z.src[tr][:n*n]
	}
	for r := range n {
		for c := range n {
			v := p.Cells[r*n+c]
			z.src[0][r*n+c] = v
			z.src[1][c*n+r] = v
			z.rowVals[0][r] |= 1 << v &^ 1
			z.rowVals[1][c] |= 1 << v &^ 1
		}
	}
}

// firstRowKey is result row 0 made of source row r: its stacks by
// increasing count of values, each stack's values at its right, labelled
// 1, 2, ... from the left.
func (z *SizedCanonicalizer) firstRowKey(tr, r int) key128 {
	s := z.s
	var cnt [5]int
	row := z.src[tr][r*s.N : r*s.N+s.N]
	for c, v := range row {
		if v != 0 {
			cnt[c/s.BoxCols]++
		}
	}
	k := cnt[:s.Stacks()]
	for i := 1; i < len(k); i++ {
		for j := i; j > 0 && k[j-1] > k[j]; j-- {
			k[j-1], k[j] = k[j], k[j-1]
		}
	}
	var key key128
	next := uint8(1)
	for _, m := range k {
		for i := range s.BoxCols {
			if i >= s.BoxCols-m {
				key = key.push(next)
				next++
			} else {
				key = key.push(0)
			}
		}
	}
	return key
}

// allowedRows returns the source rows that may become result row level:
// the first row of a result band opens a source band not used yet, the
// others continue the band of the row above.
func (z *SizedCanonicalizer) allowedRows(c *sizedCand) uint32 {
	br := z.s.BoxRows
	band := uint32(1)<<br - 1
	if z.level%br != 0 {
		b := int(c.rows[z.level-1]) / br * br
		return band << b &^ c.st.used
	}
	var m uint32
	for b := 0; b < z.s.N; b += br {
		if c.st.used&(band<<b) == 0 {
			m |= band << b
		}
	}
	return m
}

// tryRow tries source row r as the next result row of c: it gives result
// stacks to the open source stacks that have values in the row (fewer
// values first, equal counts in every order), then walks the row.
func (z *SizedCanonicalizer) tryRow(c *sizedCand, r int) {
	s := z.s
	n := s.N
	z.r = r
	z.row = z.src[c.st.tr][r*n : r*n+n]
	z.parentRows = &c.rows
	st := c.st
	st.used |= 1 << r
	z.empty = true
	for _, v := range z.row {
		if v != 0 {
			z.empty = false
			break
		}
	}
	if z.empty {
		z.offer(key128{}, &st)
		return
	}
	if st.open == 0 {
		z.walk(st, 0, key128{})
		return
	}
	// Open source stacks are those no result stack has.
	var taken uint32
	for t := int(st.open); t < s.Stacks(); t++ {
		taken |= 1 << st.stackOf[t]
	}
	var need, cnt [5]uint8 // open source stacks with values in the row, by count
	nn := 0
	for sk := range s.Stacks() {
		if taken&(1<<sk) != 0 {
			continue
		}
		k := uint8(0)
		for _, v := range z.row[sk*s.BoxCols : sk*s.BoxCols+s.BoxCols] {
			if v != 0 {
				k++
			}
		}
		if k == 0 {
			continue
		}
		i := nn
		for i > 0 && cnt[i-1] > k {
			need[i], cnt[i] = need[i-1], cnt[i-1]
			i--
		}
		need[i], cnt[i] = uint8(sk), k
		nn++
	}
	if nn == 0 {
		z.walk(st, 0, key128{})
		return
	}
	z.placeStacks(st, need[:nn], cnt[:nn], 0)
}

// placeStacks gives the result stacks open-len(need) .. open-1 the source
// stacks need, from index i on, in every order that keeps counts
// increasing, and walks the row for each.
func (z *SizedCanonicalizer) placeStacks(st sizedState, need, cnt []uint8, i int) {
	if i == len(need) {
		st.open -= uint8(len(need))
		z.walk(st, 0, key128{})
		return
	}
	bc := z.s.BoxCols
	t := int(st.open) - len(need) + i
	for k := i; k < len(need); k++ {
		if cnt[k] != cnt[i] {
			continue
		}
		need[i], need[k] = need[k], need[i]
		u := st
		sk := int(need[i])
		u.stackOf[t] = uint8(sk)
		for j := range bc {
			u.col[t*bc+j] = uint8(sk*bc + j)
			u.pos[sk*bc+j] = uint8(t*bc + j)
		}
		z.placeStacks(u, need, cnt, i+1)
		need[i], need[k] = need[k], need[i]
	}
}

// cellEnd returns the end of the cell that starts at position p.
func (st *sizedState) cellEnd(p int) int {
	return p + 1 + bits.TrailingZeros32(st.split>>(p+1))
}

// cellStart returns the start of the cell holding position p.
func (st *sizedState) cellStart(p int) int {
	return 31 - bits.LeadingZeros32(st.split&(1<<(p+1)-1))
}

// placed reports whether source column x is alone in its cell.
func (st *sizedState) placed(x uint8) bool {
	p := st.pos[x]
	return st.split>>p&3 == 3
}

// moveFront moves source column x to the front of its cell, which then
// holds x alone there.
func (st *sizedState) moveFront(x uint8) {
	p := int(st.pos[x])
	a := st.cellStart(p)
	y := st.col[a]
	st.col[a], st.col[p] = x, y
	st.pos[x], st.pos[y] = uint8(a), uint8(p)
	st.split |= 1 << (a + 1)
}

// label returns the label value v gets in the current row when its column
// is placed at its position; it may place a bound column (to the front of
// its cell, the smallest label) and give a new value the next label.
func (st *sizedState) label(v uint8) uint8 {
	switch l := st.lab[v]; l {
	case 0:
		if v == 0 {
			return 0
		}
		st.lab[v] = st.next
		st.next++
		return st.lab[v]
	case pendingLabel:
		y := st.bind[v]
		if !st.placed(y) {
			st.moveFront(y)
		}
		l := uint8(int(st.beta[v]) + int(st.pos[y]))
		st.lab[v] = l
		return l
	default:
		return l
	}
}

// peek returns the label v would get if column x went to position p, the
// front of x's cell, without changing st. v is neither empty nor new.
func (st *sizedState) peek(v uint8, x uint8, p int) uint8 {
	l := st.lab[v]
	if l != pendingLabel {
		return l
	}
	y := st.bind[v]
	if st.placed(y) {
		return uint8(int(st.beta[v]) + int(st.pos[y]))
	}
	a := st.cellStart(int(st.pos[y]))
	if a == p {
		a++ // y shares x's cell, which x opens
	}
	return uint8(int(st.beta[v]) + a)
}

// walk extends st through positions p.. of the current row, whose values
// so far make key, and offers every completion whose row is the smallest.
func (z *SizedCanonicalizer) walk(st sizedState, p int, key key128) {
	n := z.s.N
	bc := z.s.BoxCols
	row := z.row
	for p < n {
		if p < int(st.open)*bc {
			// Open stacks hold no value in this row.
			for ; p < int(st.open)*bc; p++ {
				key = key.push(0)
			}
			if z.pruned(key, p-1) {
				return
			}
			continue
		}
		e := st.cellEnd(p)
		if e == p+1 {
			key = key.push(st.label(row[st.col[p]]))
			if z.pruned(key, p) {
				return
			}
			p++
			continue
		}
		// A cell of several columns: split off the empty ones (front) and
		// those with new values (back); the rest have labels and are
		// placed one by one.
		var empties, news, fresh int
		for q := p; q < e; q++ {
			v := row[st.col[q]]
			switch {
			case v == 0:
				empties++
			case st.lab[v] == unseenLabel:
				news++
			case st.lab[v] == pendingLabel && st.bind[v] == st.col[q]:
				fresh++
			}
		}
		size := e - p
		switch {
		case empties == size:
			for ; p < e; p++ {
				key = key.push(0)
			}
			if z.pruned(key, p-1) {
				return
			}
			continue
		case fresh == size:
			// The new values of this row, bound to this cell just now:
			// they take consecutive labels whatever the cell's order.
			for ; p < e; p++ {
				v := row[st.col[p]]
				key = key.push(uint8(int(st.beta[v]) + p))
			}
			if z.pruned(key, p-1) {
				return
			}
			continue
		case empties > 0 || news > 0:
			z.refine(&st, p, e, empties, news)
			continue
		}
		// Every column has a label: the smallest goes first; ties branch.
		least := uint8(0xff)
		var ties [sizedMax]uint8
		nt := 0
		for q := p; q < e; q++ {
			x := st.col[q]
			l := st.peek(row[x], x, p)
			if l < least {
				least, nt = l, 0
			}
			if l == least {
				ties[nt] = x
				nt++
			}
		}
		key = key.push(least)
		if z.pruned(key, p) {
			return
		}
		if nt == 1 {
			st.moveFront(ties[0])
			st.label(row[ties[0]])
			p++
			continue
		}
		for _, x := range ties[:nt] {
			u := st
			u.moveFront(x)
			u.label(row[x])
			z.walk(u, p+1, key)
		}
		return
	}
	z.offer(key, &st)
}

// refine splits the cell [p, e) by the current row: its empty columns
// first, then the columns whose values have labels, then those with new
// values, which are bound to their columns with the next labels.
func (z *SizedCanonicalizer) refine(st *sizedState, p, e, empties, news int) {
	row := z.row
	var cols [sizedMax]uint8
	copy(cols[:e-p], st.col[p:e])
	i, j, k := p, p+empties, e-news
	for _, x := range cols[:e-p] {
		v := row[x]
		switch {
		case v == 0:
			st.col[i] = x
			i++
		case st.lab[v] == unseenLabel:
			st.col[k] = x
			k++
		default:
			st.col[j] = x
			j++
		}
	}
	for q := p; q < e; q++ {
		st.pos[st.col[q]] = uint8(q)
	}
	if empties > 0 {
		st.split |= 1 << (p + empties)
	}
	if news > 0 {
		a := e - news
		st.split |= 1 << a
		beta := int8(int(st.next) - a)
		for q := a; q < e; q++ {
			v := row[st.col[q]]
			if news == 1 {
				st.lab[v] = st.next
			} else {
				st.lab[v] = pendingLabel
				st.bind[v] = st.col[q]
				st.beta[v] = beta
			}
		}
		st.next += uint8(news)
	}
}

// pruned reports whether key, the row's values up to position p, is
// larger than the same prefix of the level's best row.
func (z *SizedCanonicalizer) pruned(key key128, p int) bool {
	return z.best.shr(uint(5 * (z.s.N - 1 - p))).less(key)
}

// offer records the partial transform st with the current row as its
// next row, whose values are key: it replaces the level's candidates if
// key is smaller than every row so far, joins them if equal, and is
// dropped if larger. A child that took an empty row is dropped if a kept
// candidate has the same state: such candidates differ only in the order
// of empty rows, so they finish alike.
func (z *SizedCanonicalizer) offer(key key128, st *sizedState) {
	if z.best.less(key) {
		return
	}
	if key.less(z.best) {
		z.best = key
		z.nxt = z.nxt[:0]
		z.fin = -1
	}
	if z.empty {
		for i := range z.nxt {
			if z.nxt[i].st == *st {
				return
			}
		}
	}
	z.nxt = append(z.nxt, sizedCand{st: *st, rows: *z.parentRows, anc: z.anc})
	c := &z.nxt[len(z.nxt)-1]
	c.rows[z.level] = uint8(z.r)
	if !c.st.done && !z.determined(c) {
		return
	}
	if !c.st.done {
		z.finish(c)
	}
	if z.fin < 0 {
		z.fin = len(z.nxt) - 1
		return
	}
	f := &z.nxt[z.fin]
	switch z.compareRest(f, c) {
	case 1:
		*f = *c
	case 0:
		if z.level == 1 {
			z.automorphism(f, c)
		}
	}
	z.nxt = z.nxt[:len(z.nxt)-1]
}

// complete turns c, which has every row, into a transform: open stacks
// and the columns of each cell are alike in every row, so any order
// serves; values never met take the remaining labels in increasing order.
func (z *SizedCanonicalizer) complete(c *sizedCand) grid.Transform {
	s := z.s
	n, bc := s.N, s.BoxCols
	st := c.st
	t := grid.Identity(s)
	t.Transpose = st.tr == 1
	for i := range n {
		t.Rows[i] = int(c.rows[i])
	}
	var taken uint32
	for r := int(st.open); r < s.Stacks(); r++ {
		taken |= 1 << st.stackOf[r]
	}
	sk := 0
	for r := range s.Stacks() {
		if r < int(st.open) {
			for taken&(1<<sk) != 0 {
				sk++
			}
			taken |= 1 << sk
			for j := range bc {
				t.Cols[r*bc+j] = sk*bc + j
			}
			continue
		}
		for j := r * bc; j < r*bc+bc; j++ {
			t.Cols[j] = int(st.col[j])
		}
	}
	next := st.next
	for v := 1; v <= n; v++ {
		switch l := st.lab[v]; l {
		case unseenLabel:
			t.Values[v] = next
			next++
		case pendingLabel:
			t.Values[v] = uint8(int(st.beta[v]) + int(st.pos[st.bind[v]]))
		default:
			t.Values[v] = l
		}
	}
	return t
}

// tryRows tries every source row allowed as the next result row of c. Of
// the empty rows of a band only the first is tried (the others give the
// same state), and of the bands with no value only the first.
func (z *SizedCanonicalizer) tryRows(c *sizedCand) {
	br := z.s.BoxRows
	var emptyBands uint32 // bands whose first empty row was tried
	blankTried := false   // a band with no value was opened
	for rs := z.allowedRows(c); rs != 0; rs &= rs - 1 {
		r := bits.TrailingZeros32(rs)
		if z.level == 0 && z.firstRowKey(int(c.st.tr), r) != z.best {
			continue
		}
		if z.rowVals[c.st.tr][r] == 0 {
			b := r / br
			if emptyBands&(1<<b) != 0 {
				continue
			}
			emptyBands |= 1 << b
			if z.level%br == 0 && z.blankBand(int(c.st.tr), b) {
				if blankTried {
					continue
				}
				blankTried = true
			}
		}
		z.tryRow(c, r)
	}
}

// blankBand reports whether band b of grid tr has no value.
func (z *SizedCanonicalizer) blankBand(tr, b int) bool {
	br := z.s.BoxRows
	for r := b * br; r < b*br+br; r++ {
		if z.rowVals[tr][r] != 0 {
			return false
		}
	}
	return true
}

// Determined candidates. Once every column is placed and every value met
// again has a label, a candidate's future is fixed but for the order of
// its remaining rows, and the smallest order is a sort: the rest of the
// current band by increasing row, then each other band's rows sorted,
// the bands by increasing sorted rows. finish writes that order into
// rows; after that the candidate has one child a level, and of the
// determined candidates of a level only the one with the smallest string
// is kept. Two with equal strings give an automorphism of the grid.

// determined reports whether c's future is fixed.
func (z *SizedCanonicalizer) determined(c *sizedCand) bool {
	n := z.s.N
	st := &c.st
	if st.open != 0 || st.split != 1<<(n+1)-1 {
		return false
	}
	var unseen uint32
	for v := 1; v <= n; v++ {
		if st.lab[v] == unseenLabel {
			unseen |= 1 << v
		}
	}
	if unseen == 0 {
		return true
	}
	for r := range n {
		if st.used&(1<<r) == 0 && z.rowVals[st.tr][r]&unseen != 0 {
			return false
		}
	}
	return true
}

// labelOf returns the label of value v in the determined candidate st.
func (st *sizedState) labelOf(v uint8) uint8 {
	switch l := st.lab[v]; l {
	case pendingLabel:
		return uint8(int(st.beta[v]) + int(st.pos[st.bind[v]]))
	default:
		return l // 0 for the empty cell
	}
}

// rowString writes source row r of c as it reads in the result into out.
func (z *SizedCanonicalizer) rowString(c *sizedCand, r int, out []uint8) {
	n := z.s.N
	row := z.src[c.st.tr][r*n : r*n+n]
	for p := range n {
		out[p] = c.st.labelOf(row[c.st.col[p]])
	}
}

// finish orders the remaining rows of the determined candidate c.
func (z *SizedCanonicalizer) finish(c *sizedCand) {
	s := z.s
	n, br := s.N, s.BoxRows
	if cap(z.buf) < n*n {
		z.buf = make([]uint8, n*n)
	}
	buf := z.buf[:n*n]
	for r := range n {
		if c.st.used&(1<<r) == 0 {
			z.rowString(c, r, buf[r*n:r*n+n])
		}
	}
	str := func(r uint8) []uint8 { return buf[int(r)*n : int(r)*n+n] }
	k := z.level + 1
	// The rest of the current band, rows sorted.
	if k%br != 0 {
		b := int(c.rows[z.level]) / br * br
		start := k
		for r := b; r < b+br; r++ {
			if c.st.used&(1<<r) == 0 {
				c.rows[k] = uint8(r)
				k++
			}
		}
		sortRows(c.rows[start:k], str)
	}
	// The unused bands, each sorted, then in order of their rows.
	nb := 0
	var bands [sizedMax]uint8
	full := uint32(1)<<br - 1
	for b := 0; b < n; b += br {
		if c.st.used&(full<<b) != 0 {
			continue
		}
		for r := range br {
			z.order[nb*br+r] = uint8(b + r)
		}
		sortRows(z.order[nb*br:nb*br+br], str)
		bands[nb] = uint8(nb)
		nb++
	}
	bandLess := func(i, j uint8) bool {
		for r := range br {
			if d := bytes.Compare(str(z.order[int(i)*br+r]), str(z.order[int(j)*br+r])); d != 0 {
				return d < 0
			}
		}
		return false
	}
	for i := 1; i < nb; i++ {
		for j := i; j > 0 && bandLess(bands[j], bands[j-1]); j-- {
			bands[j], bands[j-1] = bands[j-1], bands[j]
		}
	}
	for _, i := range bands[:nb] {
		copy(c.rows[k:k+br], z.order[int(i)*br:int(i)*br+br])
		k += br
	}
	c.st.done = true
}

// sortRows sorts rows by their strings.
func sortRows(rows []uint8, str func(uint8) []uint8) {
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && bytes.Compare(str(rows[j]), str(rows[j-1])) < 0; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
}

// compareRest compares the rows after the current level of the
// determined candidates a and b.
func (z *SizedCanonicalizer) compareRest(a, b *sizedCand) int {
	n := z.s.N
	for k := z.level + 1; k < n; k++ {
		ra := z.src[a.st.tr][int(a.rows[k])*n : int(a.rows[k])*n+n]
		rb := z.src[b.st.tr][int(b.rows[k])*n : int(b.rows[k])*n+n]
		for p := range n {
			la, lb := a.st.labelOf(ra[a.st.col[p]]), b.st.labelOf(rb[b.st.col[p]])
			if la != lb {
				if la < lb {
					return -1
				}
				return 1
			}
		}
	}
	return 0
}

// tryDone offers the one child of the determined candidate c.
func (z *SizedCanonicalizer) tryDone(c *sizedCand) {
	n := z.s.N
	z.r = int(c.rows[z.level])
	z.row = z.src[c.st.tr][z.r*n : z.r*n+n]
	z.parentRows = &c.rows
	z.empty = false
	st := c.st
	st.used |= 1 << z.r
	var key key128
	for p := range n {
		key = key.push(st.labelOf(z.row[st.col[p]]))
	}
	z.offer(key, &st)
}

// Automorphisms. Two determined candidates of level 1 with one string
// give an automorphism a of the grid (a applied, then the second, is the
// first). A level-0 candidate c and a-then-c lead to the same strings, so
// of each orbit of level-0 candidates under the automorphisms found only
// one is tried.

// startOrbits makes every level-0 candidate its own orbit.
func (z *SizedCanonicalizer) startOrbits() {
	m := len(z.cur)
	z.uf = z.uf[:0]
	z.proc = z.proc[:0]
	for i := range m {
		z.uf = append(z.uf, int32(i))
		z.proc = append(z.proc, false)
	}
	z.index = nil
}

// find returns the root of i's orbit.
func (z *SizedCanonicalizer) find(i int32) int32 {
	for z.uf[i] != i {
		z.uf[i] = z.uf[z.uf[i]]
		i = z.uf[i]
	}
	return i
}

// union merges the orbits of i and j.
func (z *SizedCanonicalizer) union(i, j int32) {
	a, b := z.find(i), z.find(j)
	if a != b {
		z.uf[b] = a
		z.proc[a] = z.proc[a] || z.proc[b]
	}
}

// orbitDone reports whether level-0 candidate i is in the orbit of one
// already tried.
func (z *SizedCanonicalizer) orbitDone(i int) bool { return z.proc[z.find(int32(i))] }

// level0Key identifies a level-0 candidate: transposition, source row and
// the source stack of each result stack (7 while open).
func level0Key(tr, row uint8, stacks []uint8) uint32 {
	k := uint32(tr) | uint32(row)<<1
	for t, s := range stacks {
		if s == openStack {
			s = 7
		}
		k |= uint32(s) << (6 + 3*t)
	}
	return k
}

// automorphism records the automorphism that the determined candidates
// a and b, of equal strings and descending from different orbits, give.
func (z *SizedCanonicalizer) automorphism(a, b *sizedCand) {
	if z.find(a.anc) == z.find(b.anc) {
		return
	}
	ta, tb := z.complete(a), z.complete(b)
	aut := ta.Then(tb.Inverse())
	if !aut.Apply(z.g).Equal(z.g) {
		return // cannot happen; an automorphism is only an aid
	}
	ns := z.s.Stacks()
	bc := z.s.BoxCols
	if z.index == nil {
		z.index = make(map[uint32]int32, len(z.cur))
		for i := range z.cur {
			c := &z.cur[i]
			z.index[level0Key(c.st.tr, c.rows[0], c.st.stackOf[:ns])] = int32(i)
		}
	}
	var stacks [5]uint8
	for i := range z.cur {
		c := &z.cur[i]
		rows, cols := aut.Rows, aut.Cols
		if c.st.tr == 1 {
			rows, cols = aut.Cols, aut.Rows
		}
		tr := c.st.tr
		if aut.Transpose {
			tr ^= 1
		}
		for t := range ns {
			stacks[t] = openStack
			if s := c.st.stackOf[t]; s != openStack {
				stacks[t] = uint8(cols[int(s)*bc] / bc)
			}
		}
		if j, ok := z.index[level0Key(tr, uint8(rows[c.rows[0]]), stacks[:ns])]; ok {
			z.union(int32(i), j)
		}
	}
}
