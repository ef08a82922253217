package grade

import (
	"math/bits"

	"sudokubank/solve"
)

// Nested forcing chains (SE's levels 2 to 5). At these levels a dynamic
// chain that runs out of implications asks the simple techniques of the
// "(+)" level, and then a whole lower chaining producer, what they
// conclude on the grid as the chain has changed it. Each conclusion
// becomes an "off" node of the chain:
//
//   - level 2 asks the cycles and forcing chains (X, Y, then mixed);
//   - level 3 those, then the static multiple forcing chains;
//   - level 4 the dynamic forcing chains;
//   - level 5 those, then the nested chains of level 2.
//
// The first producer that concludes anything supplies the nodes, as with
// the simple techniques. Only conclusions that rely on something the
// outer chain removed count (the others hold without the chain, so a
// cheaper step would have found them); those removals are the node's
// parents. For each candidate the inner producer would remove, the hint
// SE sorts first is kept: lowest rating, then fewest nodes, then SE's
// sort key.
//
// A nested conclusion also carries its own chain's complexity: SE rates a
// chain by its ancestor count (summed over the branches of a multiple
// chain) plus the complexity of every distinct nested chain among those
// ancestors, over all branches. Each run records which nested hints every
// node descends from (chainRun.nmask); a hint is known by its kind,
// source, target, complexity and parents, so the same inner chain found
// from two branches counts once.
//
// Where this departs from SE: the parents of an inner link are the
// removals in its cell, or in the first house the two candidates share
// where the digit is bilocal; a cycle takes those of all its links.
// Measured against skfr on the h11 group, ER is within 0.2 on 95% of
// the puzzles and mostly 0.1-0.2 higher where it differs.
//
// The inner producers run on every grid an outer chain stalls on, so
// they skip what provably concludes nothing, which the grid the outer
// chains start from tells: it had no forcing chain and no static
// multiple chain, so an inner one must take a strong link the outer
// chain made. The forcing chains of the unary search start only where
// such a link can be reached (chainNestSink.chainStarts), and the static
// multiple chains try only the cells and houses whose branches may share
// a conclusion (chainEngine.staticSkips). Neither changes a conclusion
// (TestChainNestedBounds).

// chainNestHint is one hint of an inner producer: its complexity, how to
// find its chain again (engine hints are re-run for their parents, since
// a run's ancestor sets do not outlive it), and its parents: the
// candidates of the outer grid that the outer chain removed and this
// hint relied on.
type chainNestHint struct {
	cx      int
	kind    uint8
	on      bool // the state of the assumption (double, contradiction) or target
	src     int  // assumed candidate (double, contradiction) or source cell
	u, d    int  // region; for a cycle, u holds its p, to tell cycles apart
	target  int  // candidate concluded on or off; for a cycle, its q
	parDone bool
	par     chainSet
	// canon is the memo index of the first hint with the same chain:
	// SE counts a nested chain once however many times it was found.
	canon int32
}

// Kinds of chainNestHint.
const (
	nestUnary uint8 = iota
	nestCycle
	nestContra
	nestDouble
	nestCell
	nestRegion
)

// chainNestBest is the hint kept for one candidate.
type chainNestBest struct {
	r    Rating
	cx   int
	key  int
	hint int32
}

// chainNestOut is one conclusion of an inner producer: candidate k goes,
// by hint.
type chainNestOut struct {
	k    int16
	hint int32
}

// chainNestSink collects the hints of an inner producer run on cur (the
// outer chain's grid), whose chain started from src.
type chainNestSink struct {
	src, cur *Candidates
	// srcPos, when set, holds the positions of src per unit and digit,
	// and says src has no cycle or forcing chain (the chainer looked
	// before trying nested chains), so the unary search may skip links
	// that src already had.
	srcPos *[27][10]uint16
	// curPos, when set, holds the positions of cur per unit and digit.
	curPos  *[27][10]uint16
	gen     uint32
	bestGen [729]uint32
	best    [729]chainNestBest
	order   []int16 // candidates with a hint, first seen first
	hints   []chainNestHint
	out     []chainNestOut
	// The forcing chain starts of the unary search (see chainStarts)
	// and their scratch; exhaustive turns chainStarts off.
	exhaustive bool
	starts     chainNestStarts
	links      chainNewLinks
}

// chainNewLinks is the scratch of the nested chains' filters: the strong
// links a grid gained (newStrongPairs), their ends, and what each end
// reaches.
type chainNewLinks struct {
	pairs [][2]int16
	idx   [729]int16 // per candidate, 1 + its index in ends, or 0
	ends  []int16
	on    []chainSet // per end, the on nodes its on node reaches
	off   []chainSet // per end, the off nodes its on node reaches
	queue []int16
}

// reset forgets the ends.
func (l *chainNewLinks) reset() {
	for _, k := range l.ends {
		l.idx[k] = 0
	}
	l.ends = l.ends[:0]
}

