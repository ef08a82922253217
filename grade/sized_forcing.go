package grade

import (
	"math/bits"
	"slices"
)

// SE's forcing chains that follow every consequence of an assumption,
// generalised to every shape: Nishio (7.5 + length), multiple (cell and
// region) forcing chains (8.0 + length), dynamic forcing chains
// (8.5 + length), dynamic forcing chains (+) (9.0 + length) and nested
// forcing chains (9.5, 10.0, 10.5 and 11.0 + length, sized_nested.go and
// sized_nested3.go), with the rules of chainEngine.multipleChains and
// chainEngine.runChain (chain_forcing.go) at nesting levels 0 to 5. A node is 2*k + 1 for candidate k (k = N*cell + digit - 1) on, 2*k for k off.
//
// Unlike the 9x9 engine, runs are not cached with a count per node (that
// would take 2*N^3 counts per candidate, 64 MB on 16x16): a run's on
// and off sets are cached with the counts of their nodes only, as dense
// sets up to 16x16 and as lists of nodes past it (dense sets would take
// 61 MB on 25x25), and the region chains try a house only where those
// sets meet. Dynamic runs keep the ancestor set of each on node (and of
// each off node a "(+)" rule made), numbered in the order the run found
// them, so that a set takes only the words of the nodes found before
// it: a few thousand words in all per run on 25x25, where sets of
// 2*N^3 bits would take 4 KB a node. Nishio runs stay on one digit and
// index their nodes by cell. Every producer call stops after
// sforceBudget processed nodes, or at a run whose ancestor sets pass
// sforceAncMax words: a step past those bounds is not found and the
// puzzle stays unfinished.

// sforceBudget bounds the nodes one producer call may process. It is a
// node count, not a time, so that a grade never depends on the machine.
const sforceBudget = 40_000_000

// sforceMaxN is the largest N whose dynamic runs keep ancestor sets.
const sforceMaxN = 25

// sforceDenseMaxN is the largest N whose runs are cached as dense sets,
// two of 2*N^3 bits per candidate (8 MB on 16x16, 61 MB on 25x25).
const sforceDenseMaxN = 16

// sforceAncMax bounds the words the ancestor sets of one run take (16
// MB), as sforceBudget bounds its nodes: numbered in the order found,
// they take a few thousand words on the 25x25 puzzles measured, but a
// run whose "(+)" rules remove thousands of candidates could take more.
const sforceAncMax = 1 << 21

// sforceSparseMax bounds the nodes a sparse cache holds in one producer
// call (6 bytes each).
const sforceSparseMax = 1 << 21

// srun is the outcome of one assumption: the candidates forced on and
// off, and the ancestor count of each of those nodes.
type srun struct {
	on, off   []uint64 // candidate sets
	cnt       []int16  // per node
	contra    bool
	contraSum int
	// The nested chains behind each node (nested levels only; see
	// sized_nested.go): nmask per node over the run's chains nID.
	nmask []uint64
	nID   []int32
}

func newSrun(nk int) srun {
	w := (nk + 63) / 64
	return srun{on: make([]uint64, w), off: make([]uint64, w), cnt: make([]int16, 2*nk)}
}

func setHas(s []uint64, k int) bool { return s[k>>6]&(1<<(k&63)) != 0 }
func setAdd(s []uint64, k int)      { s[k>>6] |= 1 << (k & 63) }

