package grade

import (
	"math/bits"

	"sudokubank/solve"
)

// Forcing chains that follow every consequence of an assumption: Nishio,
// multiple (cell and region) forcing chains, dynamic forcing chains, and
// with level > 0 the dynamic chains that also use simpler techniques as
// links (SE's "(+)" and nested levels).
//
// One run assumes one candidate on (or off) and propagates, breadth first
// with "on" nodes before "off" nodes, as SE's doChaining does. A node is
// 2*candidate + 1 for on, 2*candidate for off. Each node keeps the set of
// its ancestors as a bitset over the 1458 nodes: in dynamic chains a node
// has several parents (the removals that made a cell bivalue or a house
// bilocal), and SE counts the distinct ancestors to rate a chain.

// chainMode selects one of SE's chaining producers.
type chainMode struct {
	multiple, dynamic, nishio bool
	level                     int
	tech                      Technique
}

// chainBits is a set of nodes.
type chainBits [23]uint64

func (b *chainBits) has(n int) bool { return b[n>>6]&(1<<(n&63)) != 0 }
func (b *chainBits) add(n int)      { b[n>>6] |= 1 << (n & 63) }
func (b *chainBits) or(o *chainBits) {
	for i := range b {
		b[i] |= o[i]
	}
}
func (b *chainBits) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// chainSet is a set of candidates (9*cell + digit-1).
type chainSet [12]uint64

func (s *chainSet) has(k int) bool { return s[k>>6]&(1<<(k&63)) != 0 }
func (s *chainSet) add(k int)      { s[k>>6] |= 1 << (k & 63) }

// chainRun is the outcome of one assumption: the candidates forced on and
// off, and the ancestor count of each of those nodes.
type chainRun struct {
	on, off   chainSet
	cnt       [1458]int16
	contra    bool // the run stopped on a contradiction
	contraSum int  // ancestors of the two contradicting nodes, summed
	contraK   int  // the contradicting candidate

	// Nested chains among the ancestors (levels 2 to 5): nmask[n] has bit
	// i when the i-th nested hint of the run, nID[i], is an ancestor of
	// node n; bit 63 stands for all hints past the 63rd. nil when the run
	// used none.
	nmask *[1458]uint64
	nbuf  *[1458]uint64 // nmask's storage, kept between runs
	nID   []int32
	nCx   []int

	// endGrid is, when the run ended on a grid where the inner producers
	// concluded nothing, that grid's memo entry (-1 when the memo was
	// full), and -2 when its end did not depend on the inner producers
	// (a contradiction, or conclusions all already off).
	endGrid int32
}

