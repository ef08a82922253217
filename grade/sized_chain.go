package grade

import "slices"

// SE's "Forcing Chains & Cycles" producer on every shape: X-cycles,
// Y-cycles, forcing X-chains and alternating inference chains (cycles
// and forcing chains mixing both link kinds), as chainUnary finds them on
// 9x9 (see chain_unary.go for the rules). A candidate is k = N*cell +
// digit - 1. The producers past them, up to dynamic forcing chains, are
// in sized_aligned.go, sized_forcing.go, sized_forcing_plus.go and
// sized_nested.go, up to nested forcing chains of level 2 (9.5); the
// deeper nested levels are not generalised: a puzzle that needs them
// grades as unfinished.

// schainStatic holds the links of one grid for one link mode.
type schainStatic struct {
	g       *sgeom
	cands   []uint32
	y, x    bool
	pos     []uint32 // the state's where: positions of digit d in unit u
	strongN []uint8
	strong  []int32 // 4 per candidate
	sp      []uint32
	scell   []uint32
	n       []uint16
	start   []uint32
	l       []int32
}

// schainScratch is the scratch of one shape's chain searches.
type schainScratch struct {
	g      *sgeom
	st     schainStatic
	gen    uint32
	on     []schainNode
	off    []schainNode
	qOn    []int32
	qOff   []int32
	forw   []uint32
	back   []uint32
	marked []int32
	path   []int32
	hints  schainHints
	// inCycle marks the cells of the cycle recordCycle is recording.
	inCycle []bool
	// nest, when set, makes this search the inner producer of a nested
	// chain (sized_nested.go): its chains and cycles go there, and
	// visits counts the nodes it visits for nest's budget.
	nest   *sforce
	visits int
	// digits, when not 0, are the only digits an X-only search starts
	// from (sized_nested.go's bounds).
	digits uint32
	// starts, when set, holds the candidates a nested chain's inner
	// search may start from, on then off (sforce.chainStarts); the
	// others start only cycles.
	starts []uint64
	// links is the chain of the step chains last returned, when links
	// are recorded; the grader clears it before each step.
	links []SizedLink
}

type schainNode struct {
	gen    uint32
	parent int32
}

// schainHints collects the hints of the producer and keeps those with
// the lowest rating, as chainHints does.
type schainHints struct {
	cands  []uint32
	best   Rating
	tech   Technique
	any    bool
	elim   []uint32
	place  []uint8
	cells  []bool
	digits uint32
	// starts, when set, holds the candidates a nested chain's inner
	// search may start from, on then off (sforce.chainStarts); the
	// others start only cycles.
	starts []uint64

	// links asks for the chain of the first hint kept at the best
	// rating, for SizedGrade.Links: fresh says the last add made a new
	// best, and chain holds that hint's nodes in order, the last one on
	// when lastOn.
	links, fresh bool
	chain        []int32
	lastOn       bool
	chainN       int // digits per cell, to read chain's candidates
}

// keepChain records, when links are asked for and the last add made a
// new best, the chain of sc.path (in the order pathFrom writes it, end
// first) followed by the candidate end, which is on when endOn.
func (sc *schainScratch) keepChain(end int, endOn bool) {
	h := &sc.hints
	if !h.links || !h.fresh {
		return
	}
	h.fresh = false
	h.chain = append(h.chain[:0], sc.path...)
	slices.Reverse(h.chain)
	h.chain = append(h.chain, int32(end))
	h.lastOn, h.chainN = endOn, sc.g.n
}

func newChainScratch(g *sgeom) *schainScratch {
	nk := g.nc * g.n
	sc := &schainScratch{g: g}
	sc.st = schainStatic{g: g,
		strongN: make([]uint8, nk), strong: make([]int32, 4*nk),
		sp: make([]uint32, g.nu*(g.n+1)), scell: make([]uint32, g.nc),
		n: make([]uint16, nk), start: make([]uint32, nk),
		l: make([]int32, 0, nk*(g.n+len(g.peers[0]))),
	}
	sc.on, sc.off = make([]schainNode, nk), make([]schainNode, nk)
	sc.qOn, sc.qOff = make([]int32, 0, nk), make([]int32, 0, nk)
	sc.forw, sc.back = make([]uint32, g.nc), make([]uint32, g.nc)
	sc.hints = schainHints{elim: make([]uint32, g.nc), place: make([]uint8, g.nc), cells: make([]bool, g.nc)}
	return sc
}

