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
	var ex []uint32
	for i, a := range base {
		for j := i + 1; j < len(base); j++ {
			b := base[j]
			na := 0
			for w := 0; w < nw; w++ {
				ab[w] = excl[a*nw+w] & excl[b*nw+w]
				na += bits.OnesCount64(ab[w])
			}
			if na < 2 {
				continue
			}
			// A third cell shares two excluders with a and b only if
			// it sees two of them: two holds the base cells that do.
			clear(once)
			clear(two)
			for w := 0; w < nw; w++ {
				for m := ab[w]; m != 0; m &= m - 1 {
					x := w*64 + trailing64(m)
					ps := g.peerSet[x*nw : (x+1)*nw]
					for v := range two {
						two[v] |= once[v] & ps[v]
						once[v] |= ps[v]
					}
				}
			}
			for v := range two {
				two[v] &= baseSet[v]
			}
			// Past b only, in increasing order, as base lists them.
			if bw := (b + 1) >> 6; bw < nw {
				clear(two[:bw])
				two[bw] &^= 1<<((b+1)&63) - 1
			} else {
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
