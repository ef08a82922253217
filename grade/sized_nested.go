package grade

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Nested forcing chains of SE's level 2 (9.5 + length) on every shape,
// with the rules of chain_nested.go: a dynamic run that the simple
// techniques of the "(+)" level leave stalled asks the cycles and forcing
// chains (X, Y, then mixed) what they conclude on the grid as the run
// has changed it. For each candidate they would remove, the hint SE sorts
// first is kept (lowest rating, then fewest nodes, then X before Y before
// mixed); a hint that relies on no removal of the run is dropped, since a
// cheaper step would have found it. Each conclusion becomes an off node
// whose ancestors are the removals the hint relied on (its parents, as
// chainNestSink.linkParents reads them) and their own ancestors.
//
// A hint rated from such nodes adds the complexity (node count) of every
// distinct nested chain among its ancestors over all its branches; a
// nested chain is known by its kind, source, target, complexity and
// parents, so the same chain found from two branches counts once. As in
// chain_nested.go, a run tells at most 63 nested chains apart by the
// order it met them, and the 64th on count as one group.
//
// The inner searches skip, as the 9x9 engine's do (chainNewStrong,
// chainNestSink.chainStarts), the link modes and starts whose chains
// would take no strong link the run made: such a chain has no parents,
// so the conclusions are the same (TestSizedNestedBounds). The grids
// the runs stall on are remembered with their conclusions for the step
// (levels 3 and 4 find there what level 2 found, level 5 what level 4
// found). Each node an inner search visits is charged, as it visits it,
// to the producer call's node budget (sforceBudget). Levels 3 to 5 are
// in sized_nested3.go.

// snestHint is one hint of the inner search: its complexity, identity
// and parents (candidates of the outer grid the run removed). The hints
// of an inner multiple chain producer (sized_nested3.go) find their
// parents only once kept (parDone).
type snestHint struct {
	cx      int
	kind    uint8 // nestUnary, nestCycle, or an inner producer's kind
	on      bool
	src     int
	u, d    int
	target  int
	parDone bool
	par     []int32 // increasing
}

// snestBest is the hint kept for one candidate.
type snestBest struct {
	r    Rating
	cx   int
	key  int
	hint int32
}

// snestOut is a conclusion of the inner search on one grid: candidate k
// goes, by the nested chain gid, whose parents are par.
type snestOut struct {
	k   int32
	gid int32
	par []int32
}

// snestMemo holds the conclusions of the inner producers per grid: per
// step (see innerSteps), whether it ran and what it concluded.
type snestMemo struct {
	grid []uint32
	done [4]bool
	outs [4][]snestOut
}

// snest is the state of the nested level of one sforce.
type snest struct {
	sc      *schainScratch
	gen     uint32
	bestGen []uint32
	best    []snestBest
	order   []int32
	hints   []snestHint
	parSet  []uint64 // scratch: the parents of the hint being built
	// canon numbers the distinct nested chains of a producer call; cx
	// holds each one's complexity.
	canon map[string]int32
	cx    []int
	memo  map[uint64][]int32 // grid hash -> memo entries
	ents  []snestMemo
	keyB  []byte
	// Per run: the local index of each nested chain met (gidRun valid
	// when gidGen is runGen), the chains in that order, and per node id
	// of the run, 1 + the local index of the nested chain it is, or 0.
	gidRun []int32
	gidGen []uint32
	runGen uint32
	nID    []int32
	idNest []int32
	// Scratch of the tallies.
	mark    []uint32
	markGen uint32
	// Scratch of chainStarts: the starts, and the reach of each end
	// (reachOf) in reachBuf from reachAt.
	starts   []uint64
	reachBuf []uint64
	reachOf  []int32
	reachAt  []int
	queue    []int32
	accG     [][]int32 // per node, the nested chains of fold's branches
	// static holds the static runs of the grid level 3 starts from
	// (sized_nested3.go).
	static *sstaticRuns
}

// snestMemoMax bounds the grids one step remembers.
const snestMemoMax = 1 << 12

