package grade

// wing finds an XY-wing or an XYZ-wing, as state.wing.
func (s *sstate) wing(xyz bool) (SizedStep, bool) {
	g := s.g
	tech, size := XYWing, 2
	if xyz {
		tech, size = XYZWing, 3
	}
	cands := s.cands
	for pv := 0; pv < g.nc; pv++ {
		pm := cands[pv]
		if count32(pm) != size {
			continue
		}
		ps := g.peers[pv]
		for i := range ps {
			w1 := int(ps[i])
			m1 := cands[w1]
			if count32(m1) != 2 || m1 == pm || m1&pm == 0 || (xyz && m1&^pm != 0) {
				continue
			}
			for j := i + 1; j < len(ps); j++ {
				w2 := int(ps[j])
				m2 := cands[w2]
				if count32(m2) != 2 || m2 == pm || m2 == m1 {
					continue
				}
				z := m1 & m2
				if xyz {
					if m2&^pm != 0 || m1|m2 != pm {
						continue
					}
				} else if m1|m2|pm != m1|pm || count32(m1|m2|pm) != 3 || count32(z) != 1 || z&pm != 0 {
					continue
				}
				if count32(z) != 1 {
					continue
				}
				d := uint8(first32(z))
				var el []SizedCandidate
				for c := 0; c < g.nc; c++ {
					if cands[c]&z != 0 && c != pv && g.sees(w1, c) && g.sees(w2, c) && (!xyz || g.sees(pv, c)) {
						el = append(el, SizedCandidate{uint16(c), d})
					}
				}
				if len(el) == 0 {
					continue
				}
				return SizedStep{Technique: tech, Rating: tech.BaseRating(),
					Cells: []uint16{uint16(pv), uint16(w1), uint16(w2)}, Digits: pm | m1 | m2,
					Eliminations: el}, true
			}
		}
	}
	return SizedStep{}, false
}

// alignedPairExclusion finds an aligned pair exclusion, as
// state.alignedPairExclusion.
func (s *sstate) alignedPairExclusion() (SizedStep, bool) {
	g := s.g
	cands := s.cands
	nw := g.nw
	base := make([]int, 0, g.nc)
	baseSet := make([]uint64, nw)
	excl := make([]uint64, g.nc*nw)
	for c := 0; c < g.nc; c++ {
		if count32(cands[c]) < 2 {
			continue
		}
		ex := excl[c*nw : (c+1)*nw]
		single, anyEx := false, false
		for _, q := range g.peers[c] {
			switch count32(cands[q]) {
			case 1:
				single = true
			case 2:
				ex[q>>6] |= 1 << (q & 63)
				anyEx = true
			}
		}
		if !single && anyEx {
			base = append(base, c)
			baseSet[c>>6] |= 1 << (c & 63)
		}
	}
	var ex []uint32
	two, once := make([]uint64, nw), make([]uint64, nw)
	for _, c0 := range base {
		// Only the cells past c0 that see two of its excluders share
		// two with it: the others are skipped below.
		if !g.seeTwo(two, once, excl[c0*nw:(c0+1)*nw], baseSet, c0) {
			continue
		}
		for w1 := 0; w1 < nw; w1++ {
			for m1 := two[w1]; m1 != 0; m1 &= m1 - 1 {
				c1 := w1*64 + trailing64(m1)
				e0, e1 := excl[c0*nw:(c0+1)*nw], excl[c1*nw:(c1+1)*nw]
				ex = ex[:0]
				for w := 0; w < nw; w++ {
					for m := e0[w] & e1[w]; m != 0; m &= m - 1 {
						ex = append(ex, cands[w*64+trailing64(m)])
					}
				}
				if len(ex) < 2 {
					continue
				}
				// Only an excluder with one candidate in each cell blocks a
				// pair; with none, every value has a partner (each cell has
				// two or more) and nothing goes.
				m0, m1 := cands[c0], cands[c1]
				blk := ex[:0]
				for _, x := range ex {
					if x&^(m0|m1) == 0 && x&m0 != 0 && x&m1 != 0 {
						blk = append(blk, x)
					}
				}
				if len(blk) == 0 {
					continue
				}
				ex = blk
				see := g.sees(c0, c1)
				var ok0, ok1 uint32
			pairs:
				for a := cands[c0]; a != 0; a &= a - 1 {
					va := a & -a
					for b := cands[c1]; b != 0; b &= b - 1 {
						vb := b & -b
						if see && va == vb {
							continue
						}
						allowed := true
						for _, x := range ex {
							if x&^(va|vb) == 0 {
								allowed = false
								break
							}
						}
						if allowed {
							ok0 |= va
							ok1 |= vb
							if ok0 == cands[c0] && ok1 == cands[c1] {
								break pairs
							}
						}
					}
				}
				r0, r1 := cands[c0]&^ok0, cands[c1]&^ok1
				if r0|r1 == 0 {
					continue
				}
				st := SizedStep{Technique: AlignedPairExclusion, Rating: AlignedPairExclusion.BaseRating(),
					Cells: []uint16{uint16(c0), uint16(c1)}, Digits: cands[c0] | cands[c1]}
				for m := r0; m != 0; m &= m - 1 {
					st.Eliminations = append(st.Eliminations, SizedCandidate{uint16(c0), uint8(first32(m))})
				}
				for m := r1; m != 0; m &= m - 1 {
					st.Eliminations = append(st.Eliminations, SizedCandidate{uint16(c1), uint8(first32(m))})
				}
				return st, true
			}
		}
	}
	return SizedStep{}, false
}
