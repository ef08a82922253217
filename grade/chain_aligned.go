package grade

import (
	"math/bits"

	"sudokubank/solve"
)

// Aligned triple exclusion (SE 7.5), tried between the cycles and
// Nishio, as SE does. Three base cells take one candidate each; a
// combination is impossible when two cells that see each other take the
// same digit, or when it would empty a cell that sees all three (a
// "common excluder", a cell with two or three candidates). A candidate of
// a base cell that no possible combination uses goes.
//
// SE's choice of triples: base cells have two or more candidates, no peer
// that is a naked single and at least one peer with two or three
// candidates; a triple needs two or more common excluders, and one of its
// cells must have at most three candidates and see one of the other two.

// chainAlignedTriples records every aligned triple exclusion in h.
func chainAlignedTriples(h *chainHints, cands *Candidates) {
	r := AlignedTripleExclusion.BaseRating()
	if !h.consider(r) {
		return
	}
	var excl [81]chainCells81
	var base [81]int
	nb := 0
	// The cells with one candidate, and those with two or three: the
	// excluders of a base cell are its peers among the latter.
	var ones, few chainCells81
	for c := 0; c < 81; c++ {
		switch bits.OnesCount16(cands[c]) {
		case 1:
			ones.add(c)
		case 2, 3:
			few.add(c)
		}
	}
	for c := 0; c < 81; c++ {
		if bits.OnesCount16(cands[c]) < 2 {
			continue
		}
		ps := &chainPeerSet[c]
		excl[c] = chainCells81{ps[0] & few[0], ps[1] & few[1]}
		single := ps[0]&ones[0]|ps[1]&ones[1] != 0
		if !single && excl[c] != (chainCells81{}) {
			base[nb] = c
			nb++
		}
	}
	sees := chainSeesCell
	for i := 0; i < nb; i++ {
		a := base[i]
		for j := i + 1; j < nb; j++ {
			b := base[j]
			ab := chainCells81{excl[a][0] & excl[b][0], excl[a][1] & excl[b][1]}
			if bits.OnesCount64(ab[0])+bits.OnesCount64(ab[1]) < 2 {
				continue
			}
			for k := j + 1; k < nb; k++ {
				c := base[k]
				common := chainCells81{ab[0] & excl[c][0], ab[1] & excl[c][1]}
				if bits.OnesCount64(common[0])+bits.OnesCount64(common[1]) < 2 {
					continue
				}
				small := func(x, y, z int) bool {
					return bits.OnesCount16(cands[x]) <= 3 && (sees(x, y) || sees(x, z))
				}
				if !small(a, b, c) && !small(b, a, c) && !small(c, a, b) {
					continue
				}
				chainAlignedTriple(h, cands, r, [3]int{a, b, c}, common, sees)
			}
		}
	}
}

// chainSeesCell reports whether cells a and b share a house.
func chainSeesCell(a, b int) bool {
	return a != b && (a/9 == b/9 || a%9 == b%9 || chainHouses[a][0] == chainHouses[b][0])
}

// chainAlignedTriple tries one triple and records its eliminations.
func chainAlignedTriple(h *chainHints, cands *Candidates, r Rating, t [3]int, common chainCells81, sees func(a, b int) bool) {
	var ex [20]uint16
	ne := 0
	for w := 0; w < 2; w++ {
		for m := common[w]; m != 0; m &= m - 1 {
			ex[ne] = cands[w*64+bits.TrailingZeros64(m)]
			ne++
		}
	}
	s01, s02, s12 := sees(t[0], t[1]), sees(t[0], t[2]), sees(t[1], t[2])
	var allowed [3]uint16
	if h.sol != nil {
		if !chainTripleMayGo(h.sol, cands, t, ex[:ne], s01, s02, s12) {
			return
		}
		// The solution's combination is possible.
		allowed = [3]uint16{1 << h.sol[t[0]], 1 << h.sol[t[1]], 1 << h.sol[t[2]]}
	}
	// A combination of candidates all already allowed changes nothing,
	// and once every candidate of the three cells is allowed nothing
	// goes.
	full := [3]uint16{cands[t[0]], cands[t[1]], cands[t[2]]}
combos:
	for m0 := cands[t[0]]; m0 != 0; m0 &= m0 - 1 {
		v0 := m0 & -m0
		for m1 := cands[t[1]]; m1 != 0; m1 &= m1 - 1 {
			v1 := m1 & -m1
			if s01 && v0 == v1 || allowed[0]&v0 != 0 && allowed[1]&v1 != 0 && allowed[2] == full[2] {
				continue
			}
			for m2 := cands[t[2]]; m2 != 0; m2 &= m2 - 1 {
				v2 := m2 & -m2
				if (s02 && v0 == v2) || (s12 && v1 == v2) ||
					allowed[0]&v0 != 0 && allowed[1]&v1 != 0 && allowed[2]&v2 != 0 {
					continue
				}
				u := v0 | v1 | v2
				ok := true
				for _, e := range ex[:ne] {
					if e&^u == 0 {
						ok = false
						break
					}
				}
				if ok {
					allowed[0] |= v0
					allowed[1] |= v1
					allowed[2] |= v2
					if allowed == full {
						break combos
					}
				}
			}
		}
	}
	var cells chainCells81
	for _, c := range t {
		cells.add(c)
	}
	for w := 0; w < 2; w++ {
		for m := common[w]; m != 0; m &= m - 1 {
			cells.add(w*64 + bits.TrailingZeros64(m))
		}
	}
	h.begin(0, 0)
	for i, c := range t {
		if e := cands[c] &^ allowed[i]; e != 0 {
			h.add(r, AlignedTripleExclusion, c, e, 0, cells, e)
		}
	}
}

// chainTripleMayGo reports whether the triple t may eliminate anything,
// given the solution sol: the solution's combination is possible, so a
// candidate goes only if the combination of it with the solution's
// digits of the other two cells is impossible. ex are the common
// excluders' candidates, sij whether cells i and j see each other.
func chainTripleMayGo(sol *solve.Grid, cands *Candidates, t [3]int, ex []uint16, s01, s02, s12 bool) bool {
	v := [3]uint16{1 << sol[t[0]], 1 << sol[t[1]], 1 << sol[t[2]]}
	for i := range t {
		for m := cands[t[i]] &^ v[i]; m != 0; m &= m - 1 {
			w := v
			w[i] = m & -m
			if s01 && w[0] == w[1] || s02 && w[0] == w[2] || s12 && w[1] == w[2] {
				return true
			}
			u := w[0] | w[1] | w[2]
			for _, e := range ex {
				if e&^u == 0 {
					return true
				}
			}
		}
	}
	return false
}
