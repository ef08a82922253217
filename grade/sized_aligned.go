package grade

import "math/bits"

// Aligned triple exclusion (SE 7.5) on every shape, with the rules of
// chainAlignedTriples (chain_aligned.go): tried after the cycles and
// chains and before Nishio, as SE does.

// alignedTriples records every aligned triple exclusion of s in h.
func (s *sstate) alignedTriples(h *schainHints) {
	r := AlignedTripleExclusion.BaseRating()
	if !h.consider(r) {
		return
	}
	g := s.g
	cands := s.cands
	nw := g.nw
	excl := make([]uint64, g.nc*nw)
	base := make([]int, 0, g.nc)
	baseSet := make([]uint64, nw)
	for c := 0; c < g.nc; c++ {
		if count32(cands[c]) < 2 {
			continue
		}
		ex := excl[c*nw : (c+1)*nw]
		single, anyEx := false, false
		for _, o := range g.peers[c] {
			switch count32(cands[o]) {
			case 1:
				single = true
			case 2, 3:
				ex[o>>6] |= 1 << (o & 63)
				anyEx = true
			}
		}
		if !single && anyEx {
			base = append(base, c)
			baseSet[c>>6] |= 1 << (c & 63)
		}
	}
	ab := make([]uint64, nw)
	common := make([]uint64, nw)
	once := make([]uint64, nw)
	two := make([]uint64, nw)
	twoA := make([]uint64, nw)
	var ex []uint32
	for _, a := range base {
		// A second cell shares two excluders with a only if it sees
		// two of a's: twoA holds the base cells past a that do, in
		// increasing order, as base lists them.
		if !g.seeTwo(twoA, once, excl[a*nw:(a+1)*nw], baseSet, a) {
			continue
		}
		for wb := 0; wb < nw; wb++ {
			for mb := twoA[wb]; mb != 0; mb &= mb - 1 {
				b := wb*64 + trailing64(mb)
				na := 0
				for w := 0; w < nw; w++ {
					ab[w] = excl[a*nw+w] & excl[b*nw+w]
					na += bits.OnesCount64(ab[w])
				}
				if na < 2 {
					continue
				}
				// Likewise a third cell past b must see two of ab.
				if !g.seeTwo(two, once, ab, baseSet, b) {
					continue
				}
				for w := 0; w < nw; w++ {
					for mc := two[w]; mc != 0; mc &= mc - 1 {
						c := w*64 + trailing64(mc)
						nc := 0
						for w := 0; w < nw; w++ {
							common[w] = ab[w] & excl[c*nw+w]
							nc += bits.OnesCount64(common[w])
						}
						if nc < 2 {
							continue
						}
						small := func(x, y, z int) bool {
							return count32(cands[x]) <= 3 && (g.sees(x, y) || g.sees(x, z))
						}
						if !small(a, b, c) && !small(b, a, c) && !small(c, a, b) {
							continue
						}
						ex = ex[:0]
						for w := 0; w < nw; w++ {
							for m := common[w]; m != 0; m &= m - 1 {
								ex = append(ex, cands[w*64+trailing64(m)])
							}
						}
						s.alignedTriple(h, r, [3]int{a, b, c}, common, ex)
					}
				}
			}
		}
	}
}

// seeTwo sets dst to the cells of baseSet past cell after that see two
// or more cells of set (once is scratch), and reports whether any cell
// lies past after.
func (g *sgeom) seeTwo(dst, once, set, baseSet []uint64, after int) bool {
	nw := g.nw
	clear(once)
	clear(dst)
	for w := 0; w < nw; w++ {
		for m := set[w]; m != 0; m &= m - 1 {
			x := w*64 + trailing64(m)
			ps := g.peerSet[x*nw : (x+1)*nw]
			for v := range dst {
				dst[v] |= once[v] & ps[v]
				once[v] |= ps[v]
			}
		}
	}
	bw := (after + 1) >> 6
	if bw >= nw {
		return false
	}
	for v := range dst {
		dst[v] &= baseSet[v]
	}
	clear(dst[:bw])
	dst[bw] &^= 1<<((after+1)&63) - 1
	return true
}

// alignedTriple tries one triple whose common excluders hold the
// candidates ex and records its eliminations.
func (s *sstate) alignedTriple(h *schainHints, r Rating, t [3]int, common []uint64, ex []uint32) {
	g := s.g
	cands := s.cands
	s01, s02, s12 := g.sees(t[0], t[1]), g.sees(t[0], t[2]), g.sees(t[1], t[2])
	var allowed [3]uint32
	full := [3]uint32{cands[t[0]], cands[t[1]], cands[t[2]]}
	// An excluder with a candidate outside the triple's blocks nothing.
	f := full[0] | full[1] | full[2]
	var buf [64]uint32
	blk := buf[:0]
	for _, e := range ex {
		if e&^f == 0 {
			blk = append(blk, e)
		}
	}
	ex = blk
	// A pair of values (v0, v1) blocks the third value v2 where an
	// excluder holds v0|v1 but at most v2: the pair's blocked values are
	// gathered once, not per v2.
combos:
	for m0 := full[0]; m0 != 0; m0 &= m0 - 1 {
		v0 := m0 & -m0
		for m1 := full[1]; m1 != 0; m1 &= m1 - 1 {
			v1 := m1 & -m1
			if s01 && v0 == v1 {
				continue
			}
			u := v0 | v1
			var blocked uint32
			all := false
			for _, e := range ex {
				rest := e &^ u
				if rest == 0 {
					all = true
					break
				}
				if rest&(rest-1) == 0 {
					blocked |= rest
				}
			}
			if all {
				continue
			}
			ok := full[2] &^ blocked
			if s02 {
				ok &^= v0
			}
			if s12 {
				ok &^= v1
			}
			if ok == 0 {
				continue
			}
			allowed[0] |= v0
			allowed[1] |= v1
			allowed[2] |= ok
			if allowed == full {
				break combos
			}
		}
	}
	for i, c := range t {
		e := cands[c] &^ allowed[i]
		if e == 0 {
			continue
		}
		h.add(g.n, r, AlignedTripleExclusion, c, e, 0, nil)
		if !h.any || h.best != r {
			continue
		}
		h.digits |= e
		for _, x := range t {
			h.cells[x] = true
		}
		for w := range common {
			for m := common[w]; m != 0; m &= m - 1 {
				h.cells[w*64+trailing64(m)] = true
			}
		}
	}
}