// sforce is the scratch of the sized forcing chain producers.
type sforce struct {
	g       *sgeom
	n, nk   int
	dynamic bool
	nishio  bool
	level   int // 1 for dynamic forcing chains (+): runs use the simple techniques
	tech    Technique
	orig    []uint32
	work    []uint32
	opos    []uint32 // orig's positions per unit and digit, as sstate.where
	pos     []uint32 // work's
	nw      int      // words of a node set; 0 past sforceMaxN
	// Ancestor sets (dynamic runs only) index a node by the order in
	// which the run found it (nid, per ancestor index), so that a set
	// takes only the words of the nodes found before it: only counts are
	// read, and they do not depend on the numbering. The set of an on
	// node lies in anc from ancAt, with ancN its size. An off node's set
	// is its parent's plus itself, so it is not stored: offPar holds the
	// parent (-1 for a start).
	anc    []uint64
	ancAt  []int32
	ancN   []int32
	nid    []int32
	next   int32 // the id of the next node found
	ancBuf []uint64
	offPar []int32
	pars   []int32 // scratch: the distinct parents of a set's sources
	// A consequence being built: its candidate, ancestor count, and the
	// off nodes whose sets make up its ancestors (slot 4 is spare).
	tmpSrc   [5][]int32
	tmpK     [4]int
	tmpN     [4]int
	qOn      []int32
	qOff     []int32
	rOn, rOf srun
	accOn    []uint64
	accOff   []uint64
	accSum   []int32 // per node, the counts summed over the branches
	spent    int     // nodes processed in this producer call
	budget   int     // the most nodes one producer call may process
	over     bool    // the budget ran out
	// cache holds, per candidate k, the on and off sets of its run
	// assumed on, valid when cacheGen[k] is gen: the region chains
	// intersect those first and recompute the runs, for their counts,
	// only where something is left. nil past sforceMaxN.
	cache    []uint64
	cacheGen []uint32
	gen      uint32
	// The counts of a cached run, those of its on nodes then of its off
	// nodes in increasing order, lie in cacheCnt from cacheAt[k]; the
	// region chains reuse them instead of running again, and charge the
	// budget the nodes (cacheSpent[k]) the run took.
	cacheCnt   []int16
	cacheAt    []int32
	cacheLen   []int32
	cacheSpent []int32
	// Past sforceDenseMaxN the cache is sparse (cache is nil): a run's
	// nodes lie in cacheNode beside their counts; regionMeets keeps the
	// nodes common to the runs so far in meet, and tells a run's nodes
	// by setting stampOf (per node) to stamp.
	cacheNode []int32
	meet      []int32
	stampOf   []uint32
	stamp     uint32
	runFrom   int // spent when the last run began
	// kCell and kDig are the cell and digit of each candidate, so that
	// the runs divide by no N.
	kCell []uint16
	kDig  []uint8
	// remU has, in word pair d, bit u set when the run removed digit d
	// in unit u (pair 0: any digit); the "(+)" rules skip the others.
	remU []uint64
	// The hint a "(+)" rule is building: its removals, its parents and
	// their ancestor indices; found and added say whether the rule had
	// a hint that relies on the run, and whether it made a node.
	plusRem, plusPar, plusSrc []int32
	found, added              bool
	// nest is the state of the nested levels (2 to 5), made when
	// first needed; cKind, cQ, cP and cSrc describe the contradiction a
	// run found, for the nested chains behind it.
	nest *snest
	// nestExhaustive turns off the inner search's bounds (newStrong),
	// which only spare work (TestSizedNestedBounds).
	nestExhaustive bool
	// stopAt, when not 0, ends a producer call of the nested levels as
	// soon as it has a hint rated at most stopAt, as chainEngine.stopNow.
	stopAt Rating
	cKind  int
	cQ, cP int
	cSrc   []int32
	// ancPeak is the most words the ancestor sets of one run took;
	// past ancMax, the producer call stops as past its node budget.
	ancPeak, ancMax int
	// maxLevel, when not 0, is the deepest nesting level tried.
	maxLevel int
	// The nested levels 3 to 5 (sized_nested3.go): inner is the engine
	// of their inner multiple chain producers; outer, when set, makes
	// this engine such a producer, whose hints go to outer's nested
	// state (desc says what the hints being offered come from).
	// ancNeeded makes static runs keep ancestor sets, and cause[k] says
	// what turned candidate k on in the last run (0 the assumption, 1
	// its cell, 2+u unit u), for the parents of an inner hint; idNode
	// maps a node id of the run back to its ancestor index; cCause is
	// the cause of the on node whose contradiction ended the run.
	inner     *sforce
	outer     *sforce
	desc      snestHint
	ancNeeded bool
	cause     []int32
	idNode    []int32
	tmpCause  [5]int32
	cCause    int32
	// skipCell and skipRg (per unit*(N+1) + digit), when set, are the
	// cells and houses an inner static producer need not try: they
	// conclude nothing (sforce.staticSkips).
	skipCell, skipRg []bool
}

// ownSet in offPar marks an off node whose ancestor set is stored, as an
// on node's is: one a "(+)" rule made, with several parents.
const ownSet = -2

// houseType is the unit type of each of sgeom.houses' entries.
var houseType = [3]int{boxType, rowType, colType}

