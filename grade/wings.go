package grade

import "math/bits"

// wing finds an XY-wing (xyz false: a bivalue pivot xy sees bivalue
// wings xz and yz, so z leaves every cell that sees both wings) or an
// XYZ-wing (xyz true: the pivot holds xyz and z leaves every cell that
// sees the pivot and both wings).
func (s *state) wing(xyz bool) (Step, bool) {
	tech, size := XYWing, 2
	if xyz {
		tech, size = XYZWing, 3
	}
	cands := &s.p.Cands
	var twos cellSet // the bivalue cells
	for c := 0; c < 81; c++ {
		if count(cands[c]) == 2 {
			twos.add(c)
		}
	}
	for pv := 0; pv < 81; pv++ {
		pm := cands[pv]
		if count(pm) != size {
			continue
		}
		// Both wings are bivalue peers of the pivot: those, in the order
		// of peers (increasing), are all the pairs need to look at.
		var bv [20]int
		nbv := 0
		ws := peerSet[pv].and(twos)
		for w := 0; w < 2; w++ {
			for m := ws[w]; m != 0; m &= m - 1 {
				bv[nbv] = w<<6 | bits.TrailingZeros64(m)
				nbv++
			}
		}
		for i := 0; i < nbv; i++ {
			w1 := bv[i]
			m1 := cands[w1]
			if m1 == pm || count(m1&pm) == 0 || (xyz && m1&^pm != 0) {
				continue
			}
			for j := i + 1; j < nbv; j++ {
				w2 := bv[j]
				m2 := cands[w2]
				if m2 == pm || m2 == m1 {
					continue
				}
				var z uint16
				if xyz {
					if m2&^pm != 0 || m1|m2 != pm {
						continue
					}
					z = m1 & m2
				} else {
					// pivot xy, wings xz and yz: three digits, z in both wings only.
					if m1|m2|pm != m1|pm || count(m1|m2|pm) != 3 {
						// m2 must add no digit outside pivot and m1
						continue
					}
					z = m1 & m2
					if count(z) != 1 || z&pm != 0 {
						continue
					}
				}
				if count(z) != 1 {
					continue
				}
				d := first(z)
				see := peerSet[w1].and(peerSet[w2])
				if xyz {
					see = see.and(peerSet[pv])
				}
				var elims []Elimination
				for w := 0; w < 2; w++ {
					for m := see[w]; m != 0; m &= m - 1 {
						if c := w<<6 | bits.TrailingZeros64(m); cands[c]&z != 0 && c != pv {
							elims = append(elims, Elimination{uint8(c), uint8(d)})
						}
					}
				}
				if len(elims) == 0 {
					continue
				}
				return Step{Technique: tech, Rating: tech.BaseRating(),
					Cells: []uint8{uint8(pv), uint8(w1), uint8(w2)}, Digits: pm | m1 | m2,
					Eliminations: elims}, true
			}
		}
	}
	return Step{}, false
}