// end returns the index of candidate k among the ends, adding it if it
// is not one yet (fresh then says so, and the caller fills its sets).
func (l *chainNewLinks) end(k int16) (i int, fresh bool) {
	if i := l.idx[k]; i != 0 {
		return int(i) - 1, false
	}
	i = len(l.ends)
	l.ends = append(l.ends, k)
	l.idx[k] = int16(i + 1)
	if i == len(l.on) {
		l.on = append(l.on, chainSet{})
		l.off = append(l.off, chainSet{})
	}
	return i, true
}

func (s *chainNestSink) reset(src, cur *Candidates) {
	s.src, s.cur = src, cur
	s.gen++
	if s.gen == 0 {
		s.bestGen = [729]uint32{}
		s.gen = 1
	}
	s.order, s.hints, s.out = s.order[:0], s.hints[:0], s.out[:0]
}

// wants reports whether a hint rated r, with cx nodes and sort key key,
// would be kept for some candidate of mask in cell c.
func (s *chainNestSink) wants(c int, mask uint16, r Rating, cx, key int) bool {
	for m := mask; m != 0; m &= m - 1 {
		q := c*9 + bits.TrailingZeros16(m) - 1
		if s.bestGen[q] != s.gen {
			return true
		}
		b := &s.best[q]
		if r != b.r {
			if r < b.r {
				return true
			}
			continue
		}
		if cx != b.cx {
			if cx < b.cx {
				return true
			}
			continue
		}
		if key < b.key {
			return true
		}
	}
	return false
}

// take gives hint hi the candidates of mask in cell c it beats.
func (s *chainNestSink) take(hi int, c int, mask uint16, r Rating, cx, key int) {
	for m := mask; m != 0; m &= m - 1 {
		q := c*9 + bits.TrailingZeros16(m) - 1
		if s.bestGen[q] == s.gen {
			b := &s.best[q]
			if r > b.r || (r == b.r && (cx > b.cx || (cx == b.cx && key >= b.key))) {
				continue
			}
		} else {
			s.bestGen[q] = s.gen
			s.order = append(s.order, int16(q))
		}
		s.best[q] = chainNestBest{r: r, cx: cx, key: key, hint: int32(hi)}
	}
}

// newHint appends a hint and returns its index.
func (s *chainNestSink) newHint(h chainNestHint) int {
	s.hints = append(s.hints, h)
	return len(s.hints) - 1
}

// cellParents adds the candidates of cell c that the outer chain removed.
func (s *chainNestSink) cellParents(c int, par *chainSet) {
	for m := s.src[c] &^ s.cur[c]; m != 0; m &= m - 1 {
		par.add(c*9 + bits.TrailingZeros16(m) - 1)
	}
}

// houseParents adds the places of digit d in unit u that the outer chain
// removed.
func (s *chainNestSink) houseParents(u, d int, par *chainSet) {
	bit := uint16(1) << d
	for _, c := range solve.Units[u] {
		if s.src[c]&bit != 0 && s.cur[c]&bit == 0 {
			par.add(c*9 + d - 1)
		}
	}
}

// linkParents adds the parents of the link between candidates a and b:
// the removals in their cell, or in the first house they share where the
// digit is bilocal in cur (else the first house they share).
func (s *chainNestSink) linkParents(a, b int, par *chainSet) {
	ca, cb := a/9, b/9
	if ca == cb {
		s.cellParents(ca, par)
		return
	}
	d := a%9 + 1
	first := -1
	for _, u := range chainHouses[ca] {
		if chainPos[u][cb] == 9 {
			continue
		}
		if first < 0 {
			first = int(u)
		}
		if bits.OnesCount16(chainUnitPositions(s.cur, int(u), d)) == 2 {
			first = int(u)
			break
		}
	}
	if first >= 0 {
		s.houseParents(first, d, par)
	}
}

func (p *chainSet) empty() bool {
	for _, w := range p {
		if w != 0 {
			return false
		}
	}
	return true
}

// finish computes the parents of the kept hints (re-running engine hints
// on e) and lists the conclusions whose hint has any.
func (s *chainNestSink) finish(e *chainEngine) {
	for _, q := range s.order {
		hi := s.best[q].hint
		h := &s.hints[hi]
		if !h.parDone {
			e.nestParents(h)
		}
		if !h.par.empty() {
			s.out = append(s.out, chainNestOut{k: q, hint: hi})
		}
	}
}

// chainRemoves returns the cell of candidate k and the digits a
// conclusion about k removes from it in cands: k's digit when k is
// concluded off, the cell's other candidates when k is placed.
func chainRemoves(cands *Candidates, k int, placed bool) (int, uint16) {
	c, mask := k/9, uint16(1)<<(k%9+1)
	if placed {
		mask = cands[c] &^ mask
	}
	return c, mask
}

// nestUnaryChain records a forcing chain of the unary search as a hint:
// the chain ends at node p (on unless placed), whose last link reaches
// the start s.
func (s *chainNestSink) nestUnaryChain(st *chainStatic, b *chainBFS, p, sk int, placed bool, nodes int) {
	t := XChain
	if st.y {
		t = AIC
	}
	r := t.BaseRating() + LengthBonus(nodes)
	key := chainSortKey(st)
	c, mask := chainRemoves(s.cur, sk, placed)
	if mask == 0 || !s.wants(c, mask, r, nodes, key) {
		return
	}
	h := chainNestHint{cx: nodes, kind: nestUnary, parDone: true, src: sk, target: p, on: placed}
	if placed {
		s.linkParents(p, sk, &h.par) // the last link turns s on
	}
	s.pathParents(b, p, !placed, &h.par)
	if h.par.empty() {
		return
	}
	hi := s.newHint(h)
	s.take(hi, c, mask, r, nodes, key)
}