// build fills the links of every candidate for the link mode (y, x).
func (s *schainStatic) build(cands []uint32, pos []uint32, y, x bool) {
	g := s.g
	n := g.n
	s.cands, s.pos, s.y, s.x = cands, pos, y, x
	clear(s.sp)
	for c := 0; c < g.nc; c++ {
		cm := cands[c]
		var sc uint32
		for m := cm; m != 0; m &= m - 1 {
			d := first32(m)
			k := c*n + d - 1
			st := s.strong[4*k : 4*k+4]
			nn := 0
			if y && count32(cm) == 2 {
				st[nn] = int32(c*n + first32(cm&^(1<<d)) - 1)
				nn++
			}
			if x {
				for _, u := range g.houses[c] {
					pm := pos[int(u)*(n+1)+d]
					if count32(pm) != 2 {
						continue
					}
					pm &^= 1 << g.cellIndex[c][unitType(g, int(u))]
					o := int32(g.cell(int(u), first32(pm))*n + d - 1)
					dup := false
					for i := 0; i < nn; i++ {
						if st[i] == o {
							dup = true
						}
					}
					if !dup {
						st[nn] = o
						nn++
					}
				}
			}
			s.strongN[k] = uint8(nn)
			if nn > 0 {
				sc |= 1 << d
				for _, u := range g.houses[c] {
					s.sp[int(u)*(n+1)+d] |= 1 << g.cellIndex[c][unitType(g, int(u))]
				}
			}
		}
		s.scell[c] = sc
	}
	// Only the candidates with a strong link are ever on, but for the
	// start of a search (fill serves it): only they need a list.
	s.l = s.l[:0]
	for c := 0; c < g.nc; c++ {
		for m := s.scell[c]; m != 0; m &= m - 1 {
			k := c*n + first32(m) - 1
			s.start[k] = uint32(len(s.l))
			s.l = s.fill(k, s.l)
			s.n[k] = uint16(uint32(len(s.l)) - s.start[k])
		}
	}
}

// unitType returns the type (row, column, box) of unit u.
func unitType(g *sgeom, u int) int { return u / g.n }

// fill appends to buf the weak links of candidate k that lead on: the
// other candidates of its cell with a strong link (with Y-links), then
// its digit in the peers with a strong link, box first.
func (s *schainStatic) fill(k int, buf []int32) []int32 {
	g := s.g
	n := g.n
	c, d := k/n, k%n+1
	if s.y {
		for m := s.scell[c] &^ (1 << d); m != 0; m &= m - 1 {
			buf = append(buf, int32(c*n+first32(m)-1))
		}
	}
	for i, u := range g.houses[c] {
		pm := s.sp[int(u)*(n+1)+d]
		for m := pm & g.chainPeerPos[c][i]; m != 0; m &= m - 1 {
			buf = append(buf, int32(g.cell(int(u), first32(m))*n+d-1))
		}
	}
	return buf
}

func (s *schainStatic) weak(k int) []int32 {
	i := s.start[k]
	return s.l[i : i+uint32(s.n[k])]
}

// sees reports whether candidate p on turns candidate k off.
func (s *schainStatic) sees(p, k int) bool {
	n := s.g.n
	cp, ck := p/n, k/n
	if cp == ck {
		return s.y && p != k
	}
	return p%n == k%n && s.g.sees(cp, ck)
}

func (sc *schainScratch) next() {
	sc.gen++
	if sc.gen == 0 {
		clear(sc.on)
		clear(sc.off)
		sc.gen = 1
	}
}

func (sc *schainScratch) visit(nd *schainNode, parent int) bool {
	if nd.gen == sc.gen {
		return false
	}
	sc.visits++
	*nd = schainNode{gen: sc.gen, parent: int32(parent)}
	return true
}

