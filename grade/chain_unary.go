package grade

import (
	"math/bits"

	"sudokubank/solve"
)

// Cycles and forcing chains on one candidate (SE's "Forcing Chains &
// Cycles" producer): bidirectional X-cycles, Y-cycles and mixed cycles,
// and forcing X-chains and mixed forcing chains. The implications are
// static: the grid does not change while a chain grows.
//
// A candidate k = 9*cell + digit-1. Links, as SE uses them:
//   - on -> off ("weak"): the other candidates of the cell (only when
//     Y-links are enabled), then the same digit in the peers, box first;
//   - off -> on ("strong"): the other candidate of a bivalue cell (Y), the
//     other position of the digit in a box, row or column that has two
//     (X).
//
// SE searches from each candidate in reading order, breadth first, and
// records for each node the first parent that reached it, so a node's
// ancestor count is its depth. A cycle closes when an "off" node links
// back to the start; a forcing chain when the start's opposite is reached.

// chainStatic holds the links of one grid for one link mode: the strong
// links, and the weak links that can lead on. A search only goes on from
// an "off" node through a strong link, so a weak link to a candidate
// with none ends there; the lists leave those out (the caller tests
// whether a node reaches the start, which is the one such end that
// matters), which in most grids leaves well under half of the links.
type chainStatic struct {
	cands   *Candidates
	y, x    bool
	pos     *[27][10]uint16 // the positions of cands
	strongN [729]uint8
	// strong[k][:strongN[k]] are the strong partners of candidate k; the
	// rest of the four is chainNoNode, so that a search may visit all
	// four without testing strongN.
	strong [729][4]int16
	// sp[u][d] holds the positions in unit u of the candidates of digit
	// d with a strong link; scell[c] the digits of cell c with one.
	sp    [27][10]uint16
	scell [81]uint16
	// dcells[d] holds the cells that have d as a candidate, for the
	// eliminations of a cycle.
	dcells [10]chainCells81
	// The weak links of candidate k that lead on are
	// l[start[k]:start[k]+n[k]]: for each candidate the others of its
	// cell (with Y-links), then its digit in the peers, box first, as SE
	// lists them, keeping those with a strong link. Packed one list after
	// the other, a grid's lists take the few KB they need.
	n     [729]uint8
	start [729]uint16
	l     [729 * 28]int16
}

// chainUnitPositionsAll fills pos with the positions of every digit in
// every unit of cands.
func chainUnitPositionsAll(cands *Candidates, pos *[27][10]uint16) {
	*pos = [27][10]uint16{}
	for u := 0; u < 27; u++ {
		for i, c := range solve.Units[u] {
			for m := cands[c]; m != 0; m &= m - 1 {
				pos[u][bits.TrailingZeros16(m)] |= 1 << i
			}
		}
	}
}

// build fills the links of the candidates of digits; pos holds the
// positions of cands. With all set, the weak lists keep every link, and
// every candidate has one. The tables of other digits are left stale:
// only a search that stays in digits (one with X-links only) may leave
// any out.
func (s *chainStatic) build(cands *Candidates, pos *[27][10]uint16, y, x, all bool, digits uint16) {
	s.cands, s.pos, s.y, s.x = cands, pos, y, x
	s.sp = [27][10]uint16{}
	s.dcells = [10]chainCells81{}
	for c := 0; c < 81; c++ {
		cm := cands[c]
		for m := cm; m != 0; m &= m - 1 {
			s.dcells[bits.TrailingZeros16(m)].add(c)
		}
		var sc uint16
		for m := cm & digits; m != 0; m &= m - 1 {
			d := bits.TrailingZeros16(m)
			k := c*9 + d - 1
			n := 0
			// The partners, then chainNoNode up to four, stored at once.
			strong := [4]int16{chainNoNode, chainNoNode, chainNoNode, chainNoNode}
			if y && bits.OnesCount16(cm) == 2 {
				o := bits.TrailingZeros16(cm &^ (1 << d))
				strong[n] = int16(c*9 + o - 1)
				n++
			}
			if x {
				for _, u := range chainHouses[c] {
					pm := pos[u][d]
					if bits.OnesCount16(pm) != 2 {
						continue
					}
					pm &^= 1 << chainPos[u][c]
					o := int16(solve.Units[u][bits.TrailingZeros16(pm)]*9 + d - 1)
					if o != strong[0] && o != strong[1] && o != strong[2] {
						strong[n&3] = o
						n++
					}
				}
			}
			s.strongN[k] = uint8(n)
			s.strong[k] = strong
			if n > 0 {
				sc |= 1 << d
				for _, u := range chainHouses[c] {
					s.sp[u][d] |= 1 << chainPos[u][c]
				}
			}
		}
		s.scell[c] = sc
	}
	// Apart from the start of a search (fill serves it), only the
	// candidates with a strong link are ever on: the others need no
	// list, unless all links are kept.
	n := 0
	for c := 0; c < 81; c++ {
		lead := cands[c] & digits
		if !all {
			lead = s.scell[c]
		}
		for m := lead; m != 0; m &= m - 1 {
			k := c*9 + bits.TrailingZeros16(m) - 1
			s.start[k] = uint16(n)
			s.n[k] = uint8(len(s.fill(k, all, s.l[n:n+28])))
			n += int(s.n[k])
		}
	}
}