// pathParents adds the parents of the strong links on the path of the
// unary search ending at node k (on when on is true).
func (s *chainNestSink) pathParents(b *chainBFS, k int, on bool, par *chainSet) {
	for k >= 0 {
		var pred int
		if on {
			pred = int(b.on[k].parent)
			if pred >= 0 {
				s.linkParents(pred, k, par)
			}
		} else {
			pred = int(b.off[k].parent)
		}
		k, on = pred, !on
	}
}

// pathAllParents adds the parents of every link on the path ending at k:
// a cycle is read both ways, so its weak links are strong in reverse.
func (s *chainNestSink) pathAllParents(b *chainBFS, k int, on bool, par *chainSet) {
	for k >= 0 {
		var pred int
		if on {
			pred = int(b.on[k].parent)
		} else {
			pred = int(b.off[k].parent)
		}
		if pred >= 0 {
			s.linkParents(pred, k, par)
		}
		k, on = pred, !on
	}
}

// nestCycle records a cycle s -> ... -> p (on) -> q (off) -> s of the
// unary search with its eliminations elim.
func (s *chainNestSink) nestCycle(st *chainStatic, b *chainBFS, p, q, sk int, nodes int, elim *[81]uint16, touched chainCells81) {
	t := chainUnaryTech(st.y, st.x, true)
	r := t.BaseRating() + LengthBonus(nodes)
	key := chainSortKey(st)
	want := false
	for w := 0; w < 2 && !want; w++ {
		for m := touched[w]; m != 0; m &= m - 1 {
			c := w*64 + bits.TrailingZeros64(m)
			if elim[c] != 0 && s.wants(c, elim[c], r, nodes, key) {
				want = true
				break
			}
		}
	}
	if !want {
		return
	}
	h := chainNestHint{cx: nodes, kind: nestCycle, parDone: true, src: sk, target: q, u: p}
	s.linkParents(p, q, &h.par)
	s.linkParents(q, sk, &h.par)
	s.pathAllParents(b, p, true, &h.par)
	if h.par.empty() {
		return
	}
	hi := s.newHint(h)
	for w := 0; w < 2; w++ {
		for m := touched[w]; m != 0; m &= m - 1 {
			c := w*64 + bits.TrailingZeros64(m)
			if elim[c] != 0 {
				s.take(hi, c, elim[c], r, nodes, key)
			}
		}
	}
}

// nestOffer records a hint of an engine producer that concludes
// candidate p on (placed) or off.
func (e *chainEngine) nestOffer(r Rating, cx, key int, p int, on bool, h chainNestHint) {
	s := e.sink
	c, mask := chainRemoves(e.orig, p, on)
	if mask == 0 || !s.wants(c, mask, r, cx, key) {
		return
	}
	h.cx, h.target = cx, p
	hi := s.newHint(h)
	s.take(hi, c, mask, r, cx, key)
}

// nestParents finds the parents of an engine hint by running its
// branches again.
func (e *chainEngine) nestParents(h *chainNestHint) {
	s := e.sink
	h.parDone = true
	ro := &e.tmpRun
	e.ancNeeded = true
	defer func() { e.ancNeeded = false }()
	switch h.kind {
	case nestContra:
		e.run(ro, h.src, h.on)
		if ro.contra {
			e.ancParents(&e.contraAnc, &h.par)
		}
	case nestDouble:
		for _, on := range [2]bool{true, false} {
			e.run(ro, h.src, on)
			e.ancParents(&e.anc[2*h.target+b2i(h.on)], &h.par)
		}
	case nestCell:
		c := h.src
		s.cellParents(c, &h.par)
		for m := e.orig[c]; m != 0; m &= m - 1 {
			e.run(ro, c*9+bits.TrailingZeros16(m)-1, true)
			e.ancParents(&e.anc[2*h.target+b2i(h.on)], &h.par)
		}
	case nestRegion:
		s.houseParents(h.u, h.d, &h.par)
		for w := e.opos[h.u][h.d]; w != 0; w &= w - 1 {
			c := solve.Units[h.u][bits.TrailingZeros16(w)]
			e.run(ro, c*9+h.d-1, true)
			e.ancParents(&e.anc[2*h.target+b2i(h.on)], &h.par)
		}
	}
}

// ancParents adds the parents of the on nodes of a, by the cause that
// turned each on.
func (e *chainEngine) ancParents(a *chainBits, par *chainSet) {
	s := e.sink
	for i, w := range a {
		for w &= 0xaaaaaaaaaaaaaaaa; w != 0; w &= w - 1 {
			k := (i*64 + bits.TrailingZeros64(w)) >> 1
			switch cause := e.cause[k]; cause {
			case 0:
			case 1:
				s.cellParents(k/9, par)
			default:
				s.houseParents(int(cause)-2, k%9+1, par)
			}
		}
	}
}

