package grade

// Nested forcing chains of SE's levels 3 (10.0 + length) and 4 (10.5 +
// length) on every shape, with the rules of chain_nested.go: where the
// cycles and forcing chains conclude nothing on the grid a dynamic run
// stalls on, level 3 asks the static multiple forcing chains (cell and
// region), and level 4 asks the dynamic forcing chains (contradictions,
// doubles, cells and regions) instead of both. The inner producer is a
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
// budget is what the outer call has left. The inner producers run without
// the 9x9 engine's filters (chainEngine.staticSkips and the reuse of
// level 2's runs at level 3), which only spare work: their conclusions
// are the same.
//
// Where this may depart from the 9x9 engine: there, the parents of a
// contradiction found while turning a candidate on read that candidate's
// cause from the last run that turned it on (it is off in the run that
// contradicts); here they read the cause of the contradiction itself.
// Level 5 (dynamic forcing chains (+) and nested level 2 as the inner
// producer) is not generalised.

// innerSteps lists, per nesting level, the inner producers tried in
// order: 0 cycles and forcing chains, 1 static multiple forcing chains,
// 2 dynamic forcing chains.
var innerSteps = [...][]int{2: {0}, 3: {0, 1}, 4: {2}}

// innerProducer runs inner producer step (1 or 2) on the working grid,
// its hints going to f.nest. The inner engine may spend what the
// producer call has left of its budget; what it spent is charged here.
func (f *sforce) innerProducer(step int) {
	if f.inner == nil {
		f.inner = newSforce(f.g)
	}
	in := f.inner
	in.outer = f
	in.tech, in.dynamic, in.nishio = MultipleForcingChains, false, false
	if step == 2 {
		in.tech, in.dynamic = DynamicForcingChains, true
	}
	in.level, in.stopAt = 0, 0
	in.budget = f.budget - f.spent
	in.multipleChains(f.work, f.pos, nil)
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