// fill writes into buf the weak links of candidate k, only those that
// lead on unless all is set, and returns them.
func (s *chainStatic) fill(k int, all bool, buf []int16) []int16 {
	c, d := k/9, k%9+1
	n := 0
	if s.y {
		cm := s.cands[c]
		if !all {
			cm = s.scell[c]
		}
		for m := cm &^ (1 << d); m != 0; m &= m - 1 {
			buf[n] = int16(c*9 + bits.TrailingZeros16(m) - 1)
			n++
		}
	}
	for i, u := range chainHouses[c] {
		pm := s.sp[u][d]
		if all {
			pm = s.pos[u][d]
		}
		for m := pm & chainPeerPos[c][i]; m != 0; m &= m - 1 {
			buf[n] = chainUnitCand[u][bits.TrailingZeros16(m)] + int16(d)
			n++
		}
	}
	return buf[:n]
}

// weak returns the candidates with a strong link (or all, if the lists
// keep all) turned off when k is on: the other candidates of its cell
// (with Y-links), then its digit in the peers. Without all, k must have a
// strong link.
func (s *chainStatic) weak(k int) []int16 {
	i := int(s.start[k])
	return s.l[i : i+int(s.n[k])]
}

// sees reports whether candidate p on turns candidate s off.
func (s *chainStatic) sees(p, k int) bool {
	cp, ck := p/9, k/9
	if cp == ck {
		return s.y && p != k
	}
	return p%9 == k%9 && chainPeerSet[cp].has(ck)
}

// chainBFS is the scratch of one breadth-first search of chainUnary.
// The search goes level by level, on nodes then off nodes, so every node
// of a queue has the same depth: the level's.
type chainBFS struct {
	gen uint32
	// The nodes by candidate, and chainNoNode, which is always visited.
	// The arrays are a power of two long, so that add's masked indices
	// need no bounds check.
	on, off [chainBFSLen]chainBFSNode
	// The queues of the current level, as storage: a search keeps their
	// lengths in locals. A queue holds each node once, and add writes one
	// place past its end.
	qOn, qOff [chainBFSLen]int16
}

const chainBFSLen = 1024 // past chainNoNode

// chainNoNode pads the strong lists: a node past every candidate that
// every search has already visited.
const chainNoNode = 729

// chainBFSNode is what one search knows of a node: it is visited when gen
// is the search's generation.
type chainBFSNode struct {
	gen uint32
	// parent is, for an on node, the off candidate that turned it on;
	// for an off node, the on candidate that turned it off; -1 at the
	// start.
	parent int16
}

// next starts a new search: every node becomes unvisited, but
// chainNoNode.
func (b *chainBFS) next() {
	b.gen++
	if b.gen == 0 {
		b.on = [chainBFSLen]chainBFSNode{}
		b.off = [chainBFSLen]chainBFSNode{}
		b.gen = 1
	}
	b.on[chainNoNode].gen = b.gen
}