func newSforce(g *sgeom) *sforce {
	nk := g.nc * g.n
	f := &sforce{g: g, n: g.n, nk: nk, budget: sforceBudget, ancMax: sforceAncMax,
		work: make([]uint32, g.nc), pos: make([]uint32, g.nu*(g.n+1)),
		qOn: make([]int32, 0, nk), qOff: make([]int32, 0, nk),
		rOn: newSrun(nk), rOf: newSrun(nk),
		accOn: make([]uint64, (nk+63)/64), accOff: make([]uint64, (nk+63)/64),
		accSum: make([]int32, 2*nk),
	}
	f.kCell, f.kDig = make([]uint16, nk), make([]uint8, nk)
	f.remU = make([]uint64, 2*(g.n+1))
	for k := range nk {
		f.kCell[k], f.kDig[k] = uint16(k/g.n), uint8(k%g.n+1)
	}
	// Nishio runs index their ancestors by cell: 2*N^2 nodes suffice.
	nodes := 2 * g.nc
	if g.n <= sforceMaxN {
		f.nw = (2*nk + 63) / 64
		nodes = 2 * nk
		if g.n <= sforceDenseMaxN {
			f.cache = make([]uint64, nk*2*len(f.accOn))
		} else {
			f.stampOf = make([]uint32, 2*nk)
		}
		f.cacheGen = make([]uint32, nk)
		f.cacheAt = make([]int32, nk)
		f.cacheLen = make([]int32, nk)
		f.cacheSpent = make([]int32, nk)
	}
	f.anc = make([]uint64, 0, 1024)
	f.ancBuf = make([]uint64, (nodes+63)/64)
	f.ancAt = make([]int32, nodes)
	f.idNode = make([]int32, nodes)
	f.cause = make([]int32, nk)
	f.nid = make([]int32, nodes)
	f.ancN = make([]int32, nodes)
	f.offPar = make([]int32, nodes)
	f.pars = make([]int32, 0, g.n+2)
	for i := range f.tmpSrc {
		f.tmpSrc[i] = make([]int32, 0, g.n+2)
	}
	return f
}

// ai returns the index of node in the ancestor sets: the node itself,
// or in a Nishio run, whose nodes all hold one digit, 2*cell + on.
func (f *sforce) ai(node int) int {
	if f.nishio {
		return 2*int(f.kCell[node>>1]) + node&1
	}
	return node
}

// ancSet returns the ancestor set of the on node with ancestor index i.
func (f *sforce) ancSet(i int32) []uint64 {
	at := f.ancAt[i]
	return f.anc[at : at+f.nid[i]/64+1]
}

// parents collects in f.pars the distinct nodes whose stored sets hold
// the ancestors of the off nodes src (ancestor indices): their parents,
// or themselves when their set is stored.
func (f *sforce) parents(src []int32) []int32 {
	pars := f.pars[:0]
	for _, x := range src {
		p := f.offPar[x]
		if p == ownSet {
			p = x
		}
		if p >= 0 && !slices.Contains(pars, p) {
			pars = append(pars, p)
		}
	}
	f.pars = pars
	return pars
}

// inAnyAnc reports whether the node with id is in the set of one of the
// on nodes pars.
func (f *sforce) inAnyAnc(pars []int32, id int32) bool {
	for _, p := range pars {
		a := f.ancSet(p)
		if w := int(id >> 6); w < len(a) && a[w]&(1<<(id&63)) != 0 {
			return true
		}
	}
	return false
}

// ancCount returns the size of the ancestor set of a new on node whose
// sources are the off nodes src (ancestor indices): the union of their
// sets and the node itself, without building it.
func (f *sforce) ancCount(src []int32) int {
	pars := f.parents(src)
	cnt := 1 // the node, new to the run
	switch len(pars) {
	case 0:
	case 1:
		cnt += int(f.ancN[pars[0]])
	default:
		n := 0
		for _, p := range pars {
			n = max(n, int(f.nid[p])/64+1)
		}
		buf := f.ancBuf[:n]
		clear(buf)
		for _, p := range pars {
			a := f.ancSet(p)
			orInto(buf[:len(a)], a)
		}
		for _, w := range buf {
			cnt += bits.OnesCount64(w)
		}
	}
	for _, x := range src {
		if !f.inAnyAnc(pars, f.nid[x]) {
			cnt++
		}
	}
	return cnt
}

// ancMake numbers the new on node with ancestor index i and builds its
// set, the one ancCount counts, of size cnt.
func (f *sforce) ancMake(i int, src []int32, cnt int) {
	pars := f.parents(src)
	id := f.next
	f.next++
	f.nid[i] = id
	f.idNode[id] = int32(i)
	at := len(f.anc)
	n := int(id)/64 + 1
	f.anc = slices.Grow(f.anc, n)[:at+n]
	f.ancPeak = max(f.ancPeak, len(f.anc))
	if len(f.anc) > f.ancMax {
		f.over = true // the run stops before its next node
	}
	f.ancAt[i] = int32(at)
	f.ancN[i] = int32(cnt)
	dst := f.anc[at:]
	clear(dst)
	for _, p := range pars {
		a := f.ancSet(p)
		orInto(dst[:len(a)], a)
	}
	for _, x := range src {
		setAdd(dst, int(f.nid[x]))
	}
	setAdd(dst, int(id))
}

func orInto(dst, src []uint64) {
	for i := range dst {
		dst[i] |= src[i]
	}
}

