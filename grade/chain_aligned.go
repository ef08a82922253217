package grade

import "math/bits"

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

// chainTripleQuiet remembers the last grid on which chainAlignedTriples
// tried every triple it chose and found nothing. A triple's outcome
// depends only on the candidates of its three cells and of its common
// excluders, the cells with two or three candidates that see all three;
// so on a later grid a triple finds nothing again when its three cells
// are unchanged and no cell that sees all three changed while it had, or
// now has, two or three candidates. Which triples are chosen also depends
// on the naked singles among the cells' peers: a grid with one is not
// remembered. The zero value remembers nothing.
type chainTripleQuiet struct {
	grid  Candidates
	valid bool
}

// chainAlignedTriples records every aligned triple exclusion in h. q,
// when not nil, skips the triples that cannot have changed since q's
// grid; it remembers this grid when nothing is found.
func chainAlignedTriples(h *chainHints, cands *Candidates, q *chainTripleQuiet) {
	r := AlignedTripleExclusion.BaseRating()
	if !h.consider(r) {
		return
	}
	// changed holds the cells whose candidates differ from q's grid, and
	// changedEx those of them that may be common excluders, then or now:
	// every cell when there is no such grid.
	all := chainCells81{^uint64(0), 1<<17 - 1}
	changed, changedEx := all, all
	if q != nil && q.valid {
		changed, changedEx = chainCells81{}, chainCells81{}
		for c := 0; c < 81; c++ {
			if cands[c] != q.grid[c] {
				changed.add(c)
				if n, o := bits.OnesCount16(cands[c]), bits.OnesCount16(q.grid[c]); n == 2 || n == 3 || o == 2 || o == 3 {
					changedEx.add(c)
				}
			}
		}
		if changed == (chainCells81{}) {
			return
		}
	}
	anyBefore := h.found()
	var excl [81]chainCells81
	var bases chainCells81
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
			bases.add(c)
		}
	}
	// The triples a < b < c of base cells, in that order: c must see two
	// or more of the common excluders of a and b, which are all in few.
	for wa := 0; wa < 2; wa++ {
		for ma := bases[wa]; ma != 0; ma &= ma - 1 {
			a := wa*64 + bits.TrailingZeros64(ma)
			later := chainCellsAbove(a)
			bs := chainCells81{bases[0] & later[0], bases[1] & later[1]}
			for wb := 0; wb < 2; wb++ {
				for mb := bs[wb]; mb != 0; mb &= mb - 1 {
					b := wb*64 + bits.TrailingZeros64(mb)
					ab := chainCells81{excl[a][0] & excl[b][0], excl[a][1] & excl[b][1]}
					if bits.OnesCount64(ab[0])+bits.OnesCount64(ab[1]) < 2 {
						continue
					}
					// seen1 holds the cells that see one of ab, seen2 those
					// that see two or more.
					var seen1, seen2 chainCells81
					for w := 0; w < 2; w++ {
						for m := ab[w]; m != 0; m &= m - 1 {
							ps := &chainPeerSet[w*64+bits.TrailingZeros64(m)]
							seen2[0] |= seen1[0] & ps[0]
							seen2[1] |= seen1[1] & ps[1]
							seen1[0] |= ps[0]
							seen1[1] |= ps[1]
						}
					}
					later := chainCellsAbove(b)
					cs := chainCells81{seen2[0] & bases[0] & later[0], seen2[1] & bases[1] & later[1]}
					if !changed.has(a) && !changed.has(b) {
						need := tripleThirds(a, b, changed, changedEx)
						cs[0] &= need[0]
						cs[1] &= need[1]
					}
					for wc := 0; wc < 2; wc++ {
						for mc := cs[wc]; mc != 0; mc &= mc - 1 {
							c := wc*64 + bits.TrailingZeros64(mc)
							// One of the cells has at most three candidates
							// and sees one of the other two.
							fa, fb, fc := bits.OnesCount16(cands[a]) <= 3, bits.OnesCount16(cands[b]) <= 3, bits.OnesCount16(cands[c]) <= 3
							if !fa && !fb && !fc {
								continue
							}
							s01, s02, s12 := chainPeerSet[a].has(b), chainPeerSet[a].has(c), chainPeerSet[b].has(c)
							if !(fa && (s01 || s02) || fb && (s01 || s12) || fc && (s02 || s12)) {
								continue
							}
							common := chainCells81{ab[0] & excl[c][0], ab[1] & excl[c][1]}
							chainAlignedTriple(h, cands, r, [3]int{a, b, c}, common, [3]bool{s01, s02, s12})
						}
					}
				}
			}
		}
	}
	if q != nil {
		q.valid = !anyBefore && !h.found() && ones == (chainCells81{})
		if q.valid {
			q.grid = *cands
		}
	}
}