// add visits a node without a branch, for the inner loops, where whether
// a node is new is a coin toss to the branch predictor: node k of nodes,
// met from parent, is marked visited and, the first time, appended to
// q at n. It returns the new length of q.
func (b *chainBFS) add(nodes *[chainBFSLen]chainBFSNode, k, parent int, q *[chainBFSLen]int16, n int) int {
	nd := &nodes[k&(chainBFSLen-1)]
	fresh := nd.gen != b.gen
	par := nd.parent
	if fresh {
		par = int16(parent)
	}
	*nd = chainBFSNode{gen: b.gen, parent: par}
	q[n&(chainBFSLen-1)] = int16(k)
	if fresh {
		n++
	}
	return n
}

// chainUnaryScratch is the scratch of chainUnary.
type chainUnaryScratch struct {
	pos      [27][10]uint16
	st       [3]chainStatic
	bfs      chainBFS
	reach    chainReach
	searches []chainSearch
	// exact turns the pre-pass off, for tests that compare with it.
	exact bool
}

// chainUnary runs SE's cycle and forcing chain search: X-links only, then
// Y-links only, then both. SE applies the lowest rated of all these
// hints; once a hint is known, longer chains are not followed. The
// X-links search skips the digits in xSkip, known to give it nothing
// (see chainer.xNone); xNone reports that it found nothing. where, when
// not nil, holds the positions of cands per unit and digit.
func chainUnary(h *chainHints, sc *chainUnaryScratch, cands *Candidates, where *[27][10]uint16, xSkip uint16) (xNone bool) {
	modes := [3][2]bool{{false, true}, {true, false}, {true, true}}
	// As a nested chain's inner producer on a grid the chain has reduced
	// from one with no cycle or forcing chain at all, a chain must use a
	// strong link the reduction made (else the grid it started from had
	// it): the X-links of a digit with a house down to two places, or
	// the Y-link of a cell turned bivalue. Search only where there are
	// some.
	digits := uint16(allDigits)
	yNew := true
	pos := &sc.pos
	if h.nest != nil && h.nest.curPos != nil {
		pos = h.nest.curPos
	} else if where != nil {
		pos = where
	} else {
		chainUnitPositionsAll(cands, pos)
	}
	if n := h.nest; n != nil && n.srcPos != nil {
		digits, yNew = chainNewStrong(n.src, n.srcPos, cands, pos)
		if digits == 0 && !yNew {
			return false // no mode below would search
		}
	}
	for i, mode := range modes {
		y, x := mode[0], mode[1]
		// With X-links only, chainUnaryMode starts only from md, and a
		// search stays in the digit it starts from.
		dm, md := uint16(allDigits), digits
		if !y {
			md &^= xSkip
			dm = md
			xNone = !h.any // X-links come first: nothing is found yet
		}
		if !x && !yNew || !y && md == 0 || digits == 0 && !yNew {
			continue
		}
		if y && x && h.any && h.best < AIC.BaseRating() {
			break // no mixed chain or cycle rates as low
		}
		st := &sc.st[i]
		st.build(cands, pos, y, x, false, dm)
		chainUnaryMode(h, sc, st, md)
		if !y {
			xNone = !h.any
		}
	}
	return xNone
}

// chainNewStrong returns the digits with a house that has two places in
// cur but more in src, and whether a cell is bivalue in cur but not in
// src.
func chainNewStrong(src *Candidates, srcPos *[27][10]uint16, cur *Candidates, curPos *[27][10]uint16) (uint16, bool) {
	var digits uint16
	for u := 0; u < 27; u++ {
		for d := 1; d <= 9; d++ {
			if bits.OnesCount16(curPos[u][d]) == 2 && bits.OnesCount16(srcPos[u][d]) > 2 {
				digits |= 1 << d
			}
		}
	}
	y := false
	for c := 0; c < 81; c++ {
		if bits.OnesCount16(cur[c]) == 2 && bits.OnesCount16(src[c]) > 2 {
			y = true
			break
		}
	}
	return digits, y
}

// chainUnaryMode searches from every candidate with the links of st; with
// X-links only, only from the digits given. A pre-pass (chainReach) runs
// the searches 64 at a time first, so that each exact search runs only as
// far as it can record something.
func chainUnaryMode(h *chainHints, sc *chainUnaryScratch, st *chainStatic, digits uint16) {
	ss := chainSearches(h, st, digits, sc.searches[:0])
	sc.searches = ss
	var r *chainReach
	if !sc.exact && len(ss) > 0 {
		r = &sc.reach
		r.build(st, digits)
	}
	for i, se := range ss {
		l := i % 64
		if r != nil && l == 0 {
			r.run(h, st, ss[i:min(len(ss), i+64)])
		}
		if se.off {
			chainFromOff(h, st, &sc.bfs, int(se.k), r, l)
		} else {
			chainFromOn(h, st, &sc.bfs, int(se.k), se.chains, r, l)
		}
	}
}

