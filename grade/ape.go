package grade

import "sudokubank/solve"

// alignedPairExclusion finds two cells, each with a bivalue peer, that
// share at least two bivalue peers ("excluders"). A pair of values for
// the two cells is impossible when the cells see each other and the
// values are equal, or when the two values are exactly the candidates of
// an excluder. A candidate of either cell that appears in no possible
// pair goes.
func (s *state) alignedPairExclusion() (Step, bool) {
	cands := &s.p.Cands
	// Base cells: two or more candidates, no naked single among their
	// peers, at least one bivalue peer.
	var base [81]uint8
	var excl [81]cellSet
	var baseSet cellSet
	nb := 0
	// The cells with one candidate, and the bivalue ones: the excluders
	// of a base cell are its bivalue peers.
	var ones, twos cellSet
	for c := 0; c < 81; c++ {
		switch count(cands[c]) {
		case 1:
			ones.add(c)
		case 2:
			twos.add(c)
		}
	}
	for c := 0; c < 81; c++ {
		if count(cands[c]) < 2 {
			continue
		}
		ex := peerSet[c].and(twos)
		single := !peerSet[c].and(ones).empty()
		if !single && !ex.empty() {
			base[nb] = uint8(c)
			excl[c] = ex
			baseSet.add(c)
			nb++
		}
	}
	// A pair that found nothing finds nothing again while neither cell
	// nor a common excluder has changed (see state.apeNone); none
	// collects the pairs known to find nothing now.
	var none [81]cellSet
	dirty := s.apeDirty
	for i := 0; i < nb; i++ {
		c0 := int(base[i])
		d0 := dirty.has(c0)
		// The cells that share two excluders with c0 are the peers of
		// two of its excluders: the later base cells among those, in
		// cell order, are the pairs to try.
		var once, twice cellSet
		for w := 0; w < 2; w++ {
			for m := excl[c0][w]; m != 0; m &= m - 1 {
				ps := &peerSet[w*64+trailing64(m)]
				twice[0] |= once[0] & ps[0]
				twice[1] |= once[1] & ps[1]
				once[0] |= ps[0]
				once[1] |= ps[1]
			}
		}
		later := twice.and(baseSet)
		if c0 < 64 {
			later[0] &^= 2<<c0 - 1
		} else {
			later[0] = 0
			later[1] &^= 2<<(c0-64) - 1
		}
		for j := 0; j < 2; j++ {
			for lm := later[j]; lm != 0; lm &= lm - 1 {
				c1 := j*64 + trailing64(lm)
				com := excl[c0].and(excl[c1])
				if d0 || !s.apeNone[c0].has(c1) || dirty.has(c1) || !dirty.and(com).empty() {
					if st, ok := s.alignedPair(c0, c1, com); ok {
						return st, true
					}
					s.apeNone[c0].add(c1)
				} else {
					s.apeSkips++
				}
				none[c0].add(c1)
			}
		}
	}
	s.apeNone, s.apeDirty = none, cellSet{}
	return Step{}, false
}

// alignedPair tries the cells c0 and c1, whose common excluders are com.
func (s *state) alignedPair(c0, c1 int, com cellSet) (Step, bool) {
	cands := &s.p.Cands
	var ex [20]uint16
	ne := 0
	for w := 0; w < 2; w++ {
		for m := com[w]; m != 0; m &= m - 1 {
			ex[ne] = cands[w*64+trailing64(m)]
			ne++
		}
	}
	see := peerSet[c0].has(c1)
	if s.sol != nil && !apeMayGo(s.sol, cands, c0, c1, ex[:ne], see) {
		return Step{}, false
	}
	// The excluders are bivalue: a pair of values is excluded when one
	// of them holds exactly those two, and bad[d] holds the values paired
	// with d so.
	var bad [10]uint16
	for _, e := range ex[:ne] {
		x, y := first(e), first(e&(e-1))
		bad[x] |= 1 << y
		bad[y] |= 1 << x
	}
	var ok0, ok1 uint16 // values allowed in some pair
	for a := cands[c0]; a != 0; a &= a - 1 {
		va := a & -a
		b := cands[c1] &^ bad[first(a)]
		if see {
			b &^= va
		}
		if b != 0 {
			ok0 |= va
			ok1 |= b
		}
	}
	r0, r1 := cands[c0]&^ok0, cands[c1]&^ok1
	if r0|r1 == 0 {
		return Step{}, false
	}
	st := Step{Technique: AlignedPairExclusion, Rating: AlignedPairExclusion.BaseRating(),
		Cells: []uint8{uint8(c0), uint8(c1)}, Digits: cands[c0] | cands[c1]}
	for m := r0; m != 0; m &= m - 1 {
		st.Eliminations = append(st.Eliminations, Elimination{uint8(c0), uint8(first(m))})
	}
	for m := r1; m != 0; m &= m - 1 {
		st.Eliminations = append(st.Eliminations, Elimination{uint8(c1), uint8(first(m))})
	}
	return st, true
}

// apeMayGo reports whether the pair of cells c0 and c1 may eliminate
// anything, given the solution sol: the solution's pair is possible, so
// a candidate of c0 goes only if the pair of it and the solution's digit
// of c1 is impossible (the two cells see each other and it is that
// digit, or an excluder holds exactly the two), and the other way round.
// ex are the common excluders' candidates, all bivalue.
func apeMayGo(sol *solve.Grid, cands *Candidates, c0, c1 int, ex []uint16, see bool) bool {
	v0, v1 := uint16(1)<<sol[c0], uint16(1)<<sol[c1]
	var may0, may1 uint16
	if see {
		may0, may1 = v1, v0
	}
	// Written as selects, which compile without a branch: whether an
	// excluder holds a solution value is a coin toss to the predictor.
	for _, e := range ex {
		x0, x1 := e&^v1, e&^v0
		if e&v1 == 0 {
			x0 = 0
		}
		if e&v0 == 0 {
			x1 = 0
		}
		may0 |= x0
		may1 |= x1
	}
	return may0&cands[c0]&^v0 != 0 || may1&cands[c1]&^v1 != 0
}