// forcing returns the easiest step of SE's producers past the cycles and
// chains: aligned triple exclusion, Nishio, multiple and dynamic forcing
// chains, tried in that order, or false.
func (s *sstate) forcing(f *sforce, h *schainHints) (SizedStep, bool) {
	h.reset(s.cands)
	s.alignedTriples(h)
	if h.any {
		return h.step(), true
	}
	modes := [...]struct {
		tech            Technique
		dynamic, nishio bool
	}{
		{Nishio, true, true},
		{MultipleForcingChains, false, false},
		{DynamicForcingChains, true, false},
		{DynamicForcingChainsPlus, true, false},
		{NestedForcingChains2, true, false},
		{NestedForcingChains3, true, false},
		{NestedForcingChains4, true, false},
		{NestedForcingChains5, true, false},
	}
	for _, m := range modes {
		if m.dynamic && !m.nishio && f.nw == 0 {
			// Without ancestor sets the dynamic producers cannot rate
			// their chains; a later producer must not stand in for them.
			break
		}
		h.reset(s.cands)
		f.tech, f.dynamic, f.nishio = m.tech, m.dynamic, m.nishio
		f.level = 0
		switch m.tech {
		case DynamicForcingChainsPlus:
			f.level = 1
		case NestedForcingChains2, NestedForcingChains3, NestedForcingChains4, NestedForcingChains5:
			f.level = 2 + int(m.tech-NestedForcingChains2)
			if f.maxLevel > 0 && f.level > f.maxLevel {
				return SizedStep{}, false
			}
			if f.nest == nil {
				f.nest = newSnest(f.g)
			}
			// The inner producers' conclusions on a grid hold for the
			// whole step: level 3 asks first what level 2 asked, and
			// finds it in the memo, as in chainer.next.
			if f.level == 2 {
				f.nest.resetCall()
			}
		}
		f.multipleChains(s.cands, s.where, h)
		if f.over {
			return SizedStep{}, false
		}
		if h.any {
			return h.step(), true
		}
	}
	return SizedStep{}, false
}

// multipleChains runs one producer over the grid orig, whose positions
// per unit and digit are opos (as sstate.where). An inner producer
// (outer set) offers its hints to outer's nested state and takes no h.
func (f *sforce) multipleChains(orig, opos []uint32, h *schainHints) {
	g := f.g
	n := f.n
	f.orig = orig
	f.opos = opos
	f.spent, f.over = 0, false
	f.gen++
	f.cacheCnt, f.cacheNode = f.cacheCnt[:0], f.cacheNode[:0]
	if f.gen == 0 {
		clear(f.cacheGen)
		f.gen = 1
	}
	base := f.tech.BaseRating()
	copy(f.work, f.orig)
	copy(f.pos, f.opos)
	for c := 0; c < g.nc; c++ {
		cm := f.orig[c]
		card := count32(cm)
		if !(card > 2 || (card > 1 && f.dynamic)) {
			continue
		}
		if f.skipCell != nil && f.skipCell[c] {
			continue
		}
		doDouble := card >= 3 && !f.nishio && f.dynamic
		doContra := f.dynamic
		first := true
		for mm := cm; mm != 0; mm &= mm - 1 {
			d := first32(mm)
			k := c*n + d - 1
			r := &f.rOn
			f.run(r, k, true)
			if f.over {
				return
			}
			if !f.nishio { // only the region chains read the cache
				f.keep(k, r)
			}
			one := []int32{int32(k)}
			if doContra && r.contra {
				if f.outer != nil {
					f.nestOffer(base+LengthBonus(r.contraSum), r.contraSum, 7, k, false, snestHint{kind: nestContra, src: k, on: true})
				} else {
					h.add(n, base+LengthBonus(r.contraSum), f.tech, c, 1<<d, 0, one)
				}
			}
			if doContra || doDouble {
				ro := &f.rOf
				f.run(ro, k, false)
				if f.over {
					return
				}
				if doContra && ro.contra {
					if f.outer != nil {
						f.nestOffer(base+LengthBonus(ro.contraSum), ro.contraSum, 7, k, true, snestHint{kind: nestContra, src: k, on: false})
					} else {
						h.add(n, base+LengthBonus(ro.contraSum), f.tech, c, 0, d, one)
					}
				}
				if doDouble {
					f.desc = snestHint{kind: nestDouble, src: k}
					for i := range r.on {
						for w := r.on[i] & ro.on[i]; w != 0; w &= w - 1 {
							p := i*64 + bits.TrailingZeros64(w)
							nn := int(r.cnt[2*p+1]) + int(ro.cnt[2*p+1]) + f.nestSum(2*p+1, r, ro)
							f.hint(h, base+LengthBonus(nn), nn, 1, c, p, true)
						}
						for w := r.off[i] & ro.off[i]; w != 0; w &= w - 1 {
							p := i*64 + bits.TrailingZeros64(w)
							nn := int(r.cnt[2*p]) + int(ro.cnt[2*p]) + f.nestSum(2*p, r, ro)
							f.hint(h, base+LengthBonus(nn), nn, 1, c, p, false)
						}
					}
				}
			}
			if !f.nishio {
				f.fold(r, first)
				first = false
			}
		}
		if !f.nishio {
			f.desc = snestHint{kind: nestCell, src: c}
			f.concludeAcc(h, base, c, 5)
		}
		if f.stopNow(h) {
			return
		}
	}
	if !f.nishio {
		f.regionChains(h, base)
	}
}