// chainNestStarts holds the candidates from which the unary search may
// find a forcing chain: one that turns them off when assumed on, and one
// that turns them on when assumed off.
type chainNestStarts struct {
	on, off chainSet
}

// chainStarts returns, for the unary search with the links of st on
// s.cur, the candidates a forcing chain may start from, or nil when it
// cannot tell (every start is then searched).
//
// It can tell when s.src is known to have no forcing chain (srcPos is
// set: the chainer's unary search, which tries every start with no
// length bound until it finds a hint, found none there): a forcing chain of s.cur whose strong links were all strong in
// s.src would be one of s.src too, since s.cur's weak links are all weak
// in s.src; so it takes a strong link the outer chain made, from a to b,
// say. A chain from s on to s off then reaches a off and, from b on, s
// off; links read backwards (on and off swapped) are links too, so a on
// and b on both reach s off. Likewise a chain from s off to s on needs a
// on and b on both to reach s on (or to be s). One search from the on
// node of each end of a new strong link finds all these starts.
func (s *chainNestSink) chainStarts(st *chainStatic) *chainNestStarts {
	if s == nil || s.srcPos == nil || s.exhaustive || !st.x {
		return nil
	}
	// A pair also strong in src by another house only widens the starts.
	l := &s.links
	l.pairs = newStrongPairs(l.pairs[:0], s.cur, s.src, s.curPos, s.srcPos, st.y)
	l.reset()
	st0 := &s.starts
	*st0 = chainNestStarts{}
	for _, pr := range l.pairs {
		var ix [2]int
		for j, k := range pr {
			i, fresh := l.end(k)
			if fresh {
				s.reach(st, int(k), &l.on[i], &l.off[i])
			}
			ix[j] = i
		}
		a, b := ix[0], ix[1]
		for w := range st0.on {
			st0.on[w] |= l.off[a][w] & l.off[b][w]
			st0.off[w] |= l.on[a][w] & l.on[b][w]
		}
	}
	return st0
}

// newStrongPairs appends to dst the strong links of cur that src did not
// have, as pairs of candidates: the two places of a digit in a house
// that had more in src, and (with cells) the two candidates of a cell
// that had more. curPos and srcPos hold the positions of cur and src.
func newStrongPairs(dst [][2]int16, cur, src *Candidates, curPos, srcPos *[27][10]uint16, cells bool) [][2]int16 {
	for u := 0; u < 27; u++ {
		for d := 1; d <= 9; d++ {
			pm := curPos[u][d]
			if bits.OnesCount16(pm) != 2 || bits.OnesCount16(srcPos[u][d]) <= 2 {
				continue
			}
			a := solve.Units[u][bits.TrailingZeros16(pm)]
			b := solve.Units[u][15-bits.LeadingZeros16(pm)]
			dst = append(dst, [2]int16{int16(a*9 + d - 1), int16(b*9 + d - 1)})
		}
	}
	if !cells {
		return dst
	}
	for c := 0; c < 81; c++ {
		cm := cur[c]
		if bits.OnesCount16(cm) != 2 || bits.OnesCount16(src[c]) <= 2 {
			continue
		}
		dst = append(dst, [2]int16{int16(c*9 + bits.TrailingZeros16(cm) - 1), int16(c*9 + 15 - bits.LeadingZeros16(cm) - 1)})
	}
	return dst
}

// reach finds the on and off nodes that candidate a assumed on reaches
// with the links of st (a itself among the on nodes). The off nodes
// include those without a strong link, which st's weak lists leave out:
// they end a chain, but a chain may start there (reversed) or end there.
func (s *chainNestSink) reach(st *chainStatic, a int, on, off *chainSet) {
	*on, *off = chainSet{}, chainSet{}
	on.add(a)
	q := append(s.links.queue[:0], int16(2*a+1))
	var buf [28]int16
	for i := 0; i < len(q); i++ {
		n := int(q[i])
		k := n >> 1
		if n&1 == 1 {
			for _, o16 := range st.fill(k, true, buf[:]) {
				if o := int(o16); !off.has(o) {
					off.add(o)
					if st.strongN[o] > 0 {
						q = append(q, int16(2*o))
					}
				}
			}
			continue
		}
		for _, o16 := range st.strong[k][:st.strongN[k]] {
			if o := int(o16); !on.has(o) {
				on.add(o)
				q = append(q, int16(2*o+1))
			}
		}
	}
	s.links.queue = q
}

// chainStaticRuns keeps what the static runs of a grid reach, for the
// static multiple chains of the nested chains started from that grid.
type chainStaticRuns struct {
	grid Candidates
	// ok[k] says the run of candidate k assumed on was made and met no
	// contradiction: on[k] and off[k] are then all it reaches.
	ok      [729]bool
	on, off [729]chainSet
	// Scratch of staticSkips.
	skip  chainGroupSkip
	links chainNewLinks
	// Per end, what its partners' on nodes reach; per candidate, the
	// ends whose on node reaches its off node.
	xOn, xOff [64]chainSet
	endMask   [729]uint64
	// Per candidate with ends, its bound: what its run reached on grid
	// plus what those ends' partners reach; valid when sGen is gen.
	sOn, sOff [729]chainSet
	sGen      [729]uint32
	gen       uint32
}