// chainEngine is the scratch of the forcing chain producers.
type chainEngine struct {
	mode   chainMode
	orig   *Candidates
	work   Candidates // the grid as a dynamic chain changes it
	anc    [1458]chainBits
	qOn    []int16
	qOff   []int16
	offRun chainRun
	adv    chainAdvanced
	// onRuns caches the run of each candidate assumed on: cell and region
	// chains use the same runs many times over. onGen marks the valid
	// ones with the producer call's generation.
	onRuns [729]chainRun
	onGen  [729]uint32
	gen    uint32
	// pos and opos hold, for each unit and digit, the positions left in
	// work and in orig.
	pos, opos [27][10]uint16
	// remUnits[d] has bit u set when work lost digit d in unit u.
	remUnits [10]uint32
	// links holds the links of orig for static runs (see runStatic).
	links chainStatic
	// cause[k] says what turned candidate k on in the last run: 0 the
	// assumption, 1 its cell, 2+u unit u (runStatic does not set it).
	cause [729]uint8
	// contraAnc holds the ancestors of the last run's contradiction.
	contraAnc chainBits
	ancTmp    chainBits // an "on" consequence's ancestors being built
	// The "off" and the "on" consequences of the node runChain is
	// processing: kept here, they need no clearing per run.
	qs    [28]int16
	tmpOn [4]chainTmpOn
	// workGen is the producer call (gen) work was last copied for.
	workGen uint32
	// posGiven, when set, holds the positions of the grid multipleChains
	// is called on, so that it need not count them.
	posGiven *[27][10]uint16
	// stopAt, when not 0, ends a nested producer call as soon as a hint
	// rated at most stopAt is known.
	stopAt Rating

	// Nested levels (chain_nested.go). sink, when set, makes this engine
	// an inner producer: its hints go there instead of to a chainHints.
	sink       *chainNestSink
	nsink      chainNestSink // the sink of this engine's inner producers
	memo       chainNestMemo
	inner      *chainEngine
	innerUnary *chainUnaryScratch
	tmpRun     chainRun
	desc       chainNestHint // what the hints being recorded come from
	ancNeeded  bool          // keep ancestor sets even in static runs
	// The nodes of the current run that nested hints made, each hint's
	// id and complexity, and a mark per id for counting them once.
	nestNodes chainBits
	nestID    [1458]int32 // the run's index of the hint behind a nested node
	nestGID   []int32     // per run index, the hint's index in memo.hints
	nestCx    []int       // per run index, the hint's complexity
	nestMark  []uint32    // per memo hint, markGen when already counted
	markGen   uint32
	// gidRun[g] is the run index of memo hint g when gidGen[g] is the
	// current runGen.
	gidRun []int32
	gidGen []uint32
	runGen uint32
	// static holds the static runs of the grid the static multiple
	// chains last found nothing on; skip, when set, the cells and houses
	// an inner producer need not try (see chainEngine.staticSkips).
	static *chainStaticRuns
	skip   *chainGroupSkip
	// exhaustive turns those bounds and chainNestSink.chainStarts off:
	// tests compare the inner producers' conclusions with and without.
	exhaustive bool
	// reuseGen, when not 0, is the gen of the level 2 call on the grid
	// this level 3 call is on: its runs may serve again (sameAtLevel3).
	reuseGen uint32
	// nishioSkip has bit d set for the digits Nishio need not try at the
	// top level (see chainer.nishioNone); multipleChains sets bit d of
	// nishioHit when one of its Nishio runs in d met a contradiction.
	nishioSkip, nishioHit uint16
	// runDynamic's ancestor sets: nid[n] numbers node n in the order the
	// run reached it, and e.anc[n] of an on node holds the numbers of its
	// ancestors, in words 0 to nid[n]/64 only; an off node has one
	// parent, offPar[n] (-1 for the assumption), and no set of its own.
	nid    [1458]int16
	offPar [1458]int16
}

// onRun returns the run of candidate k assumed on, computing it once per
// producer call.
func (e *chainEngine) onRun(k int) *chainRun {
	r := &e.onRuns[k]
	if e.onGen[k] != e.gen {
		if e.reuseGen != 0 && e.onGen[k] == e.reuseGen && e.sameAtLevel3(r) {
			e.onGen[k] = e.gen
			return r
		}
		e.onGen[k] = e.gen
		e.run(r, k, true)
	}
	return r
}

// remove takes candidate d of cell c out of the working grid.
func (e *chainEngine) remove(c, d int) {
	e.work[c] &^= 1 << d
	for _, u := range chainHouses[c] {
		e.pos[u][d] &^= 1 << chainPos[u][c]
	}
	e.remUnits[d] |= chainCellUnits[c]
}

// chainTmpOn is an "on" consequence being built, with its ancestors.
type chainTmpOn struct {
	k     int
	anc   chainBits
	n     int
	cause uint8
}

// startRun clears r, the working grid and the queues for a new run. A
// static run never changes the grid: it is copied once per producer
// call.
func (e *chainEngine) startRun(r *chainRun) {
	r.on, r.off = chainSet{}, chainSet{}
	r.contra = false
	r.endGrid = -2
	if e.mode.dynamic || e.workGen != e.gen {
		e.work = *e.orig
		e.pos = e.opos
		e.remUnits = [10]uint32{}
		e.workGen = e.gen
	}
	e.qOn, e.qOff = e.qOn[:0], e.qOff[:0]
	e.nestCx, e.nestGID = e.nestCx[:0], e.nestGID[:0]
	e.runGen++
	e.nestNodes = chainBits{}
}