// fold intersects the run r into the accumulated branches, summing the
// counts of the nodes all branches reach.
func (f *sforce) fold(r *srun, first bool) {
	if first {
		copy(f.accOn, r.on)
		copy(f.accOff, r.off)
	} else {
		for i := range f.accOn {
			f.accOn[i] &= r.on[i]
			f.accOff[i] &= r.off[i]
		}
	}
	for i := range f.accOn {
		for w := f.accOn[i]; w != 0; w &= w - 1 {
			p := i*64 + bits.TrailingZeros64(w)
			if first {
				f.accSum[2*p+1] = 0
			}
			f.accSum[2*p+1] += int32(r.cnt[2*p+1])
			if f.level >= 2 {
				f.foldNested(r, 2*p+1, first)
			}
		}
		for w := f.accOff[i]; w != 0; w &= w - 1 {
			p := i*64 + bits.TrailingZeros64(w)
			if first {
				f.accSum[2*p] = 0
			}
			f.accSum[2*p] += int32(r.cnt[2*p])
			if f.level >= 2 {
				f.foldNested(r, 2*p, first)
			}
		}
	}
}

// concludeAcc records what every branch forces, reached from cell src;
// key is SE's sort key of the hints (5 cell, 6 region).
func (f *sforce) concludeAcc(h *schainHints, base Rating, src, key int) {
	for i := range f.accOn {
		for w := f.accOn[i]; w != 0; w &= w - 1 {
			p := i*64 + bits.TrailingZeros64(w)
			nn := int(f.accSum[2*p+1]) + f.accNestSum(2*p+1)
			f.hint(h, base+LengthBonus(nn), nn, key, src, p, true)
		}
		for w := f.accOff[i]; w != 0; w &= w - 1 {
			p := i*64 + bits.TrailingZeros64(w)
			nn := int(f.accSum[2*p]) + f.accNestSum(2*p)
			f.hint(h, base+LengthBonus(nn), nn, key, src, p, false)
		}
	}
}

// hint records that candidate p is on (placed) or off, reached from the
// assumptions on cell src with a chain of nodes nodes and sort key key
// (which only an inner producer's hints use).
func (f *sforce) hint(h *schainHints, r Rating, nodes, key, src, p int, on bool) {
	if f.outer != nil {
		d := f.desc
		d.on = on
		f.nestOffer(r, nodes, key, p, on, d)
		return
	}
	if !h.consider(r) {
		return
	}
	n := f.n
	d := p%n + 1
	path := [2]int32{int32(src*n + p%n), int32(p)}
	if on {
		h.add(n, r, f.tech, p/n, 0, d, path[:])
	} else {
		h.add(n, r, f.tech, p/n, 1<<d, 0, path[:])
	}
}

// regionChains tries every house and digit with two places or more, as
// chainEngine.regionChains does.
func (f *sforce) regionChains(h *schainHints, base Rating) {
	g := f.g
	n := f.n
	for u := 0; u < g.nu; u++ {
		for d := 1; d <= n; d++ {
			pm := f.opos[u*(n+1)+d]
			if count32(pm) < 2 || f.skipRg != nil && f.skipRg[u*(n+1)+d] {
				continue
			}
			if f.outer == nil && !h.consider(base) || !f.regionMeets(pm, u, d) {
				continue
			}
			first := true
			for w := pm; w != 0; w &= w - 1 {
				k := g.cell(u, first32(w))*n + d - 1
				// The cache keeps no nested chains: at the nested level
				// the run is made again.
				if f.cacheGen != nil && f.cacheGen[k] == f.gen && f.level < 2 {
					f.restore(k, &f.rOn)
				} else {
					f.run(&f.rOn, k, true)
					if !f.over {
						f.keep(k, &f.rOn)
					}
				}
				if f.over {
					return
				}
				f.fold(&f.rOn, first)
				first = false
			}
			f.desc = snestHint{kind: nestRegion, u: u, d: d}
			f.concludeAcc(h, base, g.cell(u, first32(pm)), 6)
		}
		if f.stopNow(h) {
			return
		}
	}
}

// stopNow reports whether a producer call of the nested levels may stop:
// it has a hint rated at most stopAt. The puzzle's rating is already
// that high, so a lower rated hint would not change it.
func (f *sforce) stopNow(h *schainHints) bool {
	return f.level >= 2 && f.stopAt > 0 && h != nil && h.any && h.best <= f.stopAt
}