// chainGroupSkip says which cells and houses (by digit) a multiple chain
// producer need not try: they conclude nothing.
type chainGroupSkip struct {
	cell   [81]bool
	region [27][10]bool
}

// keepStaticRuns keeps the runs of the static multiple chains just made
// on e.orig when they found nothing.
func (e *chainEngine) keepStaticRuns(h *chainHints) {
	if h == nil || h.found() {
		return
	}
	if e.static == nil {
		e.static = new(chainStaticRuns)
	}
	t := e.static
	t.grid = *e.orig
	for k := range t.ok {
		r := &e.onRuns[k]
		t.ok[k] = e.onGen[k] == e.gen && !r.contra
		if t.ok[k] {
			t.on[k], t.off[k] = r.on, r.off
		}
	}
}

// staticSkips returns the cells and houses the static multiple chains
// need not try on the working grid, or nil when it cannot tell.
//
// The static runs of e.orig found no multiple chain, and each run that
// met no contradiction reached all it could. A run on the working grid
// goes along links of e.orig (the working grid's weak links are weak
// there too) until it takes a strong link the outer chain made, from a
// to b, say; what it reaches after that, b on reaches. And a run from k
// reaches a off only when a on reaches k off (links read backwards are
// links). So what a run from k reaches lies within what it reached on
// e.orig plus what b on reaches for each new link whose a on reaches k
// off; a cell or house whose branches' bounds share no candidate that
// could be concluded concludes nothing.
func (e *chainEngine) staticSkips() *chainGroupSkip {
	t := e.static
	if t == nil || e.exhaustive || t.grid != *e.orig {
		return nil
	}
	cur, pos := &e.work, &e.pos
	l := &t.links
	l.pairs = newStrongPairs(l.pairs[:0], cur, e.orig, pos, &e.opos, true)
	l.reset()
	for _, pr := range l.pairs {
		for _, k := range pr {
			if l.idx[k] == 0 && len(l.ends) == 64 {
				return nil // more than endMask holds
			}
			if i, fresh := l.end(k); fresh {
				e.reachWork(t, int(k), &l.on[i], &l.off[i])
			}
		}
	}
	// What each end's partners reach: a run that reaches an end off may
	// go on from its partner on.
	for i := range l.ends {
		t.xOn[i], t.xOff[i] = chainSet{}, chainSet{}
	}
	for _, pr := range l.pairs {
		a, b := l.idx[pr[0]]-1, l.idx[pr[1]]-1
		for w := range t.xOn[a] {
			t.xOn[a][w] |= l.on[b][w]
			t.xOff[a][w] |= l.off[b][w]
			t.xOn[b][w] |= l.on[a][w]
			t.xOff[b][w] |= l.off[a][w]
		}
	}
	// The candidates a conclusion could be about: off ones of the grid,
	// on ones in a cell with another; and per candidate, the ends whose
	// on node reaches its off node.
	var offUse, onUse chainSet
	for c := 0; c < 81; c++ {
		cm := cur[c]
		for m := cm; m != 0; m &= m - 1 {
			k := c*9 + bits.TrailingZeros16(m) - 1
			offUse.add(k)
			if cm&(cm-1) != 0 {
				onUse.add(k)
			}
			t.endMask[k] = 0
		}
	}
	for i := range l.ends {
		for w, x := range l.off[i] {
			for ; x != 0; x &= x - 1 {
				t.endMask[w*64+bits.TrailingZeros64(x)] |= 1 << i
			}
		}
	}
	t.gen++
	if t.gen == 0 {
		t.sGen = [729]uint32{}
		t.gen = 1
	}
	// concludes reports whether the runs from the candidates ks may share
	// a conclusion.
	concludes := func(ks []int) bool {
		on, off := onUse, offUse
		for _, k := range ks {
			if !t.ok[k] {
				return true
			}
			bOn, bOff := &t.on[k], &t.off[k]
			if t.endMask[k] != 0 {
				if t.sGen[k] != t.gen {
					t.sGen[k] = t.gen
					t.sOn[k], t.sOff[k] = *bOn, *bOff
					for m := t.endMask[k]; m != 0; m &= m - 1 {
						i := bits.TrailingZeros64(m)
						for w := range t.sOn[k] {
							t.sOn[k][w] |= t.xOn[i][w]
							t.sOff[k][w] |= t.xOff[i][w]
						}
					}
				}
				bOn, bOff = &t.sOn[k], &t.sOff[k]
			}
			any := uint64(0)
			for w := range on {
				on[w] &= bOn[w]
				off[w] &= bOff[w]
				any |= on[w] | off[w]
			}
			if any == 0 {
				return false
			}
		}
		return true
	}
	sk := &t.skip
	var ks [9]int
	for c := 0; c < 81; c++ {
		n := 0
		for m := cur[c]; m != 0; m &= m - 1 {
			ks[n] = c*9 + bits.TrailingZeros16(m) - 1
			n++
		}
		sk.cell[c] = n > 2 && !concludes(ks[:n])
	}
	for u := 0; u < 27; u++ {
		for d := 1; d <= 9; d++ {
			n := 0
			for w := pos[u][d]; w != 0; w &= w - 1 {
				ks[n] = solve.Units[u][bits.TrailingZeros16(w)]*9 + d - 1
				n++
			}
			sk.region[u][d] = n >= 2 && !concludes(ks[:n])
		}
	}
	return sk
}