// turnedOff lists in e.qs the candidates that candidate p, on, turns off:
// the others of its cell (with Y-links), then its digit in the peers in
// chainPeers order (box, then row and column outside it), read off the
// positions of the digit. runChain and runDynamic visit them in this
// order, which decides the paths SE reports.
func (e *chainEngine) turnedOff(p int, y bool) []int16 {
	c, d := p/9, p%9+1
	qs := &e.qs
	nq := 0
	if y {
		for m := e.work[c] &^ (1 << d); m != 0; m &= m - 1 {
			qs[nq] = int16(c*9 + bits.TrailingZeros16(m) - 1)
			nq++
		}
	}
	for i, u := range chainHouses[c] {
		for m := e.pos[u][d] & chainPeerPos[c][i]; m != 0; m &= m - 1 {
			qs[nq] = chainUnitCand[u][bits.TrailingZeros16(m)] + int16(d)
			nq++
		}
	}
	return qs[:nq]
}

// onSlot says where among the nt consequences of tmp the consequence o,
// of cnt nodes, goes: a new slot at nt, or, where tmp holds o already with
// more nodes, the last slot, the others moved up (SE keeps the shorter of
// two equal consequences and moves it to the end); ok is false where tmp
// holds o with no more nodes.
func onSlot(tmp *[4]chainTmpOn, nt, o, cnt int) (j int, ok bool) {
	for j = 0; j < nt && tmp[j].k != o; j++ {
	}
	if j == nt {
		return nt, true
	}
	if cnt >= tmp[j].n {
		return 0, false
	}
	copy(tmp[j:nt-1], tmp[j+1:nt])
	return nt - 1, true
}

// run propagates the assumption that candidate k is on (or off) into r.
// It stops at the first contradiction, keeping the shortest one found
// while processing the node that revealed it, as SE does.
func (e *chainEngine) run(r *chainRun, k int, on bool) {
	switch {
	case !e.mode.dynamic && !e.ancNeeded:
		e.runStatic(r, k, on)
	case e.mode.level == 0 && !e.ancNeeded:
		e.runDynamic(r, k, on)
	default:
		e.runChain(r, k, on)
	}
	e.finishNested(r)
}

// runStatic is runChain for a static run without ancestor sets: the grid
// does not change, so the links are those of e.links, built once per
// producer call, and the count of a node is its depth. An off node
// without a strong link turns nothing on, so it is recorded but not
// queued.
func (e *chainEngine) runStatic(r *chainRun, k int, on bool) {
	r.on, r.off = chainSet{}, chainSet{}
	r.contra = false
	r.endGrid = -2 // a static run asks no inner producer
	// A static run records no nested hint: an empty nestGID is all
	// finishNested needs. nestNodes and runGen serve runChain, which
	// resets them itself.
	e.nestCx, e.nestGID = e.nestCx[:0], e.nestGID[:0]
	L := &e.links
	qOn, qOff := e.qOn[:0], e.qOff[:0]
	r.cnt[2*k+b2i(on)] = 1
	if on {
		r.on.add(k)
		qOn = append(qOn, int16(k))
	} else {
		r.off.add(k)
		qOff = append(qOff, int16(k))
	}
	hOn, hOff := 0, 0
	best, bestK := -1, 0
	for best < 0 {
		if hOn < len(qOn) {
			p := int(qOn[hOn])
			hOn++
			cq := r.cnt[2*p+1] + 1
			for _, q16 := range L.weak(p) {
				q := int(q16)
				if r.on.has(q) {
					if s := int(r.cnt[2*q+1]) + int(cq); best < 0 || s < best {
						best, bestK = s, q
					}
					continue
				}
				if r.off.has(q) {
					continue
				}
				r.off.add(q)
				r.cnt[2*q] = cq
				if L.strongN[q] != 0 {
					qOff = append(qOff, int16(q))
				}
			}
		} else if hOff < len(qOff) {
			p := int(qOff[hOff])
			hOff++
			n := int(r.cnt[2*p]) + 1
			for _, o16 := range L.strong[p][:L.strongN[p]] {
				o := int(o16)
				if r.off.has(o) {
					if s := n + int(r.cnt[2*o]); best < 0 || s < best {
						best, bestK = s, o
					}
					continue
				}
				if r.on.has(o) {
					continue
				}
				r.on.add(o)
				r.cnt[2*o+1] = chainCount16(n)
				qOn = append(qOn, int16(o))
			}
		} else {
			break
		}
	}
	e.qOn, e.qOff = qOn, qOff
	if best >= 0 {
		r.contra, r.contraSum, r.contraK = true, best, bestK
	}
}