// keep caches the sets of run r of candidate k assumed on, the last run
// made. A sparse cache that is full keeps no more: the run is then
// computed again when needed.
func (f *sforce) keep(k int, r *srun) {
	if f.cacheGen == nil {
		return
	}
	at := len(f.cacheCnt)
	if f.cache == nil {
		if at > sforceSparseMax {
			return
		}
		// The run's queues hold its nodes, each once.
		for _, q := range f.qOn {
			x := 2*q + 1
			f.cacheNode = append(f.cacheNode, x)
			f.cacheCnt = append(f.cacheCnt, r.cnt[x])
		}
		for _, q := range f.qOff {
			x := 2 * q
			f.cacheNode = append(f.cacheNode, x)
			f.cacheCnt = append(f.cacheCnt, r.cnt[x])
		}
		f.cacheMark(k, at)
		return
	}
	w := len(r.on)
	copy(f.cache[2*k*w:], r.on)
	copy(f.cache[(2*k+1)*w:], r.off)
	for i := range r.on {
		for m := r.on[i]; m != 0; m &= m - 1 {
			f.cacheCnt = append(f.cacheCnt, r.cnt[2*(i*64+bits.TrailingZeros64(m))+1])
		}
	}
	for i := range r.off {
		for m := r.off[i]; m != 0; m &= m - 1 {
			f.cacheCnt = append(f.cacheCnt, r.cnt[2*(i*64+bits.TrailingZeros64(m))])
		}
	}
	f.cacheMark(k, at)
}

// cacheMark records that the cache holds the run of candidate k from
// entry at of cacheCnt on.
func (f *sforce) cacheMark(k, at int) {
	f.cacheGen[k] = f.gen
	f.cacheAt[k] = int32(at)
	f.cacheLen[k] = int32(len(f.cacheCnt) - at)
	f.cacheSpent[k] = int32(f.spent - f.runFrom)
}

// cachedNodes returns the nodes of the sparse cache's run of candidate k
// (on nodes 2p+1, off nodes 2p) with their counts.
func (f *sforce) cachedNodes(k int) ([]int32, []int16) {
	at, n := f.cacheAt[k], f.cacheLen[k]
	return f.cacheNode[at : at+n], f.cacheCnt[at : at+n]
}

// setNodes fills the candidate sets on and off with the nodes of a
// sparse cache's run.
func setNodes(on, off []uint64, nodes []int32) {
	clear(on)
	clear(off)
	for _, x := range nodes {
		if x&1 == 1 {
			setAdd(on, int(x>>1))
		} else {
			setAdd(off, int(x>>1))
		}
	}
}

// restore puts the cached run of candidate k assumed on into r, with
// its sets and counts (fold reads no more), charging the budget the
// nodes that run took, as running it again would.
func (f *sforce) restore(k int, r *srun) {
	f.spent += int(f.cacheSpent[k])
	if f.spent > f.budget {
		f.over = true
		return
	}
	if f.cache == nil {
		nodes, cnts := f.cachedNodes(k)
		setNodes(r.on, r.off, nodes)
		for i, x := range nodes {
			r.cnt[x] = cnts[i]
		}
		return
	}
	w := len(r.on)
	copy(r.on, f.cache[2*k*w:(2*k+1)*w])
	copy(r.off, f.cache[(2*k+1)*w:(2*k+2)*w])
	at := int(f.cacheAt[k])
	for i := range r.on {
		for m := r.on[i]; m != 0; m &= m - 1 {
			r.cnt[2*(i*64+bits.TrailingZeros64(m))+1] = f.cacheCnt[at]
			at++
		}
	}
	for i := range r.off {
		for m := r.off[i]; m != 0; m &= m - 1 {
			r.cnt[2*(i*64+bits.TrailingZeros64(m))] = f.cacheCnt[at]
			at++
		}
	}
}

// regionMeets reports whether the runs of digit d in the places pm of
// unit u, assumed on, may all reach a common node: false only when
// their cached sets, computed as needed, share none.
func (f *sforce) regionMeets(pm uint32, u, d int) bool {
	if f.cacheGen == nil {
		return true
	}
	g := f.g
	n := f.n
	w := len(f.accOn)
	first := true
	for m := pm; m != 0; m &= m - 1 {
		k := g.cell(u, first32(m))*n + d - 1
		if f.cacheGen[k] != f.gen {
			f.run(&f.rOn, k, true)
			if f.over {
				return true // the caller's run stops at once
			}
			f.keep(k, &f.rOn)
			if f.cacheGen[k] != f.gen {
				return true // the sparse cache is full
			}
		}
		if f.cache == nil {
			if !f.meetNodes(k, first) {
				return false
			}
			first = false
			continue
		}
		on, off := f.cache[2*k*w:(2*k+1)*w], f.cache[(2*k+1)*w:(2*k+2)*w]
		if first {
			copy(f.accOn, on)
			copy(f.accOff, off)
			first = false
			continue
		}
		var any uint64
		for i := range f.accOn {
			f.accOn[i] &= on[i]
			f.accOff[i] &= off[i]
			any |= f.accOn[i] | f.accOff[i]
		}
		if any == 0 {
			return false
		}
	}
	return true
}

