package grade

import "slices"

// Nested forcing chains of SE's levels 3 (10.0 + length), 4 (10.5 +
// length) and 5 (11.0 + length) on every shape, with the rules of
// chain_nested.go: where the cycles and forcing chains conclude nothing
// on the grid a dynamic run stalls on, level 3 asks the static multiple
// forcing chains (cell and region), and level 4 asks the dynamic forcing
// chains (contradictions, doubles, cells and regions) instead of both;
// level 5 is described below. The inner producer is a
// second sforce (sforce.inner) run on the stalled grid with outer set:
// its hints go to the outer engine's nested state, which keeps for each
// candidate the hint SE sorts first (lowest rating, then fewest nodes,
// then SE's sort key: double 1, cell 5, region 6, contradiction 7).
//
// Only the kept hints look for their parents: their branches run again
// keeping ancestor sets (static runs too, with ancNeeded), and every on
// node among the ancestors of the conclusion (or of the contradiction)
// adds the removals of the outer run that turned it on: those of its
// cell, or of its digit in the house, by the cause the run recorded
// (sforce.cause); a cell hint adds those of its cell, a region hint
// those of its house. A hint that relies on no removal of the outer run
// is dropped.
//
// Every node the inner producer and those runs process is charged to the
// outer producer call's node budget as it goes: the inner engine's
// budget is what the outer call has left. Up to 16x16 the inner static
// multiple chains skip the cells and houses that provably conclude
// nothing (staticSkips, as chainEngine.staticSkips; TestSizedNestedBounds
// checks it changes no grade). The 9x9 engine's reuse of level 2's runs
// at level 3 is not ported: level 3 runs again, finding level 2's inner
// conclusions in the step's memo.
//
// Level 5 (11.0 + length) asks the dynamic forcing chains, then, where
// they conclude nothing, the nested forcing chains of level 2: the inner
// engine runs at level 2 on the stalled grid, with its own nested state
// (inner.nest, reset at each call as the 9x9 engine resets its inner
// memo) and its own cycles and forcing chains as its inner search. That
// search is not bounded by newStrong and chainStarts: their argument
// needs a start grid with no cycle or forcing chain, which the stalled
// grid need not be (the 9x9 engine's inner sink has no srcPos either).
//
// Where this may depart from the 9x9 engine: there, the parents of a
// contradiction found while turning a candidate on read that candidate's
// cause from the last run that turned it on (it is off in the run that
// contradicts); here they read the cause of the contradiction itself.

// innerSteps lists, per nesting level, the inner producers tried in
// order: 0 cycles and forcing chains, 1 static multiple forcing chains,
// 2 dynamic forcing chains, 3 nested forcing chains of level 2.
var innerSteps = [...][]int{2: {0}, 3: {0, 1}, 4: {2}, 5: {2, 3}}

// innerProducer runs inner producer step (1 to 3) on the working grid,
// its hints going to f.nest. The inner engine may spend what the
// producer call has left of its budget; what it spent is charged here.
func (f *sforce) innerProducer(step int) {
	if f.inner == nil {
		f.inner = newSforce(f.g)
	}
	in := f.inner
	if step == 1 {
		f.staticSkips() // runs the inner engine first, on f.orig
		if f.over {
			return
		}
	}
	in.outer = f
	in.tech, in.dynamic, in.nishio = MultipleForcingChains, false, false
	in.level, in.stopAt = 0, 0
	switch step {
	case 2:
		in.tech, in.dynamic = DynamicForcingChains, true
	case 3:
		in.tech, in.dynamic, in.level = NestedForcingChains2, true, 2
		if in.nest == nil {
			in.nest = newSnest(in.g)
		}
		// The grid the inner chains start from is new: what their own
		// inner search concluded on the last one does not hold here.
		in.nest.resetCall()
	}
	in.budget = f.budget - f.spent
	in.multipleChains(f.work, f.pos, nil)
	in.skipCell, in.skipRg = nil, nil
	f.spent += in.spent
	in.spent = 0
	if in.over {
		f.over = true
	}
}