// runChain is run for the dynamic runs and the static ones that keep
// ancestor sets (ancNeeded): each node's count is that of its distinct
// ancestors, which in a static run is its depth.
func (e *chainEngine) runChain(r *chainRun, k int, on bool) {
	e.startRun(r)
	n := 2*k + b2i(on)
	e.anc[n] = chainBits{}
	e.anc[n].add(n)
	r.cnt[n] = 1
	if on {
		e.cause[k] = 0
		r.on.add(k)
		e.qOn = append(e.qOn, int16(k))
	} else {
		r.off.add(k)
		e.qOff = append(e.qOff, int16(k))
	}
	y := !e.mode.nishio
	hOn, hOff := 0, 0
	tmp := &e.tmpOn
	for {
		best := -1
		bestK := 0
		if hOn < len(e.qOn) {
			p := int(e.qOn[hOn])
			hOn++
			pn := 2*p + 1
			for _, q16 := range e.turnedOff(p, y) {
				q := int(q16)
				if r.on.has(q) {
					s := int(r.cnt[2*q+1]) + int(r.cnt[pn]) + 1
					if best < 0 || s < best {
						best, bestK = s, q
						e.contraAnc = e.anc[2*q+1]
						e.contraAnc.or(&e.anc[pn])
						e.contraAnc.add(2 * q)
					}
					continue
				}
				if r.off.has(q) {
					continue
				}
				r.off.add(q)
				qn := 2 * q
				e.anc[qn] = e.anc[pn]
				e.anc[qn].add(qn)
				r.cnt[qn] = r.cnt[pn] + 1
				e.qOff = append(e.qOff, int16(q))
			}
		} else if hOff < len(e.qOff) {
			p := int(e.qOff[hOff])
			hOff++
			pn := 2 * p
			c, d := p/9, p%9+1
			nt := 0
			if y && bits.OnesCount16(e.work[c]) == 2 {
				o := c*9 + bits.TrailingZeros16(e.work[c]&^(1<<d)) - 1
				t := &tmp[nt]
				nt++
				t.k = o
				t.cause = 1
				t.anc = e.anc[pn]
				for m := e.orig[c] &^ e.work[c]; m != 0; m &= m - 1 {
					t.anc.or(&e.anc[2*(c*9+bits.TrailingZeros16(m)-1)])
				}
				t.anc.add(2*o + 1)
				t.n = t.anc.count()
			}
			for _, u := range chainHouses[c] {
				pm := e.pos[u][d]
				if bits.OnesCount16(pm) != 2 {
					continue
				}
				oc := solve.Units[u][bits.TrailingZeros16(pm&^(1<<chainPos[u][c]))]
				o := oc*9 + d - 1
				a := &e.ancTmp
				*a = e.anc[pn]
				for m := e.opos[u][d] &^ pm; m != 0; m &= m - 1 {
					cc := solve.Units[u][bits.TrailingZeros16(m)]
					a.or(&e.anc[2*(cc*9+d-1)])
				}
				a.add(2*o + 1)
				cnt := a.count()
				j, ok := onSlot(tmp, nt, o, cnt)
				if !ok {
					continue
				}
				nt = max(nt, j+1)
				t := &tmp[j]
				t.k, t.n, t.cause = o, cnt, 2+u
				t.anc = *a
			}
			if e.mode.dynamic {
				e.remove(c, d)
			}
			for j := 0; j < nt; j++ {
				t := &tmp[j]
				if r.off.has(t.k) {
					s := t.n + int(r.cnt[2*t.k])
					if best < 0 || s < best {
						best, bestK = s, t.k
						e.contraAnc = t.anc
						e.contraAnc.or(&e.anc[2*t.k])
					}
					continue
				}
				if r.on.has(t.k) {
					continue
				}
				r.on.add(t.k)
				e.cause[t.k] = t.cause
				on := 2*t.k + 1
				e.anc[on] = t.anc
				r.cnt[on] = chainCount16(t.n)
				e.qOn = append(e.qOn, int16(t.k))
			}
		} else {
			// advance returning false ends the run; advanceNested sets
			// r.endGrid when the inner producers concluded nothing.
			if e.mode.level > 0 && e.advance(r) {
				continue
			}
			return
		}
		if best >= 0 {
			r.contra, r.contraSum, r.contraK = true, best, bestK
			return
		}
	}
}