// meetNodes intersects the nodes of the sparse cache's run of candidate
// k with those kept in f.meet (or starts them when first), reporting
// whether any is left.
func (f *sforce) meetNodes(k int, first bool) bool {
	nodes, _ := f.cachedNodes(k)
	if first {
		f.meet = append(f.meet[:0], nodes...)
		return len(f.meet) > 0
	}
	f.stamp++
	if f.stamp == 0 {
		clear(f.stampOf)
		f.stamp = 1
	}
	for _, x := range nodes {
		f.stampOf[x] = f.stamp
	}
	j := 0
	for _, x := range f.meet {
		if f.stampOf[x] == f.stamp {
			f.meet[j] = x
			j++
		}
	}
	f.meet = f.meet[:j]
	return j > 0
}

// remove takes candidate d of cell c out of the working grid.
func (f *sforce) remove(c, d int) {
	g := f.g
	f.work[c] &^= 1 << d
	for t := 0; t < 3; t++ {
		u := int(g.cellUnits[c][t])
		f.pos[u*(f.n+1)+d] &^= 1 << g.cellIndex[c][t]
		f.remU[2*d+u>>6] |= 1 << (u & 63)
		f.remU[u>>6] |= 1 << (u & 63)
	}
}

// run propagates the assumption that candidate k is on (or off) into r,
// as chainEngine.runChain does: breadth first, on nodes before off
// nodes, stopping at the first contradiction. Static runs count a node's
// depth, which is its ancestor count there, and keep no ancestor sets.
func (f *sforce) run(r *srun, k int, on bool) {
	nested := f.level >= 2 && f.dynamic
	if nested {
		f.nest.resetRun()
	}
	f.runChain(r, k, on)
	if nested {
		f.finishRun(r)
	} else {
		r.nID = r.nID[:0]
	}
}

// finishRun records the nested chains behind the nodes of the run r just
// made, and adds those behind its contradiction to its count.
func (f *sforce) finishRun(r *srun) {
	f.finishNested(r)
	if !r.contra || len(r.nID) == 0 {
		return
	}
	var m uint64
	if f.cKind == 1 {
		m = f.nodeMask(f.ai(2*f.cQ+1), true) | f.nodeMask(f.ai(f.cP), true)
	} else {
		m = f.srcMask(f.cSrc) | f.nodeMask(f.ai(2*f.cQ), false)
	}
	f.newMark()
	r.contraSum += f.maskSum(r, m)
}