// chains returns the easiest cycle or forcing chain step, or false.
func (s *sstate) chains(sc *schainScratch) (SizedStep, bool) {
	h := &sc.hints
	h.reset(s.cands)
	for _, mode := range [3][2]bool{{false, true}, {true, false}, {true, true}} {
		y, x := mode[0], mode[1]
		sc.st.build(s.cands, s.where, y, x)
		sc.searchMode()
	}
	if !h.any {
		return SizedStep{}, false
	}
	sc.links = h.chainLinks()
	return h.step(), true
}

func (h *schainHints) reset(cands []uint32) {
	h.cands = cands
	h.best, h.tech, h.any, h.digits = 0, NoTechnique, false, 0
	clear(h.elim)
	clear(h.place)
	clear(h.cells)
	h.fresh, h.chain = false, h.chain[:0]
}

func (h *schainHints) consider(r Rating) bool { return !h.any || r <= h.best }

func (h *schainHints) bound() Rating {
	if h.any {
		return h.best
	}
	return 0
}

// add records one hint: it removes the digits in mask from cell, or
// places digit place in cell when place is not 0; path lists the
// candidates of the chain (k = N*cell + digit - 1).
func (h *schainHints) add(n int, r Rating, t Technique, cell int, mask uint32, place int, path []int32) {
	if place != 0 {
		mask = h.cands[cell] &^ (1 << place)
	}
	mask &= h.cands[cell]
	if mask == 0 && place == 0 {
		return
	}
	if !h.consider(r) {
		return
	}
	if !h.any || r < h.best {
		h.reset(h.cands)
		h.best, h.tech, h.any, h.fresh = r, t, true, true
	}
	if t < h.tech {
		h.tech = t
	}
	h.elim[cell] |= mask
	if place != 0 {
		h.place[cell] = uint8(place)
	}
	for _, k := range path {
		h.cells[int(k)/n] = true
		h.digits |= 1 << (int(k)%n + 1)
	}
}

// chainLinks returns the links of the chain kept for the best hint, or
// nil when none was kept.
func (h *schainHints) chainLinks() []SizedLink {
	if len(h.chain) < 2 {
		return nil
	}
	ls := make([]SizedLink, len(h.chain)-1)
	node := func(i int) SizedChainNode {
		k := int(h.chain[i])
		// States alternate back from the last node's.
		on := h.lastOn == ((len(h.chain)-1-i)%2 == 0)
		return SizedChainNode{Cell: uint16(k / h.chainN), Digit: uint8(k%h.chainN + 1), On: on}
	}
	for i := range ls {
		from := node(i)
		ls[i] = SizedLink{From: from, To: node(i + 1), Strong: !from.On}
	}
	return ls
}

func (h *schainHints) step() SizedStep {
	st := SizedStep{Technique: h.tech, Rating: h.best, Digits: h.digits}
	for c := range h.elim {
		if h.cells[c] {
			st.Cells = append(st.Cells, uint16(c))
		}
		if h.place[c] != 0 {
			st.Placements = append(st.Placements, SizedCandidate{uint16(c), h.place[c]})
		}
		for m := h.elim[c]; m != 0; m &= m - 1 {
			d := first32(m)
			if int(h.place[c]) == d {
				continue
			}
			st.Eliminations = append(st.Eliminations, SizedCandidate{uint16(c), uint8(d)})
		}
	}
	return st
}