// chainSearches appends to ss the searches of chainUnaryMode, in the
// order SE makes them, and returns it.
func chainSearches(h *chainHints, st *chainStatic, digits uint16, ss []chainSearch) []chainSearch {
	cands := st.cands
	// As an inner producer, forcing chains may start from fewer
	// candidates; a start with no strong link can close no cycle either.
	starts := h.nest.chainStarts(st)
	for c := 0; c < 81; c++ {
		cm := cands[c]
		if bits.OnesCount16(cm) < 2 {
			continue
		}
		if !st.x && bits.OnesCount16(cm) > 2 {
			continue // Y-cycles start in a bivalue cell only
		}
		if !st.y {
			cm &= digits
		}
		for m := cm; m != 0; m &= m - 1 {
			d := bits.TrailingZeros16(m)
			k := c*9 + d - 1
			// A chain from k on ends with k off only when k is false in
			// the solution, one from k off with k on only when k is true:
			// every node of a chain from an assumption that holds holds
			// too. Knowing the solution, half of each pair of searches
			// can find nothing, and a search from a true k only cycles.
			onChains, offChains := true, true
			if h.sol != nil {
				onChains = int(h.sol[c]) != d
				offChains = !onChains
			}
			if (starts == nil || starts.on.has(k) || st.strongN[k] > 0) && (onChains || st.strongN[k] > 0) {
				ss = append(ss, chainSearch{k: int16(k), chains: onChains})
			}
			if st.x && offChains && (starts == nil || starts.off.has(k)) {
				ss = append(ss, chainSearch{k: int16(k), off: true})
			}
		}
	}
	return ss
}

// chainUnaryTech returns the technique of a cycle or chain found with
// the given links.
func chainUnaryTech(y, x bool, cycle bool) Technique {
	switch {
	case x && y:
		return AIC
	case cycle && x:
		return XCycle
	case cycle:
		return YCycle
	default:
		return XChain
	}
}

// chainMaxNodes returns the most nodes a chain rated base may have
// before its rating passes the best found so far (at most 2000), or 0
// when even the shortest chain would.
func chainMaxNodes(h *chainHints, base Rating) int {
	b := h.bound()
	if b == 0 {
		return 1 << 20
	}
	if base > b {
		return 0
	}
	if a := int(b - base); a < len(chainMaxNodesBy) {
		return chainMaxNodesBy[a]
	}
	return 2000
}

// chainMaxNodesBy[a] is chainMaxNodes for a bound a tenths above the
// base rating, looked up once per search start.
var chainMaxNodesBy = func() (t [24]int) {
	// The longest chain whose length bonus is at most a, up to 2000
	// nodes; LengthBonus grows with the nodes.
	n := 2
	for a := range t {
		for n < 2000 && LengthBonus(n+1) <= Rating(a) {
			n++
		}
		t[a] = n
	}
	return t
}()

// chainOnBounds returns the most nodes a cycle and a chain from a
// candidate on may have (0 for no chain without X-links or chains).
func chainOnBounds(h *chainHints, st *chainStatic, chains bool) (maxCycle, maxChain int) {
	cycleBase := XCycle.BaseRating()
	chainBase := XChain.BaseRating()
	if st.y && st.x {
		cycleBase, chainBase = AIC.BaseRating(), AIC.BaseRating()
	}
	maxCycle = chainMaxNodes(h, cycleBase)
	if st.x && chains {
		maxChain = chainMaxNodes(h, chainBase)
	}
	return maxCycle, maxChain
}

// chainOffBound returns the most nodes a chain from a candidate off may
// have.
func chainOffBound(h *chainHints, st *chainStatic) int {
	if st.y {
		return chainMaxNodes(h, AIC.BaseRating())
	}
	return chainMaxNodes(h, XChain.BaseRating())
}