// reachWork finds the on and off nodes that candidate a assumed on
// reaches on the working grid with the links of a static run (a itself
// among the on nodes).
func (e *chainEngine) reachWork(t *chainStaticRuns, a int, on, off *chainSet) {
	*on, *off = chainSet{}, chainSet{}
	on.add(a)
	q := append(t.links.queue[:0], int16(2*a+1))
	for i := 0; i < len(q); i++ {
		n := int(q[i])
		k := n >> 1
		c, d := k/9, k%9+1
		if n&1 == 1 {
			for m := e.work[c] &^ (1 << d); m != 0; m &= m - 1 {
				if o := c*9 + bits.TrailingZeros16(m) - 1; !off.has(o) {
					off.add(o)
					q = append(q, int16(2*o))
				}
			}
			for _, u := range chainHouses[c] {
				for m := e.pos[u][d]; m != 0; m &= m - 1 {
					oc := solve.Units[u][bits.TrailingZeros16(m)]
					if o := oc*9 + d - 1; oc != c && !off.has(o) {
						off.add(o)
						q = append(q, int16(2*o))
					}
				}
			}
			continue
		}
		if cm := e.work[c]; bits.OnesCount16(cm) == 2 {
			if o := c*9 + bits.TrailingZeros16(cm&^(1<<d)) - 1; !on.has(o) {
				on.add(o)
				q = append(q, int16(2*o+1))
			}
		}
		for _, u := range chainHouses[c] {
			pm := e.pos[u][d]
			if bits.OnesCount16(pm) != 2 {
				continue
			}
			oc := solve.Units[u][bits.TrailingZeros16(pm&^(1<<chainPos[u][c]))]
			if o := oc*9 + d - 1; !on.has(o) {
				on.add(o)
				q = append(q, int16(2*o+1))
			}
		}
	}
	t.links.queue = q
}

// chainNestMemo remembers the conclusions of the inner producers per
// grid while the grid the chains start from stays the same (one call of
// chainer.next, or of an inner producer): different assumptions often
// lead to the same grid (a bivalue cell's two candidates on and off,
// say), and level 3 asks first what level 2 asked.
type chainNestMemo struct {
	index map[uint64]int32
	canon map[uint64]int32 // hint key -> index of the first such hint
	grids []Candidates
	spans [][4][2]int32 // per grid and inner producer, the conclusions in outs
	done  [][4]bool     // per grid and inner producer, whether it ran
	outs  []chainNestOut
	hints []chainNestHint
	remap []int32 // per sink hint, its index in hints during one call, or -1
	// lastLevel and lastOrig describe the last producer call on the
	// engine since reset: level 3 takes level 2's runs over only when the
	// call before it was level 2 on the same grid (chainEngine.reuseGen).
	lastLevel int
	lastOrig  *Candidates
}

func (m *chainNestMemo) reset() {
	if m.index == nil {
		m.index = make(map[uint64]int32)
		m.canon = make(map[uint64]int32)
	}
	clear(m.index)
	clear(m.canon)
	m.grids, m.spans, m.done = m.grids[:0], m.spans[:0], m.done[:0]
	m.outs, m.hints = m.outs[:0], m.hints[:0]
	// The runs of a level 2 call index the entries just dropped
	// (chainRun.endGrid): level 3 must not take them over after a reset.
	m.lastLevel, m.lastOrig = 0, nil
}

// chainNestMemoMax bounds the grids one producer call remembers.
const chainNestMemoMax = 1 << 14

// lookup returns the memo entry of grid g (hashed to key), or -1.
func (m *chainNestMemo) lookup(g *Candidates, key uint64) int {
	if i, ok := m.index[key]; ok && m.grids[i] == *g {
		return int(i)
	}
	return -1
}