// nestOffer records a hint of an inner producer (f, whose outer engine
// keeps the hints) that concludes candidate p on (placed) or off, rated
// r with cx nodes and sort key key.
func (f *sforce) nestOffer(r Rating, cx, key, p int, on bool, h snestHint) {
	ns := f.outer.nest
	n := f.n
	c, d := p/n, p%n+1
	mask := uint32(1) << d
	if on {
		mask = f.orig[c] &^ mask
	}
	want := false
	for m := mask; m != 0 && !want; m &= m - 1 {
		want = ns.wants(c*n+first32(m)-1, r, cx, key)
	}
	if !want {
		return
	}
	h.cx, h.target = cx, p
	ns.hints = append(ns.hints, h)
	hi := len(ns.hints) - 1
	for m := mask; m != 0; m &= m - 1 {
		ns.take(hi, c*n+first32(m)-1, r, cx, key)
	}
}

// nestParents finds the parents of hint h of this inner producer by
// running its branches again with ancestor sets.
func (f *sforce) nestParents(h *snestHint) {
	o := f.outer
	g := f.g
	n := f.n
	h.parDone = true
	ro := &f.rOf
	f.ancNeeded = true
	defer func() { f.ancNeeded = false }()
	node := 2*h.target + b2i(h.on)
	switch h.kind {
	case nestContra:
		f.run(ro, h.src, h.on)
		if ro.contra && !f.over {
			f.contraParents()
		}
	case nestDouble:
		for _, on := range [2]bool{true, false} {
			f.run(ro, h.src, on)
			f.nodeParents(ro, node)
		}
	case nestCell:
		c := h.src
		o.nestCellParents(c)
		for m := f.orig[c]; m != 0; m &= m - 1 {
			f.run(ro, c*n+first32(m)-1, true)
			f.nodeParents(ro, node)
		}
	case nestRegion:
		o.nestHouseParents(h.u, h.d)
		for m := f.opos[h.u*(n+1)+h.d]; m != 0; m &= m - 1 {
			f.run(ro, g.cell(h.u, first32(m))*n+h.d-1, true)
			f.nodeParents(ro, node)
		}
	}
	h.par, _ = o.takeParents()
}

// nodeParents adds the parents of the on nodes among the ancestors of
// node x of run r, the run just made.
func (f *sforce) nodeParents(r *srun, x int) {
	if f.over {
		return
	}
	k := x >> 1
	if x&1 == 1 && !setHas(r.on, k) || x&1 == 0 && !setHas(r.off, k) {
		return
	}
	i := f.ai(x)
	if x&1 == 1 || f.offPar[i] == ownSet {
		f.ancParents(f.ancSet(int32(i)))
	} else if p := f.offPar[i]; p >= 0 {
		f.ancParents(f.ancSet(p))
	}
}

// contraParents adds the parents of the on nodes among the ancestors of
// the contradiction that ended the run just made.
func (f *sforce) contraParents() {
	if f.cKind == 1 {
		f.ancParents(f.ancSet(int32(f.ai(2*f.cQ + 1))))
		f.ancParents(f.ancSet(int32(f.ai(f.cP))))
		return
	}
	// The on node that could not be made, from the off nodes cSrc,
	// against the same candidate off.
	for _, x := range f.cSrc {
		if p := f.offPar[x]; p == ownSet {
			f.ancParents(f.ancSet(x))
		} else if p >= 0 {
			f.ancParents(f.ancSet(p))
		}
	}
	f.causeParents(f.cQ, f.cCause)
	i := f.ai(2 * f.cQ)
	if p := f.offPar[i]; p == ownSet {
		f.ancParents(f.ancSet(int32(i)))
	} else if p >= 0 {
		f.ancParents(f.ancSet(p))
	}
}

// ancParents adds, for each on node of the ancestor set a (by node id),
// the removals of the outer run that turned it on.
func (f *sforce) ancParents(a []uint64) {
	for w, x := range a {
		for ; x != 0; x &= x - 1 {
			nd := int(f.idNode[w*64+first64(x)])
			if nd&1 == 1 {
				k := nd >> 1
				f.causeParents(k, f.cause[k])
			}
		}
	}
}