// chainFromOn searches from candidate s assumed on: for cycles back to s
// and, with X-links and chains set, for a chain that turns s off. When r
// is not nil, it is the pre-pass that ran the search as its lane l, and
// the search goes only as far as it can record something.
func chainFromOn(h *chainHints, st *chainStatic, b *chainBFS, s int, chains bool, r *chainReach, l int) {
	x := st.x
	maxCycle, maxChain := chainOnBounds(h, st, chains)
	maxNodes := max(maxCycle, maxChain)
	if r != nil {
		maxNodes = min(maxNodes, r.onNodes(l, s, st, maxCycle, maxChain))
	}
	if maxNodes < 4 {
		return
	}
	// closers: off candidates whose strong link turns s back on.
	var closers [4]int16
	nClosers := 0
	// Strong links are symmetric: the closers are s's strong partners.
	for i := 0; i < int(st.strongN[s]); i++ {
		closers[nClosers] = st.strong[s][i]
		nClosers++
	}
	b.next()
	b.on[s] = chainBFSNode{gen: b.gen, parent: -1}
	nOn, nOff := 1, 0
	b.qOn[0] = int16(s)
	chainFound := false
	// Without a strong link, s is missing from the weak lists: whether
	// an on node reaches it is asked directly. Then s has no closers
	// either, so that is the only end.
	sOut := st.strongN[s] == 0
	var sBuf [28]int16
	// ends holds s and its closers: only an off node among them can end
	// a chain or a cycle, so the others need one bit test.
	var ends chainSet
	ends.add(s)
	for _, c := range closers[:nClosers] {
		ends.add(int(c))
	}
	// endCells[d] holds the cells of the ends of digit d, endAny those
	// of every end: the weak links of an on node reach an end only if
	// its cell is one of endAny or its peers meet endCells of its digit.
	var endCells [10]chainCells81
	var endAny chainCells81
	for _, e := range closers[:nClosers] {
		endCells[e%9+1].add(int(e) / 9)
		endAny.add(int(e) / 9)
	}
	endCells[s%9+1].add(s / 9)
	endAny.add(s / 9)
	// Each round takes the on nodes at depth dp to off nodes and those
	// to on nodes at depth dp+2.
	for dp := 1; nOn > 0 && dp+1 <= maxNodes; dp += 2 {
		// The chain and cycle tests depend on the level (and p == s):
		// most on nodes can close neither, and then only the discovery
		// loop runs.
		canChain := x && dp+1 <= maxChain
		levelCycle := dp+1 <= maxCycle && nClosers > 0
		// In the last round the off nodes lead nowhere: only the ends
		// matter.
		last := dp+3 > maxNodes
		nOff = 0
		for _, p16 := range b.qOn[:nOn] {
			p := int(p16)
			canCycle := levelCycle && p != s
			if sOut && canChain && !chainFound && st.sees(p, s) {
				chainFound = true
				chainRecordChain(h, st, b, p, s, false, dp+1)
				if nClosers == 0 {
					return // a search records one chain, and s closes no cycle
				}
			}
			ws := st.weak(p)
			if p == s && sOut {
				ws = st.fill(s, false, sBuf[:]) // s has no list
			}
			// The ends are looked for first: recording one reads only
			// the path to p, which the visits after leave as it is.
			if c, d := p/9, p%9+1; (canChain && !chainFound || canCycle) &&
				(endAny.has(c) || chainPeerSet[c][0]&endCells[d][0]|chainPeerSet[c][1]&endCells[d][1] != 0) {
				for _, q16 := range ws {
					q := int(q16)
					if !ends.has(q) {
						continue
					}
					if canChain && !chainFound && q == s {
						chainFound = true
						chainRecordChain(h, st, b, p, s, false, dp+1)
					}
					// SE skips a node that is an ancestor of p; an
					// ancestor is already discovered, so that only
					// matters for closing a cycle.
					if canCycle {
						for j := 0; j < nClosers; j++ {
							if int(closers[j]) == q && !chainIsAncestor(b, p, q) {
								chainRecordCycle(h, st, b, p, q, s, dp+1)
							}
						}
					}
				}
			}
			if last {
				continue
			}
			for _, q16 := range ws {
				nOff = b.add(&b.off, int(q16), p, &b.qOff, nOff)
			}
		}
		if last {
			break
		}
		nOn = 0
		// strongStep, written out: Go does not inline it, and a call costs
		// about as much as the visits it makes.
		for _, q16 := range b.qOff[:nOff] {
			q := int(q16)
			sl := &st.strong[q]
			nOn = b.add(&b.on, int(sl[0]), q, &b.qOn, nOn)
			nOn = b.add(&b.on, int(sl[1]), q, &b.qOn, nOn)
			if st.strongN[q] > 2 {
				nOn = b.add(&b.on, int(sl[2]), q, &b.qOn, nOn)
				nOn = b.add(&b.on, int(sl[3]), q, &b.qOn, nOn)
			}
		}
	}
}