// runDynamic is runChain for the dynamic runs of level 0 that need no
// ancestor sets afterwards (none but the counts; nestParents asks for
// them with ancNeeded). The sets hold the nodes' numbers in the run's
// order rather than the nodes, so that a node's set, which holds only
// nodes reached before it, fits in its first nid/64+1 words, and an off
// node, whose ancestors are its parent's and itself, stores none: the
// counts, and so the contradictions and hints, are runChain's.
func (e *chainEngine) runDynamic(r *chainRun, k int, on bool) {
	e.startRun(r)
	n := 2*k + b2i(on)
	e.nid[n] = 0
	next := 1 // the number of the next node reached
	r.cnt[n] = 1
	if on {
		e.anc[n][0] = 1
		e.cause[k] = 0
		r.on.add(k)
		e.qOn = append(e.qOn, int16(k))
	} else {
		e.offPar[n] = -1
		r.off.add(k)
		e.qOff = append(e.qOff, int16(k))
	}
	// orOff adds the ancestors of off node x to a.
	orOff := func(a *chainBits, x int) {
		if p := int(e.offPar[x]); p >= 0 {
			pa := &e.anc[p]
			for i := range int(e.nid[p])>>6 + 1 {
				a[i] |= pa[i]
			}
		}
		id := e.nid[x]
		a[id>>6] |= 1 << (id & 63)
	}
	y := !e.mode.nishio
	hOn, hOff := 0, 0
	tmp := &e.tmpOn
	for {
		best := -1
		bestK := 0
		if hOn < len(e.qOn) {
			p := int(e.qOn[hOn])
			hOn++
			pn := 2*p + 1
			cq := r.cnt[pn] + 1
			for _, q16 := range e.turnedOff(p, y) {
				q := int(q16)
				if r.on.has(q) {
					s := int(r.cnt[2*q+1]) + int(cq)
					if best < 0 || s < best {
						best, bestK = s, q
					}
					continue
				}
				if r.off.has(q) {
					continue
				}
				r.off.add(q)
				qn := 2 * q
				e.nid[qn] = int16(next)
				next++
				e.offPar[qn] = int16(pn)
				r.cnt[qn] = cq
				e.qOff = append(e.qOff, int16(q))
			}
		} else if hOff < len(e.qOff) {
			p := int(e.qOff[hOff])
			hOff++
			pn := 2 * p
			c, d := p/9, p%9+1
			// The words a new set may use: the numbers so far, and those
			// of the (at most 4) nodes this one turns on.
			nw := (next+len(tmp))>>6 + 1
			nt := 0
			if y && bits.OnesCount16(e.work[c]) == 2 {
				o := c*9 + bits.TrailingZeros16(e.work[c]&^(1<<d)) - 1
				t := &tmp[nt]
				nt++
				t.k = o
				t.cause = 1
				clear(t.anc[:nw])
				orOff(&t.anc, pn)
				for m := e.orig[c] &^ e.work[c]; m != 0; m &= m - 1 {
					orOff(&t.anc, 2*(c*9+bits.TrailingZeros16(m)-1))
				}
				t.n = 1 // the node itself
				for _, w := range t.anc[:nw] {
					t.n += bits.OnesCount64(w)
				}
			}
			for _, u := range chainHouses[c] {
				pm := e.pos[u][d]
				if bits.OnesCount16(pm) != 2 {
					continue
				}
				oc := solve.Units[u][bits.TrailingZeros16(pm&^(1<<chainPos[u][c]))]
				o := oc*9 + d - 1
				a := &e.ancTmp
				clear(a[:nw])
				orOff(a, pn)
				for m := e.opos[u][d] &^ pm; m != 0; m &= m - 1 {
					cc := solve.Units[u][bits.TrailingZeros16(m)]
					orOff(a, 2*(cc*9+d-1))
				}
				cnt := 1
				for _, w := range a[:nw] {
					cnt += bits.OnesCount64(w)
				}
				j, ok := onSlot(tmp, nt, o, cnt)
				if !ok {
					continue
				}
				nt = max(nt, j+1)
				t := &tmp[j]
				t.k, t.n, t.cause = o, cnt, 2+u
				copy(t.anc[:nw], a[:nw])
			}
			e.remove(c, d)
			for j := 0; j < nt; j++ {
				t := &tmp[j]
				if r.off.has(t.k) {
					s := t.n + int(r.cnt[2*t.k])
					if best < 0 || s < best {
						best, bestK = s, t.k
					}
					continue
				}
				if r.on.has(t.k) {
					continue
				}
				r.on.add(t.k)
				e.cause[t.k] = t.cause
				on := 2*t.k + 1
				id := next
				next++
				e.nid[on] = int16(id)
				a := &e.anc[on]
				copy(a[:id>>6+1], t.anc[:id>>6+1])
				a[id>>6] |= 1 << (id & 63)
				r.cnt[on] = chainCount16(t.n)
				e.qOn = append(e.qOn, int16(t.k))
			}
		} else {
			return
		}
		if best >= 0 {
			r.contra, r.contraSum, r.contraK = true, best, bestK
			return
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// multipleChains runs one of SE's multiple-chain producers over the grid
// and records its hints in h.
func (e *chainEngine) multipleChains(h *chainHints, cands *Candidates, m chainMode) {
	e.mode = m
	e.orig = cands
	if m.level >= 2 && e.sink != nil {
		e.memo.reset() // the grid the chains start from is new
	}
	e.reuseGen = 0
	if e.sink == nil && m.level == 3 && e.memo.lastLevel == 2 && e.memo.lastOrig == cands && !e.exhaustive {
		e.reuseGen = e.gen
	}
	e.memo.lastLevel, e.memo.lastOrig = m.level, cands
	e.gen++
	if e.gen == 0 {
		e.onGen = [729]uint32{}
		e.gen = 1
	}
	if e.posGiven != nil {
		e.opos = *e.posGiven
	} else {
		chainUnitPositionsAll(cands, &e.opos)
	}
	if !m.dynamic {
		e.links.build(cands, &e.opos, true, true, true, allDigits)
	}
	base := m.tech.BaseRating()
	// A run from an assumption that holds in the solution meets no
	// contradiction. Knowing the solution (at the top level), Nishio
	// needs only the runs from assumptions that fail, and the dynamic
	// chains' "off" runs of bivalue cells, which only look for one, need
	// only those of the solution's digits. The nested levels keep every
	// run: their memo of inner grids follows the runs made.
	var sol *solve.Grid
	if e.sink == nil && h != nil && m.level == 0 {
		sol = h.sol
	}
	e.nishioHit = 0
	for c := 0; c < 81; c++ {
		cm := cands[c]
		card := bits.OnesCount16(cm)
		if !(card > 2 || (card > 1 && m.dynamic)) {
			continue
		}
		if e.skip != nil && e.skip.cell[c] {
			continue
		}
		doDouble := card >= 3 && !m.nishio && m.dynamic
		doContra := m.dynamic || m.nishio
		var cellOn, cellOff chainSet
		first := true
		for mm := cm; mm != 0; mm &= mm - 1 {
			d := bits.TrailingZeros16(mm)
			k := c*9 + d - 1
			var one chainCells81
			one.add(c)
			if m.nishio && sol != nil {
				if e.nishioSkip&(1<<d) == 0 {
					e.nishioRuns(h, c, d, int(sol[c]) == d, one)
				}
				continue
			}
			r := e.onRun(k)
			if doContra && r.contra {
				if e.sink != nil {
					e.nestOffer(base+LengthBonus(r.contraSum), r.contraSum, 7, k, false, chainNestHint{kind: nestContra, src: k, on: true})
				} else {
					h.begin(r.contraSum, 7)
					h.add(base+LengthBonus(r.contraSum), m.tech, c, 1<<d, 0, one, 1<<d)
				}
			}
			if doContra && !doDouble && sol != nil && int(sol[c]) != d {
				// Only a contradiction could come of the "off" run, and
				// d is not the cell's digit.
			} else if doContra || doDouble {
				ro := &e.offRun
				e.run(ro, k, false)
				if doContra && ro.contra {
					if e.sink != nil {
						e.nestOffer(base+LengthBonus(ro.contraSum), ro.contraSum, 7, k, true, chainNestHint{kind: nestContra, src: k, on: false})
					} else {
						h.begin(ro.contraSum, 7)
						h.add(base+LengthBonus(ro.contraSum), m.tech, c, 0, d, one, 1<<d)
					}
				}
				if doDouble {
					e.desc = chainNestHint{kind: nestDouble, src: k}
					for i := range r.on {
						for w := r.on[i] & ro.on[i]; w != 0; w &= w - 1 {
							p := i*64 + bits.TrailingZeros64(w)
							n := int(r.cnt[2*p+1]) + int(ro.cnt[2*p+1]) + e.nestSum(2*p+1, r, ro)
							e.hint(h, base+LengthBonus(n), n, 1, c, p, true)
						}
						for w := r.off[i] & ro.off[i]; w != 0; w &= w - 1 {
							p := i*64 + bits.TrailingZeros64(w)
							n := int(r.cnt[2*p]) + int(ro.cnt[2*p]) + e.nestSum(2*p, r, ro)
							e.hint(h, base+LengthBonus(n), n, 1, c, p, false)
						}
					}
				}
			}
			if first {
				cellOn, cellOff = r.on, r.off
				first = false
			} else {
				for i := range cellOn {
					cellOn[i] &= r.on[i]
					cellOff[i] &= r.off[i]
				}
			}
		}
		if m.nishio || !(card == 2 || (m.multiple && card > 2)) {
			if e.stopNow(h) {
				return
			}
			continue
		}
		e.desc = chainNestHint{kind: nestCell, src: c}
		for i := range cellOn {
			for w := cellOn[i]; w != 0; w &= w - 1 {
				p := i*64 + bits.TrailingZeros64(w)
				n := 0
				for mm := cm; mm != 0; mm &= mm - 1 {
					n += int(e.onRuns[c*9+bits.TrailingZeros16(mm)-1].cnt[2*p+1])
				}
				n += e.cellNestSum(cm, c, 2*p+1)
				e.hint(h, base+LengthBonus(n), n, 5, c, p, true)
			}
			for w := cellOff[i]; w != 0; w &= w - 1 {
				p := i*64 + bits.TrailingZeros64(w)
				n := 0
				for mm := cm; mm != 0; mm &= mm - 1 {
					n += int(e.onRuns[c*9+bits.TrailingZeros16(mm)-1].cnt[2*p])
				}
				n += e.cellNestSum(cm, c, 2*p)
				e.hint(h, base+LengthBonus(n), n, 5, c, p, false)
			}
		}
		if e.stopNow(h) {
			return
		}
	}
	if !m.nishio {
		e.regionChains(h)
	}
	if e.sink == nil && m.multiple && !m.dynamic {
		e.keepStaticRuns(h)
	}
}

// nishioRuns is the body of multipleChains' loop for Nishio at the top
// level, given whether candidate d of cell c is the solution's digit:
// it makes only the run that may end in a contradiction, and records
// the hint of that contradiction as the loop would.
func (e *chainEngine) nishioRuns(h *chainHints, c, d int, holds bool, one chainCells81) {
	k := c*9 + d - 1
	base := e.mode.tech.BaseRating()
	if !holds {
		if r := e.onRun(k); r.contra {
			e.nishioHit |= 1 << d
			h.begin(r.contraSum, 7)
			h.add(base+LengthBonus(r.contraSum), e.mode.tech, c, 1<<d, 0, one, 1<<d)
		}
		return
	}
	ro := &e.offRun
	e.run(ro, k, false)
	if ro.contra {
		e.nishioHit |= 1 << d
		h.begin(ro.contraSum, 7)
		h.add(base+LengthBonus(ro.contraSum), e.mode.tech, c, 0, d, one, 1<<d)
	}
}

// stopNow reports whether a nested producer call may stop: it has a hint
// rated at most stopAt. The puzzle's rating is already that high, so a
// lower rated hint would not change it; SE's raters stop the same way.
func (e *chainEngine) stopNow(h *chainHints) bool {
	return e.stopAt > 0 && h != nil && h.found() && h.best <= e.stopAt
}

// hint records the conclusion that candidate p is on (placed) or off,
// reached from the assumptions on cell src.
func (e *chainEngine) hint(h *chainHints, r Rating, nodes, sortKey, src, p int, on bool) {
	if e.sink != nil {
		d := e.desc
		d.on = on
		e.nestOffer(r, nodes, sortKey, p, on, d)
		return
	}
	if !h.consider(r) {
		return
	}
	h.begin(nodes, sortKey)
	var cells chainCells81
	cells.add(src)
	cells.add(p / 9)
	d := p%9 + 1
	if on {
		h.add(r, e.mode.tech, p/9, 0, d, cells, 1<<d)
	} else {
		h.add(r, e.mode.tech, p/9, 1<<d, 0, cells, 1<<d)
	}
}

// regionChains tries every house and digit: each place of the digit in
// the house is assumed in turn, and what all of them force is concluded.
//
// SE tries a house only from its first cell, and its static multiple
// chains skip bivalue cells, so SE misses the houses whose first place is
// a bivalue cell there; which cell is first depends on how the grid is
// written, so we try every house to keep grades equal on isomorphs.
func (e *chainEngine) regionChains(h *chainHints) {
	for u := 0; u < 27; u++ {
		for d := 1; d <= 9; d++ {
			e.regionChain(h, u, d)
		}
		if e.stopNow(h) {
			return
		}
	}
}

// regionChain tries digit d in unit u.
func (e *chainEngine) regionChain(h *chainHints, u, d int) {
	m := e.mode
	base := m.tech.BaseRating()
	{
		pm := e.opos[u][d]
		card := bits.OnesCount16(pm)
		if !(card == 2 || (m.multiple && card > 2)) {
			return
		}
		if e.skip != nil && e.skip.region[u][d] {
			return
		}
		c := solve.Units[u][bits.TrailingZeros16(pm)]
		e.desc = chainNestHint{kind: nestRegion, u: u, d: d}
		var branches [9]*chainRun
		nb := 0
		var regOn, regOff chainSet
		for w := pm; w != 0; w &= w - 1 {
			oc := solve.Units[u][bits.TrailingZeros16(w)]
			br := e.onRun(oc*9 + d - 1)
			if nb == 0 {
				regOn, regOff = br.on, br.off
			}
			branches[nb] = br
			nb++
			for i := range regOn {
				regOn[i] &= br.on[i]
				regOff[i] &= br.off[i]
			}
		}
		for i := range regOn {
			for w := regOn[i]; w != 0; w &= w - 1 {
				p := i*64 + bits.TrailingZeros64(w)
				n := 0
				for _, br := range branches[:nb] {
					n += int(br.cnt[2*p+1])
				}
				n += e.nestSum(2*p+1, branches[:nb]...)
				e.hint(h, base+LengthBonus(n), n, 6, c, p, true)
			}
			for w := regOff[i]; w != 0; w &= w - 1 {
				p := i*64 + bits.TrailingZeros64(w)
				n := 0
				for _, br := range branches[:nb] {
					n += int(br.cnt[2*p])
				}
				n += e.nestSum(2*p, branches[:nb]...)
				e.hint(h, base+LengthBonus(n), n, 6, c, p, false)
			}
		}
	}
}