// maxNodes is chainMaxNodes for the sized hints.
func (h *schainHints) maxNodes(base Rating) int {
	b := h.bound()
	if b == 0 {
		return 1 << 20
	}
	if base > b {
		return 0
	}
	ceil, grow32 := 4, true
	for a := b - base; a > 0 && ceil < 2000; a-- {
		if grow32 {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
		grow32 = !grow32
	}
	return min(ceil+2, 2000)
}

// searchMode searches from every candidate with the current links.
func (sc *schainScratch) searchMode() {
	st := &sc.st
	g := sc.g
	for c := 0; c < g.nc; c++ {
		cm := st.cands[c]
		if count32(cm) < 2 {
			continue
		}
		if !st.x && count32(cm) > 2 {
			continue // Y-cycles start in a bivalue cell only
		}
		if !st.y && sc.digits != 0 {
			cm &= sc.digits
		}
		for m := cm; m != 0; m &= m - 1 {
			if f := sc.nest; f != nil && f.spent+sc.visits > f.budget {
				f.over = true // the nested producer call is over its budget
				return
			}
			k := c*g.n + first32(m) - 1
			if sc.starts == nil || st.strongN[k] > 0 || setHas(sc.starts, k) {
				sc.fromOn(k)
			}
			if st.x && (sc.starts == nil || setHas(sc.starts[len(sc.starts)/2:], k)) {
				sc.fromOff(k)
			}
		}
	}
}

// fromOn searches from candidate s assumed on, as chainFromOn.
func (sc *schainScratch) fromOn(s int) {
	st := &sc.st
	h := &sc.hints
	y, x := st.y, st.x
	cycleBase := XCycle.BaseRating()
	chainBase := XChain.BaseRating()
	if y && x {
		cycleBase, chainBase = AIC.BaseRating(), AIC.BaseRating()
	}
	maxCycle := h.maxNodes(cycleBase)
	maxChain := 0
	if x {
		maxChain = h.maxNodes(chainBase)
	}
	if max(maxCycle, maxChain) < 4 {
		return
	}
	maxNodes := max(maxCycle, maxChain)
	closers := st.strong[4*s : 4*s+int(st.strongN[s])]
	sc.next()
	sc.on[s] = schainNode{gen: sc.gen, parent: -1}
	qOn, qOff := append(sc.qOn[:0], int32(s)), sc.qOff[:0]
	chainFound := false
	sOut := st.strongN[s] == 0
	var sBuf [128]int32
	for dp := 1; len(qOn) > 0 && dp+1 <= maxNodes; dp += 2 {
		canChain := x && dp+1 <= maxChain
		levelCycle := dp+1 <= maxCycle && len(closers) > 0
		qOff = qOff[:0]
		for _, p32 := range qOn {
			p := int(p32)
			canCycle := levelCycle && p != s
			if sOut && canChain && !chainFound && st.sees(p, s) {
				chainFound = true
				sc.recordChain(p, s, false, dp+1)
			}
			var ws []int32
			if p == s && sOut {
				ws = st.fill(s, sBuf[:0])
			} else {
				ws = st.weak(p)
			}
			for _, q32 := range ws {
				q := int(q32)
				if canChain && !chainFound && q == s {
					chainFound = true
					sc.recordChain(p, s, false, dp+1)
				}
				if canCycle {
					for _, cl := range closers {
						if int(cl) == q && !sc.isAncestor(p, q) {
							sc.recordCycle(p, q, s, dp+1)
						}
					}
				}
				if sc.visit(&sc.off[q], p) {
					qOff = append(qOff, q32)
				}
			}
		}
		qOn = qOn[:0]
		for _, q32 := range qOff {
			q := int(q32)
			for _, o := range st.strong[4*q : 4*q+int(st.strongN[q])] {
				if sc.visit(&sc.on[o], q) {
					qOn = append(qOn, o)
				}
			}
		}
	}
	sc.qOn, sc.qOff = qOn, qOff
}

// isAncestor reports whether the off node q is on the path that reached
// the on node p.
func (sc *schainScratch) isAncestor(p, q int) bool {
	for p >= 0 {
		o := int(sc.on[p].parent)
		if o < 0 {
			return false
		}
		if o == q {
			return true
		}
		p = int(sc.off[o].parent)
	}
	return false
}

// fromOff searches from candidate s assumed off for a chain that turns s
// on, as chainFromOff.
func (sc *schainScratch) fromOff(s int) {
	st := &sc.st
	chainBase := XChain.BaseRating()
	if st.y {
		chainBase = AIC.BaseRating()
	}
	maxChain := sc.hints.maxNodes(chainBase)
	if maxChain < 3 || st.strongN[s] == 0 {
		return
	}
	sc.next()
	sc.off[s] = schainNode{gen: sc.gen, parent: -1}
	qOn, qOff := sc.qOn[:0], append(sc.qOff[:0], int32(s))
	defer func() { sc.qOn, sc.qOff = qOn, qOff }()
	for dq := 1; len(qOff) > 0; dq += 2 {
		qOn = qOn[:0]
		for _, q32 := range qOff {
			q := int(q32)
			for _, o32 := range st.strong[4*q : 4*q+int(st.strongN[q])] {
				o := int(o32)
				if o == s {
					if dq+1 <= maxChain {
						sc.recordChain(q, s, true, dq+1)
					}
					return
				}
				if sc.visit(&sc.on[o], q) {
					qOn = append(qOn, o32)
				}
			}
		}
		qOff = qOff[:0]
		if dq+3 > maxChain {
			break
		}
		for _, p32 := range qOn {
			for _, q32 := range st.weak(int(p32)) {
				if sc.visit(&sc.off[q32], int(p32)) {
					qOff = append(qOff, q32)
				}
			}
		}
	}
}

// pathFrom appends to sc.path the candidates of the chain ending at node
// k (on when on is true).
func (sc *schainScratch) pathFrom(k int, on bool) {
	for k >= 0 {
		sc.path = append(sc.path, int32(k))
		if on {
			k = int(sc.on[k].parent)
		} else {
			k = int(sc.off[k].parent)
		}
		on = !on
	}
}

// recordChain records a forcing chain whose last link leaves node p and
// reaches the start s with the opposite state.
func (sc *schainScratch) recordChain(p, s int, placed bool, nodes int) {
	st := &sc.st
	h := &sc.hints
	n := sc.g.n
	t, base := XChain, XChain.BaseRating()
	if st.y {
		t, base = AIC, AIC.BaseRating()
	}
	if sc.nest != nil {
		sc.nest.nestChain(p, s, placed, nodes)
		return
	}
	r := base + LengthBonus(nodes)
	if !h.consider(r) {
		return
	}
	sc.path = sc.path[:0]
	sc.pathFrom(p, !placed)
	if placed {
		h.add(n, r, t, s/n, 0, s%n+1, sc.path)
	} else {
		h.add(n, r, t, s/n, 1<<(s%n+1), 0, sc.path)
	}
	// The chain ends where it started, in the opposite state.
	sc.keepChain(s, placed)
}

// recordCycle records the cycle s -> ... -> p (on) -> q (off) -> s and
// the candidates it eliminates: those that see an on node and an off
// node of their digit, outside the cycle's cells.
func (sc *schainScratch) recordCycle(p, q, s int, nodes int) {
	st := &sc.st
	h := &sc.hints
	g := sc.g
	n := g.n
	if sc.nest != nil {
		sc.nest.nestCycle(p, q, s, nodes)
		return
	}
	t := chainUnaryTech(st.y, st.x, true)
	r := t.BaseRating() + LengthBonus(nodes)
	if !h.consider(r) {
		return
	}
	sc.path = append(sc.path[:0], int32(q))
	sc.pathFrom(p, true)
	// The cycle's cells, marked once rather than searched per peer.
	if len(sc.inCycle) != g.nc {
		sc.inCycle = make([]bool, g.nc)
	}
	for _, k := range sc.path {
		sc.inCycle[int(k)/n] = true
	}
	defer func() {
		for _, k := range sc.path {
			sc.inCycle[int(k)/n] = false
		}
	}()
	inCycle := func(c int) bool { return sc.inCycle[c] }
	sc.marked = sc.marked[:0]
	mark := func(k int, on bool) {
		c, d := k/n, k%n+1
		for _, o := range g.chainPeers[c] {
			if st.cands[o]&(1<<d) == 0 || inCycle(int(o)) {
				continue
			}
			if sc.forw[o]|sc.back[o] == 0 {
				sc.marked = append(sc.marked, int32(o))
			}
			if on {
				sc.forw[o] |= 1 << d
			} else {
				sc.back[o] |= 1 << d
			}
		}
	}
	// The path alternates: q is off, p on, p's parent off, and so on.
	for i, k := range sc.path {
		mark(int(k), i%2 == 1)
	}
	for _, o := range sc.marked {
		if e := sc.forw[o] & sc.back[o]; e != 0 {
			h.add(n, r, t, int(o), e, 0, sc.path)
		}
	}
	for _, o := range sc.marked {
		sc.forw[o], sc.back[o] = 0, 0
	}
	// sc.path runs q, p, ..., s: the cycle closes through q back to s.
	sc.keepChain(s, true)
}