// causeParents adds the removals of the outer run behind candidate k
// turned on by cause (0 the assumption, 1 its cell, 2+u unit u).
func (f *sforce) causeParents(k int, cause int32) {
	switch cause {
	case 0:
	case 1:
		f.outer.nestCellParents(k / f.n)
	default:
		f.outer.nestHouseParents(int(cause)-2, k%f.n+1)
	}
}

// sstaticRuns keeps what the static runs of the grid a level 3
// producer call starts from reach, for chainEngine.staticSkips's bound
// on the inner static multiple chains (shapes up to sforceDenseMaxN).
type sstaticRuns struct {
	grid []uint32
	// ok[k] says the run of candidate k assumed on met no contradiction:
	// on and off (w words each, from k*w) are then all it reaches.
	ok      []bool
	on, off []uint64
	// Scratch: the new strong links, their ends (endIdx per candidate, 1
	// + the index, or 0), what each end reaches (eOn, eOff) and what its
	// partners reach (xOn, xOff), per end; per candidate, the ends whose
	// on node reaches its off node, and its bound (sOn, sOff: w words
	// from k*w; valid when sGen[k] is gen); the conclusions the branches
	// so far may share (aOn, aOff).
	sOn, sOff        []uint64
	sGen             []uint32
	gen              uint32
	pairs            [][2]int32
	endIdx           []int32
	ends             []int32
	eOn, eOff        []uint64
	xOn, xOff        []uint64
	endMask          []uint64
	aOn, aOff        []uint64
	onUse, offUse    []uint64
	queue, nz        []int32
	skipCell, skipRg []bool
}

// staticRuns returns the static runs of f.orig, computing them with the
// inner engine once per step (charged to the producer call that first
// needs them), or nil past sforceDenseMaxN or when the budget ran out.
func (f *sforce) staticRuns() *sstaticRuns {
	if f.n > sforceDenseMaxN || f.nestExhaustive {
		return nil
	}
	ns := f.nest
	t := ns.static
	w := (f.nk + 63) / 64
	if t == nil {
		t = &sstaticRuns{ok: make([]bool, f.nk), on: make([]uint64, f.nk*w), off: make([]uint64, f.nk*w),
			endIdx: make([]int32, f.nk), endMask: make([]uint64, f.nk),
			aOn: make([]uint64, w), aOff: make([]uint64, w),
			onUse: make([]uint64, w), offUse: make([]uint64, w),
			sOn: make([]uint64, f.nk*w), sOff: make([]uint64, f.nk*w), sGen: make([]uint32, f.nk),
			skipCell: make([]bool, f.g.nc), skipRg: make([]bool, f.g.nu*(f.n+1))}
		ns.static = t
	}
	if slices.Equal(t.grid, f.orig) {
		return t
	}
	t.grid = t.grid[:0]
	in := f.inner
	in.outer = nil
	in.orig, in.opos = f.orig, f.opos
	in.dynamic, in.nishio, in.level = false, false, 0
	copy(in.work, f.orig)
	copy(in.pos, f.opos)
	in.spent, in.over, in.budget = 0, false, f.budget-f.spent
	n := f.n
	for c, cm := range f.orig {
		for m := cm; m != 0; m &= m - 1 {
			k := c*n + first32(m) - 1
			in.run(&in.rOn, k, true)
			if in.over {
				break
			}
			t.ok[k] = !in.rOn.contra
			copy(t.on[k*w:(k+1)*w], in.rOn.on)
			copy(t.off[k*w:(k+1)*w], in.rOn.off)
		}
	}
	f.spent += in.spent
	in.spent = 0
	if in.over {
		f.over = true
		return nil
	}
	t.grid = append(t.grid, f.orig...)
	return t
}