// tripleThirds returns the third cells c that may give unchanged cells a
// and b a triple finding something new: the changed cells, and every peer
// of a changed cell that sees a and b and may be a common excluder.
func tripleThirds(a, b int, changed, changedEx chainCells81) chainCells81 {
	pa, pb := &chainPeerSet[a], &chainPeerSet[b]
	need := changed
	for w := 0; w < 2; w++ {
		for m := pa[w] & pb[w] & changedEx[w]; m != 0; m &= m - 1 {
			ps := &chainPeerSet[w*64+bits.TrailingZeros64(m)]
			need[0] |= ps[0]
			need[1] |= ps[1]
		}
	}
	return need
}

// chainCellsAbove returns the cells after cell c.
func chainCellsAbove(c int) chainCells81 {
	if c < 63 {
		return chainCells81{^uint64(0) << (c + 1), 1<<17 - 1}
	}
	return chainCells81{0, (1<<17 - 1) &^ (1<<(c-63) - 1)}
}

// chainAlignedTriple tries one triple and records its eliminations: a
// candidate goes when no possible combination of the three cells uses
// it. Each candidate is looked at once, stopping at the first possible
// combination that uses it, which allows its other two digits too.
// sees says whether cells 0 and 1, 0 and 2, and 1 and 2 of t share a
// house.
func chainAlignedTriple(h *chainHints, cands *Candidates, r Rating, t [3]int, common chainCells81, sees [3]bool) {
	var ex [20]uint16
	ne := 0
	for w := 0; w < 2; w++ {
		for m := common[w]; m != 0; m &= m - 1 {
			ex[ne] = cands[w*64+bits.TrailingZeros64(m)]
			ne++
		}
	}
	s01, s02, s12 := sees[0], sees[1], sees[2]
	possible := func(v [3]uint16) bool {
		if s01 && v[0] == v[1] || s02 && v[0] == v[2] || s12 && v[1] == v[2] {
			return false
		}
		u := v[0] | v[1] | v[2]
		for _, e := range ex[:ne] {
			if e&^u == 0 {
				return false
			}
		}
		return true
	}
	full := [3]uint16{cands[t[0]], cands[t[1]], cands[t[2]]}
	var allowed [3]uint16
	if h.sol != nil {
		// The solution's combination is possible, and most candidates
		// are allowed by the combination of them with the solution's
		// digits of the other two cells.
		v := [3]uint16{1 << h.sol[t[0]], 1 << h.sol[t[1]], 1 << h.sol[t[2]]}
		allowed = v
		for i := range t {
			for m := full[i] &^ v[i]; m != 0; m &= m - 1 {
				w := v
				w[i] = m & -m
				if possible(w) {
					allowed[i] |= w[i]
				}
			}
		}
		if allowed == full {
			return
		}
	}
	for i := range t {
		j, k := (i+1)%3, (i+2)%3
	cand:
		for m := full[i] &^ allowed[i]; m != 0; m &= m - 1 {
			var w [3]uint16
			w[i] = m & -m
			for mj := full[j]; mj != 0; mj &= mj - 1 {
				w[j] = mj & -mj
				for mk := full[k]; mk != 0; mk &= mk - 1 {
					w[k] = mk & -mk
					if possible(w) {
						allowed[0] |= w[0]
						allowed[1] |= w[1]
						allowed[2] |= w[2]
						continue cand
					}
				}
			}
		}
	}
	if allowed == full {
		return
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