// runChain is run without the nested chains' tallies.
func (f *sforce) runChain(r *srun, k int, on bool) {
	g := f.g
	n := f.n
	f.runFrom = f.spent
	clear(r.on)
	clear(r.off)
	r.contra = false
	if f.dynamic {
		copy(f.work, f.orig)
		copy(f.pos, f.opos)
		clear(f.remU)
	}
	// dyn says the run keeps ancestor sets: every dynamic run does, and
	// a static one that an inner hint's parents are read from.
	dyn := f.dynamic || f.ancNeeded
	qOn, qOff := f.qOn[:0], f.qOff[:0]
	defer func() { f.qOn, f.qOff = qOn, qOff }()
	nd := 2*k + b2i(on)
	if dyn {
		f.anc, f.next = f.anc[:0], 0
		if on {
			f.ancMake(f.ai(nd), nil, 1)
		} else {
			f.nid[f.ai(nd)] = 0
			f.idNode[0] = int32(f.ai(nd))
			f.next = 1
			f.offPar[f.ai(nd)] = -1
		}
	}
	r.cnt[nd] = 1
	if on {
		f.cause[k] = 0
		setAdd(r.on, k)
		qOn = append(qOn, int32(k))
	} else {
		setAdd(r.off, k)
		qOff = append(qOff, int32(k))
	}
	y := !f.nishio
	hOn, hOff := 0, 0
	for {
		f.spent++
		if f.spent > f.budget || f.over {
			f.over = true
			return
		}
		best := -1
		if hOn < len(qOn) {
			p := int(qOn[hOn])
			hOn++
			pn := 2*p + 1
			c, d := int(f.kCell[p]), int(f.kDig[p])
			// The consequences in SE's order: the cell's other digits,
			// then the digit's peers, box first.
			var m uint32
			if y {
				m = f.work[c] &^ (1 << d)
			}
			for i := -1; i < 3; i++ {
				u := 0
				if i >= 0 {
					u = int(g.houses[c][i])
					m = f.pos[u*(n+1)+d] & g.chainPeerPos[c][i]
				}
				for ; m != 0; m &= m - 1 {
					var q int
					if i < 0 {
						q = c*n + first32(m) - 1
					} else {
						q = g.cell(u, first32(m))*n + d - 1
					}
					if setHas(r.on, q) {
						s := int(r.cnt[2*q+1]) + int(r.cnt[pn]) + 1
						if best < 0 || s < best {
							best = s
							f.cKind, f.cQ, f.cP = 1, q, pn
						}
						continue
					}
					if setHas(r.off, q) {
						continue
					}
					setAdd(r.off, q)
					qn := 2 * q
					if dyn {
						i := f.ai(qn)
						f.offPar[i] = int32(f.ai(pn))
						f.nid[i] = f.next
						f.idNode[f.next] = int32(i)
						f.next++
					}
					r.cnt[qn] = r.cnt[pn] + 1
					qOff = append(qOff, int32(q))
				}
			}
		} else if hOff < len(qOff) {
			p := int(qOff[hOff])
			hOff++
			pn := 2 * p
			c, d := int(f.kCell[p]), int(f.kDig[p])
			nt := 0
			// A consequence already on would only be skipped below, and
			// dropping it keeps the order of the others: it is not built.
			if y && count32(f.work[c]) == 2 {
				o := c*n + first32(f.work[c]&^(1<<d)) - 1
				if !setHas(r.on, o) {
					f.tmpK[nt] = o
					f.tmpCause[nt] = 1
					if dyn {
						src := append(f.tmpSrc[nt][:0], int32(f.ai(pn)))
						for m := f.orig[c] &^ f.work[c]; m != 0; m &= m - 1 {
							src = append(src, int32(f.ai(2*(c*n+first32(m)-1))))
						}
						f.tmpSrc[nt] = src
						f.tmpN[nt] = f.ancCount(src)
					} else {
						f.tmpN[nt] = int(r.cnt[pn]) + 1
					}
					nt++
				}
			}
			for hi, u32 := range g.houses[c] {
				u := int(u32)
				pm := f.pos[u*(n+1)+d]
				if count32(pm) != 2 {
					continue
				}
				ci := g.cellIndex[c][houseType[hi]]
				o := g.cell(u, first32(pm&^(1<<ci)))*n + d - 1
				if setHas(r.on, o) {
					continue
				}
				var cnt int
				if dyn {
					src := append(f.tmpSrc[4][:0], int32(f.ai(pn)))
					for m := f.opos[u*(n+1)+d] &^ pm; m != 0; m &= m - 1 {
						src = append(src, int32(f.ai(2*(g.cell(u, first32(m))*n+d-1))))
					}
					f.tmpSrc[4] = src
					cnt = f.ancCount(src)
				} else {
					cnt = int(r.cnt[pn]) + 1
				}
				j := 0
				for j < nt && f.tmpK[j] != o {
					j++
				}
				if j < nt {
					if cnt >= f.tmpN[j] {
						continue
					}
					// SE keeps the shorter of two equal consequences and
					// moves it to the end.
					tk := f.tmpSrc[j]
					copy(f.tmpK[j:nt-1], f.tmpK[j+1:nt])
					copy(f.tmpN[j:nt-1], f.tmpN[j+1:nt])
					copy(f.tmpCause[j:nt-1], f.tmpCause[j+1:nt])
					copy(f.tmpSrc[j:nt-1], f.tmpSrc[j+1:nt])
					f.tmpSrc[nt-1] = tk
					j = nt - 1
				} else {
					j = nt
					nt++
				}
				f.tmpK[j], f.tmpN[j], f.tmpCause[j] = o, cnt, int32(2+u)
				f.tmpSrc[j], f.tmpSrc[4] = f.tmpSrc[4], f.tmpSrc[j]
			}
			if f.dynamic {
				f.remove(c, d)
			}
			for j := 0; j < nt; j++ {
				tk := f.tmpK[j]
				if setHas(r.off, tk) {
					s := f.tmpN[j] + int(r.cnt[2*tk])
					if best < 0 || s < best {
						best = s
						f.cKind, f.cQ, f.cCause = 2, tk, f.tmpCause[j]
						f.cSrc = append(f.cSrc[:0], f.tmpSrc[j]...)
					}
					continue
				}
				if setHas(r.on, tk) {
					continue
				}
				setAdd(r.on, tk)
				f.cause[tk] = f.tmpCause[j]
				on := 2*tk + 1
				if dyn {
					f.ancMake(f.ai(on), f.tmpSrc[j], f.tmpN[j])
				}
				r.cnt[on] = chainCount16(f.tmpN[j])
				qOn = append(qOn, int32(tk))
			}
		} else if f.level == 0 || !f.advance(r, &qOff) {
			return
		}
		if best >= 0 {
			r.contra, r.contraSum = true, best
			return
		}
	}
}