func newSnest(g *sgeom) *snest {
	nk := g.nc * g.n
	return &snest{sc: newChainScratch(g), bestGen: make([]uint32, nk), best: make([]snestBest, nk),
		parSet: make([]uint64, (nk+63)/64), canon: make(map[string]int32), memo: make(map[uint64][]int32),
		accG: make([][]int32, 2*nk)}
}

// resetCall forgets the nested chains of the last step: the producer
// calls of one step share them.
func (ns *snest) resetCall() {
	clear(ns.canon)
	clear(ns.memo)
	if ns.static != nil {
		// A step computes (and pays for) its static runs itself, so
		// that a grade never depends on the one before.
		ns.static.grid = ns.static.grid[:0]
	}
	ns.cx = ns.cx[:0]
	ns.ents = ns.ents[:0]
	clear(ns.gidGen)
	ns.gidRun, ns.gidGen = ns.gidRun[:0], ns.gidGen[:0]
}

// resetRun starts the tallies of a new run.
func (ns *snest) resetRun() {
	ns.runGen++
	if ns.runGen == 0 {
		clear(ns.gidGen)
		ns.runGen = 1
	}
	ns.nID = ns.nID[:0]
	clear(ns.idNest)
}

// wants reports whether a hint (r, cx, key) would be kept for candidate q.
func (ns *snest) wants(q int, r Rating, cx, key int) bool {
	if ns.bestGen[q] != ns.gen {
		return true
	}
	b := &ns.best[q]
	if r != b.r {
		return r < b.r
	}
	if cx != b.cx {
		return cx < b.cx
	}
	return key < b.key
}

func (ns *snest) take(hi int, q int, r Rating, cx, key int) {
	if !ns.wants(q, r, cx, key) {
		return
	}
	if ns.bestGen[q] != ns.gen {
		ns.bestGen[q] = ns.gen
		ns.order = append(ns.order, int32(q))
	}
	ns.best[q] = snestBest{r: r, cx: cx, key: key, hint: int32(hi)}
}

// nestCellParents adds the candidates of cell c that the run removed.
func (f *sforce) nestCellParents(c int) {
	for m := f.orig[c] &^ f.work[c]; m != 0; m &= m - 1 {
		setAdd(f.nest.parSet, c*f.n+first32(m)-1)
	}
}

// nestHouseParents adds the places of digit d in unit u the run removed.
func (f *sforce) nestHouseParents(u, d int) {
	n := f.n
	for m := f.opos[u*(n+1)+d] &^ f.pos[u*(n+1)+d]; m != 0; m &= m - 1 {
		setAdd(f.nest.parSet, f.g.cell(u, first32(m))*n+d-1)
	}
}

// nestLinkParents adds the parents of the link between candidates a and
// b, as chainNestSink.linkParents.
func (f *sforce) nestLinkParents(a, b int) {
	n := f.n
	ca, cb := a/n, b/n
	if ca == cb {
		f.nestCellParents(ca)
		return
	}
	d := a%n + 1
	g := f.g
	first := -1
	for _, u16 := range g.houses[ca] {
		u := int(u16)
		if !slices.Contains(g.houses[cb][:], u16) {
			continue
		}
		if first < 0 {
			first = u
		}
		if count32(f.pos[u*(n+1)+d]) == 2 {
			first = u
			break
		}
	}
	if first >= 0 {
		f.nestHouseParents(first, d)
	}
}

// nestPathParents adds the parents of the links of the inner search's
// path ending at node k (on when on): with all, every link, else only
// the strong ones (those that turn a node on).
func (f *sforce) nestPathParents(k int, on, all bool) {
	sc := f.nest.sc
	for k >= 0 {
		var pred int
		if on {
			pred = int(sc.on[k].parent)
		} else {
			pred = int(sc.off[k].parent)
		}
		if pred >= 0 && (on || all) {
			f.nestLinkParents(pred, k)
		}
		k, on = pred, !on
	}
}