// strongStep visits the on nodes that the off node q turns on, from
// the on queue's length n, and returns its new length.
func (b *chainBFS) strongStep(st *chainStatic, q int, n int) int {
	sl := &st.strong[q]
	n = b.add(&b.on, int(sl[0]), q, &b.qOn, n)
	n = b.add(&b.on, int(sl[1]), q, &b.qOn, n)
	if st.strongN[q] > 2 {
		n = b.add(&b.on, int(sl[2]), q, &b.qOn, n)
		n = b.add(&b.on, int(sl[3]), q, &b.qOn, n)
	}
	return n
}

// chainIsAncestor reports whether the off node q is on the path that
// reached the on node p.
func chainIsAncestor(b *chainBFS, p, q int) bool {
	for p >= 0 {
		o := int(b.on[p].parent)
		if o < 0 {
			return false
		}
		if o == q {
			return true
		}
		p = int(b.off[o].parent)
	}
	return false
}

// chainFromOff searches from candidate s assumed off for a chain that
// turns s on (X-links required). When r is not nil, it is the pre-pass
// that ran the search as its lane l, and the search runs only if it
// records a chain.
func chainFromOff(h *chainHints, st *chainStatic, b *chainBFS, s int, r *chainReach, l int) {
	maxChain := chainOffBound(h, st)
	if maxChain < 3 || st.strongN[s] == 0 {
		return // too long, or no strong link leaves s
	}
	if r != nil && !r.offMeets(l, maxChain) {
		return
	}
	b.next()
	b.off[s] = chainBFSNode{gen: b.gen, parent: -1}
	nOn, nOff := 0, 1
	b.qOff[0] = int16(s)
	// Each round takes the off nodes at depth dq to on nodes and those
	// to off nodes at depth dq+2.
	for dq := 1; nOff > 0; dq += 2 {
		nOn = 0
		for _, q16 := range b.qOff[:nOff] {
			q := int(q16)
			for _, o16 := range st.strong[q][:st.strongN[q]] {
				if int(o16) == s {
					if dq+1 <= maxChain {
						chainRecordChain(h, st, b, q, s, true, dq+1)
					}
					return
				}
			}
			nOn = b.strongStep(st, q, nOn)
		}
		nOff = 0
		if dq+3 > maxChain {
			break // the on nodes at dq+1 would lead past maxChain
		}
		for _, p16 := range b.qOn[:nOn] {
			p := int(p16)
			for _, q16 := range st.weak(p) {
				nOff = b.add(&b.off, int(q16), p, &b.qOff, nOff)
			}
		}
	}
}

// chainPathCells adds to cells the cells of the chain ending at node k
// (on when on is true) and returns them.
func chainPathCells(b *chainBFS, k int, on bool, cells *chainCells81, digits *uint16) {
	for k >= 0 {
		cells.add(k / 9)
		*digits |= 1 << (k%9 + 1)
		if on {
			k = int(b.on[k].parent)
		} else {
			k = int(b.off[k].parent)
		}
		on = !on
	}
}

// chainRecordChain records a forcing chain whose last link leaves from
// node p (an on node when placed is false, an off node when true) and
// reaches the start s with the opposite state.
func chainRecordChain(h *chainHints, st *chainStatic, b *chainBFS, p, s int, placed bool, nodes int) {
	t := XChain
	base := XChain.BaseRating()
	if st.y {
		t, base = AIC, AIC.BaseRating()
	}
	if h.nest != nil {
		h.nest.nestUnaryChain(st, b, p, s, placed, nodes)
		return
	}
	r := base + LengthBonus(nodes)
	if !h.consider(r) {
		return
	}
	h.begin(nodes, chainSortKey(st))
	var cells chainCells81
	var digits uint16
	chainPathCells(b, p, !placed, &cells, &digits)
	if placed {
		h.add(r, t, s/9, 0, s%9+1, cells, digits)
	} else {
		h.add(r, t, s/9, 1<<(s%9+1), 0, cells, digits)
	}
	// The chain ends where it started, in the opposite state.
	h.keepPath(b, p, !placed, s, -1)
}