// advanceNested adds to r the conclusions of the inner producers of the
// current level on the grid as the chain left it. ent is the grid's memo
// entry, or -1 when it has none yet; key is chainHash of the grid. It
// reports whether it added nodes to propagate; when not, the run ends
// there, and r.endGrid records the grid's entry.
func (e *chainEngine) advanceNested(r *chainRun, ent int, key uint64) bool {
	m := &e.memo
	if ent < 0 && len(m.grids) < chainNestMemoMax {
		ent = len(m.grids)
		m.index[key] = int32(ent)
		m.grids = append(m.grids, e.work)
		m.spans = append(m.spans, [4][2]int32{})
		m.done = append(m.done, [4]bool{})
	}
	var outs []chainNestOut
	steps, n := e.innerSteps()
	for _, step := range steps[:n] {
		if ent >= 0 {
			outs = e.stepOuts(ent, step)
		} else {
			outs = m.outs[m.store(e.innerStep(step)):]
		}
		if len(outs) > 0 {
			break
		}
	}
	if len(outs) == 0 {
		r.endGrid = int32(ent)
		return false
	}
	// One id per distinct inner hint in this run: the tables cover every
	// hint the memo holds, which the loop below does not change.
	for len(e.gidRun) < len(m.hints) {
		e.gidRun = append(e.gidRun, 0)
		e.gidGen = append(e.gidGen, 0)
	}
	added := false
	for _, o := range outs {
		k := int(o.k)
		if r.off.has(k) {
			continue
		}
		h := &m.hints[o.hint]
		g := h.canon
		id := int(e.gidRun[g])
		if e.gidGen[g] != e.runGen {
			e.gidGen[g] = e.runGen
			id = len(e.nestGID)
			e.gidRun[g] = int32(id)
			e.nestGID = append(e.nestGID, g)
			e.nestCx = append(e.nestCx, h.cx)
		}
		n := 2 * k
		a := &e.anc[n]
		*a = chainBits{}
		for i, w := range h.par {
			for ; w != 0; w &= w - 1 {
				a.or(&e.anc[2*(i*64+bits.TrailingZeros64(w))])
			}
		}
		a.add(n)
		e.nestID[n] = int32(id)
		e.nestNodes.add(n)
		r.cnt[n] = chainCount16(a.count())
		r.off.add(k)
		e.qOff = append(e.qOff, int16(k))
		added = true
	}
	return added
}

// stepOuts returns the conclusions of inner producer step on the grid of
// memo entry ent, running it on that grid (as the working grid) unless
// the memo has them.
func (e *chainEngine) stepOuts(ent int, step uint8) []chainNestOut {
	m := &e.memo
	if !m.done[ent][step] {
		if e.work != m.grids[ent] {
			e.work = m.grids[ent]
			chainUnitPositionsAll(&e.work, &e.pos)
		}
		start := m.store(e.innerStep(step))
		m.done[ent][step] = true
		m.spans[ent][step] = [2]int32{start, int32(len(m.outs))}
	}
	sp := m.spans[ent][step]
	return m.outs[sp[0]:sp[1]]
}

// sameAtLevel3 reports whether run r, made at level 2 on the grid level 3
// is now on, is what level 3 would make. Level 3 asks the producers of
// level 2 first and the static multiple chains only where they conclude
// nothing, which at level 2 ended the run: so the run is the same unless
// it ended so and the static multiple chains conclude something new
// there.
//
// stepOuts may leave e.work and e.pos on the run's end grid: this is
// called from onRun before the run it saves, and every dynamic run starts
// by copying e.orig into e.work, as level 3's runs are.
func (e *chainEngine) sameAtLevel3(r *chainRun) bool {
	switch {
	case r.endGrid == -2:
		return true
	case r.endGrid < 0:
		return false
	}
	for _, o := range e.stepOuts(int(r.endGrid), 1) {
		if !r.off.has(int(o.k)) {
			return false
		}
	}
	return true
}

// innerSteps returns the inner producers of the current level, in the
// order they are tried: 0 cycles and forcing chains, 1 static multiple
// forcing chains, 2 dynamic forcing chains, 3 nested level 2.
func (e *chainEngine) innerSteps() ([2]uint8, int) {
	switch e.mode.level {
	case 2:
		return [2]uint8{0}, 1
	case 3:
		return [2]uint8{0, 1}, 2
	case 4:
		return [2]uint8{2}, 1
	}
	return [2]uint8{2, 3}, 2
}

// innerStep runs inner producer step on the working grid and returns the
// sink holding its conclusions.
func (e *chainEngine) innerStep(step uint8) *chainNestSink {
	s := &e.nsink
	if e.inner == nil {
		e.inner = new(chainEngine)
		e.innerUnary = new(chainUnaryScratch)
	}
	s.reset(e.orig, &e.work)
	switch step {
	case 0:
		var h chainHints
		h.nest = s
		s.srcPos = nil
		s.exhaustive = e.exhaustive
		if e.sink == nil {
			s.srcPos = &e.opos
		}
		s.curPos = &e.pos
		chainUnary(&h, e.innerUnary, &e.work, nil, 0)
		s.finish(nil)
	case 1:
		e.inner.skip = e.staticSkips()
		e.inner.nested(s, &e.work, &e.pos, chainMode{multiple: true, tech: MultipleForcingChains})
		e.inner.skip = nil
	case 2:
		e.inner.nested(s, &e.work, &e.pos, chainMode{multiple: true, dynamic: true, tech: DynamicForcingChains})
	case 3:
		e.inner.nested(s, &e.work, &e.pos, chainMode{multiple: true, dynamic: true, level: 2, tech: NestedForcingChains2})
	}
	return s
}

// key hashes what identifies a hint's chain: its kind, source, target,
// complexity and parents.
func (h *chainNestHint) key() uint64 {
	x := uint64(h.kind) | uint64(b2i(h.on))<<8 | uint64(h.src)<<9 | uint64(h.u)<<20 |
		uint64(h.d)<<28 | uint64(h.target)<<32 | uint64(h.cx)<<44
	k := (x ^ 0x9e3779b97f4a7c15) * 0xff51afd7ed558ccd
	for _, w := range h.par {
		k = (k ^ w) * 0xc4ceb9fe1a85ec53
		k ^= k >> 31
	}
	return k
}