// takeParents moves the parent set into a list, reporting whether there
// is any.
func (f *sforce) takeParents() ([]int32, bool) {
	ps := f.nest.parSet
	var par []int32
	for i, w := range ps {
		for ; w != 0; w &= w - 1 {
			par = append(par, int32(i*64+first64(w)))
		}
		ps[i] = 0
	}
	return par, len(par) > 0
}

func first64(w uint64) int { return bits.TrailingZeros64(w) }

// nestChain records a forcing chain of the inner search ending at node p
// whose last link reaches the start s (see chainNestSink.nestUnaryChain).
func (f *sforce) nestChain(p, s int, placed bool, nodes int) {
	ns := f.nest
	st := &ns.sc.st
	t := XChain
	if st.y {
		t = AIC
	}
	r := t.BaseRating() + LengthBonus(nodes)
	key := sChainSortKey(st)
	n := f.n
	c, d := s/n, s%n+1
	mask := uint32(1) << d
	if placed {
		mask = f.work[c] &^ mask
	}
	want := false
	for m := mask; m != 0; m &= m - 1 {
		if ns.wants(c*n+first32(m)-1, r, nodes, key) {
			want = true
			break
		}
	}
	if !want {
		return
	}
	if placed {
		f.nestLinkParents(p, s)
	}
	f.nestPathParents(p, !placed, false)
	par, ok := f.takeParents()
	if !ok {
		return
	}
	ns.hints = append(ns.hints, snestHint{cx: nodes, kind: nestUnary, src: s, target: p, on: placed, par: par, parDone: true})
	hi := len(ns.hints) - 1
	for m := mask; m != 0; m &= m - 1 {
		ns.take(hi, c*n+first32(m)-1, r, nodes, key)
	}
}