// staticSkips sets the inner engine's skips: the cells and houses (by
// digit) whose static multiple chains on the working grid conclude
// nothing, as chainEngine.staticSkips tells them. It leaves them unset
// when it cannot tell.
//
// A run on the working grid goes along links of the grid the producer
// call started from (the working grid's weak links are weak there too)
// until it takes a strong link the outer run made, from a to b, say;
// what it reaches after that, b on reaches. And a run from k reaches a
// off only when a on reaches k off. So what a run from k reaches lies
// within what it reached on the start grid plus what b on reaches for
// each new link whose a on reaches k off; a cell or house whose
// branches' bounds share no candidate concludes nothing.
func (f *sforce) staticSkips() {
	in := f.inner
	in.skipCell, in.skipRg = nil, nil
	t := f.staticRuns()
	if t == nil {
		return
	}
	g := f.g
	n := f.n
	w := (f.nk + 63) / 64
	// The new strong links and their ends.
	for _, k := range t.ends {
		t.endIdx[k] = 0
	}
	t.pairs, t.ends = t.pairs[:0], t.ends[:0]
	f.newStrongLinks(true, func(a, b int) {
		t.pairs = append(t.pairs, [2]int32{int32(a), int32(b)})
	})
	for _, pr := range t.pairs {
		for _, k := range pr {
			if t.endIdx[k] != 0 {
				continue
			}
			if len(t.ends) == 64 {
				return // more than endMask holds
			}
			t.ends = append(t.ends, k)
			t.endIdx[k] = int32(len(t.ends))
		}
	}
	ne := len(t.ends)
	t.eOn, t.eOff = slices.Grow(t.eOn[:0], ne*w)[:ne*w], slices.Grow(t.eOff[:0], ne*w)[:ne*w]
	t.xOn, t.xOff = slices.Grow(t.xOn[:0], ne*w)[:ne*w], slices.Grow(t.xOff[:0], ne*w)[:ne*w]
	clear(t.xOn)
	clear(t.xOff)
	for i, k := range t.ends {
		if f.spent > f.budget {
			f.over = true
			return
		}
		f.reachWork(t, int(k), t.eOn[i*w:(i+1)*w], t.eOff[i*w:(i+1)*w])
	}
	// What each end's partners reach: a run that reaches an end off may
	// go on from its partner on.
	for _, pr := range t.pairs {
		a, b := int(t.endIdx[pr[0]]-1), int(t.endIdx[pr[1]]-1)
		orInto(t.xOn[a*w:(a+1)*w], t.eOn[b*w:(b+1)*w])
		orInto(t.xOff[a*w:(a+1)*w], t.eOff[b*w:(b+1)*w])
		orInto(t.xOn[b*w:(b+1)*w], t.eOn[a*w:(a+1)*w])
		orInto(t.xOff[b*w:(b+1)*w], t.eOff[a*w:(a+1)*w])
	}
	// The candidates a conclusion could be about: off ones of the grid,
	// on ones in a cell with another; and per candidate, the ends whose
	// on node reaches its off node.
	clear(t.onUse)
	clear(t.offUse)
	for c, cm := range f.work {
		for m := cm; m != 0; m &= m - 1 {
			k := c*n + first32(m) - 1
			setAdd(t.offUse, k)
			if cm&(cm-1) != 0 {
				setAdd(t.onUse, k)
			}
			t.endMask[k] = 0
		}
	}
	for i := range t.ends {
		for j, x := range t.eOff[i*w : (i+1)*w] {
			for ; x != 0; x &= x - 1 {
				t.endMask[j*64+first64(x)] |= 1 << i
			}
		}
	}
	t.gen++
	if t.gen == 0 {
		clear(t.sGen)
		t.gen = 1
	}
	// concludes reports whether the runs from the candidates ks may
	// share a conclusion.
	concludes := func(ks []int32) bool {
		// nz lists the words of aOn or aOff not yet empty.
		nz := t.nz[:0]
		defer func() { t.nz = nz }()
		for i, k32 := range ks {
			k := int(k32)
			if !t.ok[k] {
				return true
			}
			bOn, bOff := t.on[k*w:(k+1)*w], t.off[k*w:(k+1)*w]
			if t.endMask[k] != 0 {
				sOn, sOff := t.sOn[k*w:(k+1)*w], t.sOff[k*w:(k+1)*w]
				if t.sGen[k] != t.gen {
					t.sGen[k] = t.gen
					copy(sOn, bOn)
					copy(sOff, bOff)
					for m := t.endMask[k]; m != 0; m &= m - 1 {
						i := first64(m)
						orInto(sOn, t.xOn[i*w:(i+1)*w])
						orInto(sOff, t.xOff[i*w:(i+1)*w])
					}
				}
				bOn, bOff = sOn, sOff
			}
			if i == 0 {
				for j := range w {
					t.aOn[j], t.aOff[j] = t.onUse[j]&bOn[j], t.offUse[j]&bOff[j]
					if t.aOn[j]|t.aOff[j] != 0 {
						nz = append(nz, int32(j))
					}
				}
			} else {
				left := nz[:0]
				for _, j := range nz {
					t.aOn[j] &= bOn[j]
					t.aOff[j] &= bOff[j]
					if t.aOn[j]|t.aOff[j] != 0 {
						left = append(left, j)
					}
				}
				nz = left
			}
			if len(nz) == 0 {
				return false
			}
		}
		return true
	}
	ks := t.queue[:0]
	for c, cm := range f.work {
		ks = ks[:0]
		for m := cm; m != 0; m &= m - 1 {
			ks = append(ks, int32(c*n+first32(m)-1))
		}
		t.skipCell[c] = len(ks) > 2 && !concludes(ks)
	}
	for u := 0; u < g.nu; u++ {
		for d := 1; d <= n; d++ {
			ks = ks[:0]
			for m := f.pos[u*(n+1)+d]; m != 0; m &= m - 1 {
				ks = append(ks, int32(g.cell(u, first32(m))*n+d-1))
			}
			t.skipRg[u*(n+1)+d] = len(ks) >= 2 && !concludes(ks)
		}
	}
	t.queue = ks
	in.skipCell, in.skipRg = t.skipCell, t.skipRg
}

