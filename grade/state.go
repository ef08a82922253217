package grade

import "sudokubank/solve"

// allDigits is the candidate mask of an unconstrained cell, bits 1..9.
const allDigits uint16 = 0x3fe

// state is the working position of a logical solve plus the tables the
// techniques read, built by refresh and kept current by apply.
type state struct {
	p     Position
	where [27][10]uint16 // bit i of where[u][d]: digit d may go in unitCells[u][i]
	// singles[u] has bit d set when where[u][d] holds one place: a
	// hidden single in u.
	singles [27]uint16
	empty   [27]int // empty cells per unit
	// lastOne has bit u set when unit u has one empty cell left.
	lastOne uint32
	placed  [10]int // how many times each digit is placed
	left    int     // empty cells in the grid
	// sol, when not nil, is the solution: a technique may skip the
	// patterns it shows to eliminate nothing.
	sol *solve.Grid
	// dver[d] changes whenever digit d loses a candidate: fish(k) found
	// nothing for d where fishNone[k][d] is dver[d] with bit 63 set,
	// and need not look again until it changes.
	dver     [10]uint64
	fishNone [5][10]uint64
	// lockNone[direct] is fishNone for locking(direct).
	lockNone [2][10]uint64
	// uver[u] changes whenever a cell of unit u loses a candidate:
	// nakedNone[k][u] and hiddenNone[k][direct][u] are as fishNone for
	// nakedSet(k) and hiddenSet(k, direct), which look in one unit at a
	// time.
	uver       [27]uint64
	nakedNone  [5][27]uint64
	hiddenNone [5][2][27]uint64
	// loopHas[d] holds the cells with candidate d when uniqueLoops last
	// ran, and loopDirty the cells that lost a candidate since; the loop
	// search of digits d0 < d1 closed no loop then where loopQuiet[d0]
	// has bit d1 (see loopSame).
	loopHas   [10]cellSet
	loopDirty cellSet
	loopQuiet [10]uint16
	// The loop search of digits d0 < d1 closed loops that offered no
	// step where loopBareQ[d0] has bit d1, reading only the cells of
	// loopRegion[d0][d1] (see loopBare).
	loopBareQ  [10]uint16
	loopRegion [10][10]cellSet
	// apeNone[c0] holds the cells c1 > c0 whose aligned pair with c0,
	// tried since the last pass of alignedPairExclusion that found
	// nothing (or in it), found nothing; apeDirty the cells that lost a
	// candidate since that pass. A pair's finding reads only its two
	// cells and its common excluders, and an excluder that joins the
	// pair lost a candidate to become bivalue: while none of those is in
	// apeDirty the pair finds nothing again (one that leaves takes
	// exclusions away).
	apeNone  [81]cellSet
	apeDirty cellSet
	apeSkips int // the pairs skipped so, for tests
}

// load sets up the position of puzzle g: its digits and every candidate
// the placed digits allow.
func (s *state) load(g solve.Grid) {
	s.p.Grid = g
	var used [27]uint16 // the digits placed in each unit (and bit 0)
	for c, v := range g {
		for _, u := range cellUnits[c] {
			used[u] |= 1 << v
		}
	}
	for c := 0; c < 81; c++ {
		if g[c] != 0 {
			s.p.Cands[c] = 0
			continue
		}
		u := &cellUnits[c]
		s.p.Cands[c] = allDigits &^ (used[u[0]] | used[u[1]] | used[u[2]])
	}
	s.refresh()
}

// refresh rebuilds where, empty, placed and left from the position.
func (s *state) refresh() {
	for d := range s.dver {
		s.dver[d]++
	}
	for u := range s.uver {
		s.uver[u]++
	}
	s.loopQuiet = [10]uint16{}
	s.loopBareQ = [10]uint16{}
	s.apeNone, s.apeDirty = [81]cellSet{}, cellSet{}
	s.where = [27][10]uint16{}
	s.placed = [10]int{}
	s.left = 0
	for c := 0; c < 81; c++ {
		if v := s.p.Grid[c]; v != 0 {
			s.placed[v]++
			continue
		}
		s.left++
		r, k, b := cellUnits[c][0], cellUnits[c][1], cellUnits[c][2]
		ir, ik, ib := cellIndex[c][0], cellIndex[c][1], cellIndex[c][2]
		for m := s.p.Cands[c]; m != 0; m &= m - 1 {
			d := first(m)
			s.where[r][d] |= 1 << ir
			s.where[k][d] |= 1 << ik
			s.where[b][d] |= 1 << ib
		}
	}
	s.lastOne = 0
	for u := 0; u < 27; u++ {
		var one uint16
		for d := 1; d <= 9; d++ {
			one |= singleBit(s.where[u][d], d)
		}
		s.singles[u] = one
		n := 0
		for _, c := range unitCells[u] {
			if s.p.Grid[c] == 0 {
				n++
			}
		}
		s.empty[u] = n
		if n == 1 {
			s.lastOne |= 1 << u
		}
	}
}

// apply plays a step on the position: its placements (which also clear
// the digit from the peers) and its eliminations. It keeps where, empty,
// placed and left as refresh would build them, updating only the units
// of the cells that changed.
func (s *state) apply(st *Step) {
	for _, pl := range st.Placements {
		c, d := int(pl.Cell), pl.Digit
		s.drop(c, s.p.Cands[c])
		s.p.Grid[c] = d
		s.placed[d]++
		s.left--
		for _, u := range cellUnits[c] {
			s.empty[u]--
			s.lastOne &^= 1 << u
			if s.empty[u] == 1 {
				s.lastOne |= 1 << u
			}
		}
		for _, q := range peers[c] {
			s.drop(int(q), s.p.Cands[q]&(1<<d))
		}
	}
	for _, e := range st.Eliminations {
		s.drop(int(e.Cell), s.p.Cands[e.Cell]&(1<<e.Digit))
	}
}

// drop removes the candidates m (a subset of c's) from cell c and from
// the where masks of c's units.
func (s *state) drop(c int, m uint16) {
	if m == 0 {
		return
	}
	s.p.Cands[c] &^= m
	s.loopDirty.add(c)
	s.apeDirty.add(c)
	r, k, b := cellUnits[c][0], cellUnits[c][1], cellUnits[c][2]
	s.uver[r]++
	s.uver[k]++
	s.uver[b]++
	ir, ik, ib := cellIndex[c][0], cellIndex[c][1], cellIndex[c][2]
	for ; m != 0; m &= m - 1 {
		d := first(m)
		s.dver[d]++
		s.where[r][d] &^= 1 << ir
		s.where[k][d] &^= 1 << ik
		s.where[b][d] &^= 1 << ib
		s.singles[r] = s.singles[r]&^bit(d) | singleBit(s.where[r][d], d)
		s.singles[k] = s.singles[k]&^bit(d) | singleBit(s.where[k][d], d)
		s.singles[b] = s.singles[b]&^bit(d) | singleBit(s.where[b][d], d)
	}
}

// singleBit returns bit d when w holds exactly one place, else 0.
func singleBit(w uint16, d int) uint16 {
	var one uint16
	if w != 0 && w&(w-1) == 0 {
		one = 1
	}
	return one << d
}

// unitOf returns the unit number of the i-th unit of type t.
func unitOf(t, i int) int { return t*9 + i }

// cellsOf returns the cells of unit u at the positions set in m.
func cellsOf(u int, m uint16) []uint8 {
	out := make([]uint8, 0, count(m))
	for ; m != 0; m &= m - 1 {
		out = append(out, unitCells[u][first(m)])
	}
	return out
}