// nestCycle records the cycle s -> ... -> p (on) -> q (off) -> s of the
// inner search (see chainNestSink.nestCycle).
func (f *sforce) nestCycle(p, q, s int, nodes int) {
	ns := f.nest
	sc := ns.sc
	st := &sc.st
	g := f.g
	n := f.n
	t := chainUnaryTech(st.y, st.x, true)
	r := t.BaseRating() + LengthBonus(nodes)
	key := sChainSortKey(st)
	sc.path = append(sc.path[:0], int32(q))
	sc.pathFrom(p, true)
	if len(sc.inCycle) != g.nc {
		sc.inCycle = make([]bool, g.nc)
	}
	for _, k := range sc.path {
		sc.inCycle[int(k)/n] = true
	}
	sc.marked = sc.marked[:0]
	for i, k32 := range sc.path {
		k := int(k32)
		c, d := k/n, k%n+1
		on := i%2 == 1
		for _, o := range g.chainPeers[c] {
			if st.cands[o]&(1<<d) == 0 || sc.inCycle[o] {
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
	for _, k := range sc.path {
		sc.inCycle[int(k)/n] = false
	}
	slices.Sort(sc.marked)
	want := false
	for _, o := range sc.marked {
		sc.forw[o] &= sc.back[o]
		for m := sc.forw[o]; m != 0 && !want; m &= m - 1 {
			want = ns.wants(int(o)*n+first32(m)-1, r, nodes, key)
		}
	}
	defer func() {
		for _, o := range sc.marked {
			sc.forw[o], sc.back[o] = 0, 0
		}
	}()
	if !want {
		return
	}
	f.nestLinkParents(p, q)
	f.nestLinkParents(q, s)
	f.nestPathParents(p, true, true)
	par, ok := f.takeParents()
	if !ok {
		return
	}
	ns.hints = append(ns.hints, snestHint{cx: nodes, kind: nestCycle, src: s, target: q, u: p, par: par, parDone: true})
	hi := len(ns.hints) - 1
	for _, o := range sc.marked {
		for m := sc.forw[o]; m != 0; m &= m - 1 {
			ns.take(hi, int(o)*n+first32(m)-1, r, nodes, key)
		}
	}
}

// sChainSortKey is chainSortKey for the sized links.
func sChainSortKey(st *schainStatic) int {
	switch {
	case st.x && st.y:
		return 4
	case st.y:
		return 3
	}
	return 2
}

// newStrong returns the digits with a house that has two places in the
// working grid but more in orig, and whether a cell is bivalue there but
// not in orig, as chainNewStrong. The grid the producer starts from has
// no cycle or forcing chain (the chains step found none), and the
// working grid's weak links are weak there too: so an inner chain must
// take a strong link the run made, and an X-chain stays in one digit.
func (f *sforce) newStrong() (uint32, bool) {
	g := f.g
	n := f.n
	var digits uint32
	for u := 0; u < g.nu; u++ {
		for d := 1; d <= n; d++ {
			i := u*(n+1) + d
			if count32(f.pos[i]) == 2 && count32(f.opos[i]) > 2 {
				digits |= 1 << d
			}
		}
	}
	for c := 0; c < g.nc; c++ {
		if count32(f.work[c]) == 2 && count32(f.orig[c]) > 2 {
			return digits, true
		}
	}
	return digits, false
}

// chainStarts returns the candidates from which the inner search, with
// the links just built, may find a forcing chain: sets of candidates to
// assume on, then off (nk bits each). As chainNestSink.chainStarts
// argues, such a chain takes a strong link the run made, from a to b,
// say; a chain from s on to s off needs a on and b on both to reach s
// off, and one from s off to s on needs them both to reach s on. One
// search from the on node of each end of a new strong link finds them.
func (f *sforce) chainStarts() []uint64 {
	ns := f.nest
	st := &ns.sc.st
	w := (f.nk + 63) / 64
	if len(ns.starts) != 2*w {
		ns.starts = make([]uint64, 2*w)
	}
	starts := ns.starts
	clear(starts)
	pair := func(a, b int) {
		if f.spent > f.budget {
			f.over = true // unaryOuts stops before searching
			return
		}
		ra, rb := ns.reach(f, a), ns.reach(f, b)
		for i := 0; i < w; i++ {
			starts[i] |= ra[w+i] & rb[w+i]
			starts[w+i] |= ra[i] & rb[i]
		}
	}
	ns.reachAt, ns.reachOf, ns.reachBuf = ns.reachAt[:0], ns.reachOf[:0], ns.reachBuf[:0]
	f.newStrongLinks(st.y, pair)
	return starts
}

// newStrongLinks calls fn with the two candidates of each strong link
// the outer run made: a digit with two places left in a house that had
// more at the start (houses in order, then digits), then, when cells is
// set, a cell with two digits left of more than two.
func (f *sforce) newStrongLinks(cells bool, fn func(a, b int)) {
	g, n := f.g, f.n
	for u := 0; u < g.nu; u++ {
		for d := 1; d <= n; d++ {
			i := u*(n+1) + d
			pm := f.pos[i]
			if count32(pm) != 2 || count32(f.opos[i]) <= 2 {
				continue
			}
			fn(g.cell(u, first32(pm))*n+d-1, g.cell(u, first32(pm&(pm-1)))*n+d-1)
		}
	}
	if !cells {
		return
	}
	for c := 0; c < g.nc; c++ {
		cm := f.work[c]
		if count32(cm) != 2 || count32(f.orig[c]) <= 2 {
			continue
		}
		fn(c*n+first32(cm)-1, c*n+first32(cm&(cm-1))-1)
	}
}

// reach returns what candidate a assumed on reaches with the inner
// search's links: the on nodes, then the off nodes (nk bits each),
// including the off nodes without a strong link, which end a chain.
// Each end's sets are computed once per call of chainStarts.
func (ns *snest) reach(f *sforce, a int) []uint64 {
	for i, k := range ns.reachOf {
		if int(k) == a {
			return ns.reachBuf[ns.reachAt[i] : ns.reachAt[i]+2*((f.nk+63)/64)]
		}
	}
	st := &ns.sc.st
	g := f.g
	n := f.n
	w := (f.nk + 63) / 64
	at := len(ns.reachBuf)
	ns.reachBuf = slices.Grow(ns.reachBuf, 2*w)[:at+2*w]
	r := ns.reachBuf[at:]
	clear(r)
	ns.reachOf = append(ns.reachOf, int32(a))
	ns.reachAt = append(ns.reachAt, at)
	on, off := r[:w], r[w:]
	setAdd(on, a)
	q := append(ns.queue[:0], int32(2*a+1))
	for i := 0; i < len(q); i++ {
		x := int(q[i])
		k := x >> 1
		f.spent++
		if x&1 == 0 {
			for _, o := range st.strong[4*k : 4*k+int(st.strongN[k])] {
				if !setHas(on, int(o)) {
					setAdd(on, int(o))
					q = append(q, 2*o+1)
				}
			}
			continue
		}
		c, d := k/n, k%n+1
		visit := func(o int) {
			if !setHas(off, o) {
				setAdd(off, o)
				if st.strongN[o] > 0 {
					q = append(q, int32(2*o))
				}
			}
		}
		if st.y {
			for m := st.cands[c] &^ (1 << d); m != 0; m &= m - 1 {
				visit(c*n + first32(m) - 1)
			}
		}
		for hi, u := range g.houses[c] {
			for m := st.pos[int(u)*(n+1)+d] & g.chainPeerPos[c][hi]; m != 0; m &= m - 1 {
				visit(g.cell(int(u), first32(m))*n + d - 1)
			}
		}
	}
	ns.queue = q
	return r
}

// gridHash hashes a grid's candidates.
func gridHash(c []uint32) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, w := range c {
		h = (h ^ uint64(w)) * 0xff51afd7ed558ccd
		h ^= h >> 29
	}
	return h
}

// stepOuts returns the conclusions of inner producer step (see
// innerSteps) on the working grid, whose hash is key, from the memo or
// by running it. After a search the budget stopped, it returns nothing
// and remembers nothing: the producer call is over.
func (f *sforce) stepOuts(step int, key uint64) []snestOut {
	ns := f.nest
	ent := -1
	for _, i := range ns.memo[key] {
		if slices.Equal(ns.ents[i].grid, f.work) {
			ent = int(i)
			break
		}
	}
	if ent >= 0 && ns.ents[ent].done[step] {
		return ns.ents[ent].outs[step]
	}
	outs := f.innerOuts(step)
	if f.over {
		return nil
	}
	if ent < 0 && len(ns.ents) < snestMemoMax {
		ent = len(ns.ents)
		ns.memo[key] = append(ns.memo[key], int32(ent))
		ns.ents = append(ns.ents, snestMemo{grid: slices.Clone(f.work)})
	}
	if ent >= 0 {
		e := &ns.ents[ent]
		e.done[step], e.outs[step] = true, outs
	}
	return outs
}

// innerOuts runs inner producer step on the working grid and returns
// its conclusions: for each candidate, the hint SE sorts first, when it
// relies on a removal of the run.
func (f *sforce) innerOuts(step int) []snestOut {
	ns := f.nest
	ns.gen++
	if ns.gen == 0 {
		clear(ns.bestGen)
		ns.gen = 1
	}
	ns.order, ns.hints = ns.order[:0], ns.hints[:0]
	if step == 0 {
		f.unaryOuts()
	} else {
		f.innerProducer(step)
	}
	if f.over {
		return nil
	}
	var outs []snestOut
	for _, q := range ns.order {
		h := &ns.hints[ns.best[q].hint]
		if !h.parDone {
			f.inner.nestParents(h)
			f.spent += f.inner.spent
			f.inner.spent = 0
			if f.inner.over {
				f.over = true
				return nil
			}
		}
		if len(h.par) > 0 {
			outs = append(outs, snestOut{k: q, gid: ns.gid(h), par: h.par})
		}
	}
	return outs
}

// unaryOuts runs the cycles and forcing chains (X, Y, then mixed) on the
// working grid as the inner search of level 2, charging the nodes it
// visits to the producer call's budget as it goes.
func (f *sforce) unaryOuts() {
	sc := f.nest.sc
	sc.nest = f
	sc.visits = 0
	sc.hints.reset(f.work)
	// The bounds need a start grid with no cycle or forcing chain: the
	// outer producer's is one, an inner producer's (level 5) need not be.
	bounded := !f.nestExhaustive && f.outer == nil
	digits, yNew := f.g.all, true
	if bounded {
		digits, yNew = f.newStrong()
	}
	for _, mode := range [3][2]bool{{false, true}, {true, false}, {true, true}} {
		y, x := mode[0], mode[1]
		if !x && !yNew || !y && digits == 0 || digits == 0 && !yNew {
			continue
		}
		sc.digits = f.g.all
		if !y {
			sc.digits = digits
		}
		sc.st.build(f.work, f.pos, y, x)
		sc.starts = nil
		if x && bounded {
			sc.starts = f.chainStarts()
			if f.over {
				break
			}
		}
		sc.searchMode()
		if f.over {
			break
		}
	}
	sc.nest, sc.digits, sc.starts = nil, 0, nil
	f.spent += sc.visits
	if f.spent > f.budget {
		f.over = true
	}
}

// gid returns the number of hint h's chain in this producer call.
func (ns *snest) gid(h *snestHint) int32 {
	b := ns.keyB[:0]
	b = append(b, h.kind, byte(b2i(h.on)))
	for _, x := range [...]int{h.src, h.u, h.d, h.target, h.cx} {
		b = binary.AppendUvarint(b, uint64(x))
	}
	for _, p := range h.par {
		b = binary.AppendUvarint(b, uint64(p))
	}
	ns.keyB = b
	if g, ok := ns.canon[string(b)]; ok {
		return g
	}
	g := int32(len(ns.cx))
	ns.canon[string(b)] = g
	ns.cx = append(ns.cx, h.cx)
	return g
}

// advanceNested adds to r the conclusions of the inner search on the
// grid as the run left it, reporting whether it added any node.
func (f *sforce) advanceNested(r *srun, qOff *[]int32) bool {
	ns := f.nest
	var outs []snestOut
	key := gridHash(f.work)
	for _, step := range innerSteps[f.level] {
		if outs = f.stepOuts(step, key); len(outs) > 0 || f.over {
			break
		}
	}
	added := false
	for _, o := range outs {
		k := int(o.k)
		if setHas(r.off, k) {
			continue
		}
		for len(ns.gidRun) <= int(o.gid) {
			ns.gidRun = append(ns.gidRun, 0)
			ns.gidGen = append(ns.gidGen, 0)
		}
		if ns.gidGen[o.gid] != ns.runGen {
			ns.gidGen[o.gid] = ns.runGen
			ns.gidRun[o.gid] = int32(len(ns.nID))
			ns.nID = append(ns.nID, o.gid)
		}
		src := f.plusSrc[:0]
		for _, p := range o.par {
			src = append(src, int32(f.ai(2*int(p))))
		}
		f.plusSrc = src
		nd := 2 * k
		i := f.ai(nd)
		cnt := f.ancCount(src)
		f.ancMake(i, src, cnt)
		f.offPar[i] = ownSet
		for len(ns.idNest) <= int(f.nid[i]) {
			ns.idNest = append(ns.idNest, 0)
		}
		ns.idNest[f.nid[i]] = ns.gidRun[o.gid] + 1
		r.cnt[nd] = chainCount16(cnt)
		setAdd(r.off, k)
		*qOff = append(*qOff, int32(k))
		added = true
	}
	return added
}

// idMask returns the mask of the nested chains among the node ids set
// in a (and id, when not negative).
func (f *sforce) idMask(m uint64, a []uint64, id int32) uint64 {
	ns := f.nest
	for w, x := range a {
		for ; x != 0; x &= x - 1 {
			j := int32(w*64 + first64(x))
			if int(j) < len(ns.idNest) && ns.idNest[j] != 0 {
				m |= 1 << min(ns.idNest[j]-1, 63)
			}
		}
	}
	if id >= 0 && int(id) < len(ns.idNest) && ns.idNest[id] != 0 {
		m |= 1 << min(ns.idNest[id]-1, 63)
	}
	return m
}

// nodeMask returns the mask of the nested chains among the ancestors of
// the node with ancestor index i of the run just made.
func (f *sforce) nodeMask(i int, on bool) uint64 {
	if on || f.offPar[i] == ownSet {
		return f.idMask(0, f.ancSet(int32(i)), -1)
	}
	var m uint64
	if p := f.offPar[i]; p >= 0 {
		m = f.idMask(0, f.ancSet(p), -1)
	}
	return f.idMask(m, nil, f.nid[i])
}

// srcMask returns the mask of the nested chains among the ancestors of
// an on node built from the off nodes src.
func (f *sforce) srcMask(src []int32) uint64 {
	var m uint64
	for _, p := range f.parents(src) {
		m = f.idMask(m, f.ancSet(p), -1)
	}
	for _, x := range src {
		m = f.idMask(m, nil, f.nid[x])
	}
	return m
}

// finishNested records in r which nested chains each of its nodes
// descends from.
func (f *sforce) finishNested(r *srun) {
	ns := f.nest
	r.nID = append(r.nID[:0], ns.nID...)
	if len(r.nID) == 0 {
		return
	}
	if len(r.nmask) == 0 {
		r.nmask = make([]uint64, 2*f.nk)
	}
	for i := range r.on {
		for w := r.on[i]; w != 0; w &= w - 1 {
			p := i*64 + first64(w)
			r.nmask[2*p+1] = f.nodeMask(f.ai(2*p+1), true)
		}
		for w := r.off[i]; w != 0; w &= w - 1 {
			p := i*64 + first64(w)
			r.nmask[2*p] = f.nodeMask(f.ai(2*p), false)
		}
	}
}

// nmaskOf returns the nested chains mask of node x of run r.
func (r *srun) nmaskOf(x int) uint64 {
	if len(r.nID) == 0 {
		return 0
	}
	return r.nmask[x]
}

// maskSum adds the complexity of the nested chains of run r in mask m
// not yet marked, and marks them.
func (f *sforce) maskSum(r *srun, m uint64) int {
	ns := f.nest
	for len(ns.mark) < len(ns.cx) {
		ns.mark = append(ns.mark, 0)
	}
	n := 0
	for ; m != 0; m &= m - 1 {
		i := first64(m)
		hi := i + 1
		if i == 63 {
			hi = len(r.nID)
		}
		for j := i; j < hi; j++ {
			g := r.nID[j]
			if ns.mark[g] != ns.markGen {
				ns.mark[g] = ns.markGen
				n += ns.cx[g]
			}
		}
	}
	return n
}

// newMark starts a new tally of distinct nested chains.
func (f *sforce) newMark() {
	ns := f.nest
	ns.markGen++
	if ns.markGen == 0 {
		clear(ns.mark)
		ns.markGen = 1
	}
}

// nestSum returns the complexity of the distinct nested chains behind
// node x over the runs given.
func (f *sforce) nestSum(x int, runs ...*srun) int {
	if f.nest == nil || f.level < 2 {
		return 0
	}
	f.newMark()
	sum := 0
	for _, r := range runs {
		if m := r.nmaskOf(x); m != 0 {
			sum += f.maskSum(r, m)
		}
	}
	return sum
}

// foldNested adds to the nested chains of node x over fold's branches
// those of run r (or starts them when first).
func (f *sforce) foldNested(r *srun, x int, first bool) {
	ns := f.nest
	acc := ns.accG[x][:0]
	if !first {
		acc = ns.accG[x]
	}
	for m := r.nmaskOf(x); m != 0; m &= m - 1 {
		i := first64(m)
		hi := i + 1
		if i == 63 {
			hi = len(r.nID)
		}
		for _, g := range r.nID[i:hi] {
			if !slices.Contains(acc, g) {
				acc = append(acc, g)
			}
		}
	}
	ns.accG[x] = acc
}

// accNestSum returns the complexity of the nested chains of node x over
// fold's branches.
func (f *sforce) accNestSum(x int) int {
	if f.nest == nil || f.level < 2 {
		return 0
	}
	n := 0
	for _, g := range f.nest.accG[x] {
		n += f.nest.cx[g]
	}
	return n
}