// chainRecordCycle records the cycle s -> ... -> p (on) -> q (off) -> s
// and the candidates it eliminates: those that see an on node and an off
// node of their digit, outside the cycle's cells.
func chainRecordCycle(h *chainHints, st *chainStatic, b *chainBFS, p, q, s int, nodes int) {
	t := chainUnaryTech(st.y, st.x, true)
	r := t.BaseRating() + LengthBonus(nodes)
	if !h.consider(r) {
		return
	}
	h.begin(nodes, chainSortKey(st))
	var cells chainCells81
	var digits uint16
	cells.add(q / 9)
	digits |= 1 << (q%9 + 1)
	chainPathCells(b, p, true, &cells, &digits)
	if h.nest != nil {
		chainNestCycle(h, st, b, p, q, s, nodes, &cells)
		return
	}
	// A candidate goes when it sees an on node and an off node of its
	// digit, outside the cycle's cells: per digit, the peers of its on
	// nodes and of its off nodes, as sets of cells.
	var forw, back [10]chainCells81
	var used uint16 // the digits of the cycle's nodes
	mark := func(k int, on bool) {
		d, ps := k%9+1, &chainPeerSet[k/9]
		used |= 1 << d
		if on {
			forw[d][0] |= ps[0]
			forw[d][1] |= ps[1]
		} else {
			back[d][0] |= ps[0]
			back[d][1] |= ps[1]
		}
	}
	mark(q, false)
	for k, on := p, true; k >= 0; on = !on {
		mark(k, on)
		if on {
			k = int(b.on[k].parent)
		} else {
			k = int(b.off[k].parent)
		}
	}
	var elim [81]uint16
	var touched chainCells81 // cells with a digit to eliminate
	for m := used; m != 0; m &= m - 1 {
		d := bits.TrailingZeros16(m)
		for w := 0; w < 2; w++ {
			e := forw[d][w] & back[d][w] & st.dcells[d][w] &^ cells[w]
			touched[w] |= e
			for ; e != 0; e &= e - 1 {
				elim[w*64+bits.TrailingZeros64(e)] |= 1 << d
			}
		}
	}
	for w := 0; w < 2; w++ {
		for m := touched[w]; m != 0; m &= m - 1 {
			c := w*64 + bits.TrailingZeros64(m)
			h.add(r, t, c, elim[c], 0, cells, digits)
		}
	}
	// The cycle closes through q (off) back to s (on).
	h.keepPath(b, p, true, q, s)
}

// chainNestCycle hands the cycle s -> ... -> p (on) -> q (off) -> s,
// whose cells are cells, to the nested sink with the candidates it
// eliminates.
func chainNestCycle(h *chainHints, st *chainStatic, b *chainBFS, p, q, s, nodes int, cells *chainCells81) {
	var forw, back [81]uint16
	var touched chainCells81 // cells with a forw digit
	mark := func(k int, on bool) {
		c, d := k/9, k%9+1
		for _, o := range chainPeers[c] {
			if cells.has(int(o)) || st.cands[o]&(1<<d) == 0 {
				continue
			}
			if on {
				forw[o] |= 1 << d
				touched.add(int(o))
			} else {
				back[o] |= 1 << d
			}
		}
	}
	mark(q, false)
	k, on := p, true
	for k >= 0 {
		mark(k, on)
		if on {
			k = int(b.on[k].parent)
		} else {
			k = int(b.off[k].parent)
		}
		on = !on
	}
	for w := 0; w < 2; w++ {
		for m := touched[w]; m != 0; m &= m - 1 {
			c := w*64 + bits.TrailingZeros64(m)
			forw[c] &= back[c]
		}
	}
	h.nest.nestCycle(st, b, p, q, s, nodes, &forw, touched)
}

// chainSortKey is SE's tie-break rank of a unary hint: X, Y, then mixed.
func chainSortKey(st *chainStatic) int {
	switch {
	case st.x && st.y:
		return 4
	case st.y:
		return 3
	}
	return 2
}