// reachWork finds the on and off nodes that candidate a assumed on
// reaches on the working grid with the links of a static run (a itself
// among the on nodes).
func (f *sforce) reachWork(t *sstaticRuns, a int, on, off []uint64) {
	g := f.g
	n := f.n
	clear(on)
	clear(off)
	setAdd(on, a)
	q := append(t.queue[:0], int32(2*a+1))
	for i := 0; i < len(q); i++ {
		x := int(q[i])
		k := x >> 1
		c, d := k/n, k%n+1
		f.spent++
		if x&1 == 1 {
			for m := f.work[c] &^ (1 << d); m != 0; m &= m - 1 {
				if o := c*n + first32(m) - 1; !setHas(off, o) {
					setAdd(off, o)
					q = append(q, int32(2*o))
				}
			}
			for _, u16 := range g.houses[c] {
				u := int(u16)
				for m := f.pos[u*(n+1)+d] &^ (1 << g.cellIndex[c][u/n]); m != 0; m &= m - 1 {
					if o := g.cell(u, first32(m))*n + d - 1; !setHas(off, o) {
						setAdd(off, o)
						q = append(q, int32(2*o))
					}
				}
			}
			continue
		}
		if cm := f.work[c]; count32(cm) == 2 {
			if o := c*n + first32(cm&^(1<<d)) - 1; !setHas(on, o) {
				setAdd(on, o)
				q = append(q, int32(2*o+1))
			}
		}
		for _, u16 := range g.houses[c] {
			u := int(u16)
			pm := f.pos[u*(n+1)+d]
			if count32(pm) != 2 {
				continue
			}
			if o := g.cell(u, first32(pm&^(1<<g.cellIndex[c][u/n])))*n + d - 1; !setHas(on, o) {
				setAdd(on, o)
				q = append(q, int32(2*o+1))
			}
		}
	}
	t.queue = q
}