// store copies the conclusions of s into the memo, keeping only the hints
// used, and returns where they start in m.outs. A hint's index in m.hints
// names it for the whole memo's life.
func (m *chainNestMemo) store(s *chainNestSink) int32 {
	start := int32(len(m.outs))
	for len(m.remap) < len(s.hints) {
		m.remap = append(m.remap, -1)
	}
	for _, o := range s.out {
		j := m.remap[o.hint]
		if j < 0 {
			h := s.hints[o.hint]
			j = int32(len(m.hints))
			key := h.key()
			if c, ok := m.canon[key]; ok {
				h.canon = c
			} else {
				h.canon = j
				m.canon[key] = j
			}
			m.hints = append(m.hints, h)
			m.remap[o.hint] = j
		}
		m.outs = append(m.outs, chainNestOut{k: o.k, hint: j})
	}
	for _, o := range s.out {
		m.remap[o.hint] = -1
	}
	return start
}

// nested runs producer m on cands as an inner producer, recording its
// hints in s.
func (e *chainEngine) nested(s *chainNestSink, cands *Candidates, pos *[27][10]uint16, m chainMode) {
	e.sink = s
	e.posGiven = pos
	defer func() { e.posGiven = nil }()
	e.multipleChains(nil, cands, m)
	s.finish(e)
	e.sink = nil
}

// finishNested records, after a run, which nested hints each node of r
// descends from, and adds to a contradiction the complexity of the
// nested chains behind it.
func (e *chainEngine) finishNested(r *chainRun) {
	r.nmask = nil
	if len(e.nestGID) == 0 {
		return
	}
	if r.nbuf == nil {
		r.nbuf = new([1458]uint64)
	}
	r.nmask = r.nbuf
	r.nID = append(r.nID[:0], e.nestGID...)
	r.nCx = append(r.nCx[:0], e.nestCx...)
	maskOf := func(a *chainBits) uint64 {
		var m uint64
		for i := range a {
			for w := a[i] & e.nestNodes[i]; w != 0; w &= w - 1 {
				m |= 1 << min(e.nestID[i*64+bits.TrailingZeros64(w)], 63)
			}
		}
		return m
	}
	for i := range r.on {
		for w := r.on[i]; w != 0; w &= w - 1 {
			n := 2*(i*64+bits.TrailingZeros64(w)) + 1
			r.nmask[n] = maskOf(&e.anc[n])
		}
		for w := r.off[i]; w != 0; w &= w - 1 {
			n := 2 * (i*64 + bits.TrailingZeros64(w))
			r.nmask[n] = maskOf(&e.anc[n])
		}
	}
	if r.contra {
		e.markGen++
		r.contraSum += e.maskSum(r, maskOf(&e.contraAnc))
	}
}

// maskSum adds up the complexity of the nested hints of run r in mask m
// not yet marked with markGen, and marks them.
func (e *chainEngine) maskSum(r *chainRun, m uint64) int {
	n := 0
	if len(e.memo.hints) > len(e.nestMark) {
		e.nestMark = append(e.nestMark, make([]uint32, len(e.memo.hints)-len(e.nestMark))...)
	}
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		hi := i + 1
		if i == 63 {
			hi = len(r.nID)
		}
		for j := i; j < hi; j++ {
			g := r.nID[j]
			if e.nestMark[g] != e.markGen {
				e.nestMark[g] = e.markGen
				n += r.nCx[j]
			}
		}
	}
	return n
}

// nestSum returns the complexity of the distinct nested chains behind
// node n over the given runs (the branches of one hint).
func (e *chainEngine) nestSum(n int, runs ...*chainRun) int {
	sum := 0
	marked := false
	for _, r := range runs {
		if r.nmask == nil || r.nmask[n] == 0 {
			continue
		}
		if !marked {
			e.markGen++
			marked = true
		}
		sum += e.maskSum(r, r.nmask[n])
	}
	return sum
}

// cellNestSum is nestSum over the runs of the candidates cm of cell c.
func (e *chainEngine) cellNestSum(cm uint16, c, n int) int {
	var runs [9]*chainRun
	k := 0
	for m := cm; m != 0; m &= m - 1 {
		runs[k] = &e.onRuns[c*9+bits.TrailingZeros16(m)-1]
		k++
	}
	return e.nestSum(n, runs[:k]...)
}

// chainCount16 clamps a node count to the int16 of chainRun.cnt.
func chainCount16(n int) int16 {
	if n > 1<<15-1 {
		return 1<<15 - 1
	}
	return int16(n)
}

// chainHash hashes a grid's candidates (a multiply-xorshift mix of four
// cells at a time); equal hashes are checked against the grid itself.
func chainHash(c *Candidates) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < 81; i += 4 {
		var w uint64
		for j := i; j < i+4 && j < 81; j++ {
			w = w<<16 | uint64(c[j])
		}
		h = (h ^ w) * 0xff51afd7ed558ccd
		h ^= h >> 29
	}
	return h
}
