package grade

// Uniqueness techniques: unique rectangles and loops, and the bivalue
// universal grave. They are sound because the bank holds only puzzles
// with one solution.

// loopFinder searches unique loops for one pair of digits. It keeps the
// best step found so far (lowest rating, then lowest type), as SE sorts
// all the loop hints it finds before taking the first.
type loopFinder struct {
	s      *state
	v      uint16 // the two loop digits
	loop   [81]uint8
	n      int
	inLoop cellSet
	withV  cellSet // the cells holding both loop digits
	core   cellSet // those that may lie on a loop (loopCore)
	// units[i] has a bit for each unit (chainCellUnits) that holds a
	// cell of the loop at an even (0) or odd (1) place.
	units    [2]uint32
	best     Step
	bestType int
	found    bool
	closed   bool // a loop of these digits reached check
	offered  bool // a loop of these digits had a step to offer
	// reads holds the cells whose candidates the checks of the loops
	// read, beyond the loop's own cells.
	reads cellSet
}

// loopSame reports whether the loop search of digits d0 < d1 would find
// nothing, as when uniqueLoops last ran: it closed no loop then, and it
// reads only the cells holding both digits, none of which has changed.
func (s *state) loopSame(d0, d1 int) bool {
	return s.loopQuiet[d0]&bit(d1) != 0 && s.loopHas[d0].and(s.loopHas[d1]).and(s.loopDirty).empty()
}

// loopBare reports whether the loop search of digits d0 < d1 would
// find nothing, as when it last ran: it closed loops then but none had a
// step to offer, and none of the cells it read then, kept in
// loopRegion, has changed since.
func (s *state) loopBare(d0, d1 int) bool {
	return s.loopBareQ[d0]&bit(d1) != 0 && s.loopRegion[d0][d1].and(s.loopDirty).empty()
}

// uniqueLoops finds the easiest unique rectangle or loop step.
func (s *state) uniqueLoops() (Step, bool) {
	var f loopFinder
	f.s = s
	var has [10]cellSet // has[d]: the cells with candidate d
	for c := 0; c < 81; c++ {
		for m := s.p.Cands[c]; m != 0; m &= m - 1 {
			has[first(m)].add(c)
		}
	}
	var cores [10][10]cellSet // loopCore of each pair of digits, once known
	var known, closed, offered, searched, bare [10]uint16
	for c := 0; c < 81; c++ {
		m := s.p.Cands[c]
		if count(m) != 2 {
			continue
		}
		d0, d1 := first(m), first(m&(m-1))
		if s.loopSame(d0, d1) {
			continue // the same search as last time, which closed no loop
		}
		if searched[d0]&bit(d1) == 0 && s.loopBare(d0, d1) {
			// The same search as last time, whose loops offered nothing
			// (once this call searches a pair, its region is the new one).
			closed[d0] |= bit(d1)
			bare[d0] |= bit(d1)
			continue
		}
		f.v = m
		f.withV = has[d0].and(has[d1])
		if known[d0]&(1<<d1) == 0 {
			cores[d0][d1] = loopCore(f.withV)
			known[d0] |= 1 << d1
		}
		f.core = cores[d0][d1]
		if !f.core.has(c) {
			continue // no loop that check accepts passes through c
		}
		f.n = 0
		f.inLoop = cellSet{}
		f.closed = false
		if searched[d0]&bit(d1) == 0 {
			s.loopRegion[d0][d1] = f.withV
		}
		f.offered, f.reads = false, cellSet{}
		f.search(c, 2, 0, -1)
		s.loopRegion[d0][d1].addAll(f.reads)
		searched[d0] |= bit(d1)
		if f.closed {
			closed[d0] |= bit(d1)
		}
		if f.offered {
			offered[d0] |= bit(d1)
		}
	}
	for d := range closed {
		s.loopQuiet[d] = ^closed[d]
		s.loopBareQ[d] = bare[d] | searched[d]&closed[d]&^offered[d]
	}
	s.loopHas, s.loopDirty = has, cellSet{}
	return f.best, f.found
}

// loopCore returns the cells of w that may lie on a loop check accepts:
// there every unit of a loop cell holds one loop cell at an even place
// and one at an odd, so each of a loop cell's three units (a row, a
// column and a box, even where one other cell is its partner in two)
// holds another loop cell. It strips from w the cells with a unit that
// holds none of the cells left, until none has one. A path through a
// stripped cell closes no accepted loop, so the search, which passes
// over it, finds the same loops in the same order.
func loopCore(w cellSet) cellSet {
	for changed := true; changed; {
		changed = false
		for j := 0; j < 2; j++ {
			for m := w[j]; m != 0; m &= m - 1 {
				c := j*64 + trailing64(m)
				n := 0
				for _, u := range cellUnits[c] {
					in := unitSet[u].and(w)
					in[c>>6] &^= 1 << (c & 63)
					if !in.empty() {
						n++
					}
				}
				if n < 3 {
					w[j] &^= 1 << (c & 63)
					changed = true
				}
			}
		}
	}
	return w
}

// search extends the loop with cell c. allowedEx is how many more cells
// with extra candidates may join; ex the extra digits seen so far; last
// the unit type shared by the last two cells (not reused next).
func (f *loopFinder) search(c, allowedEx int, ex uint16, last int) {
	f.units[f.n&1] |= chainCellUnits[c]
	f.loop[f.n] = uint8(c)
	f.n++
	f.inLoop.add(c)
	cands := &f.s.p.Cands
	for _, t := range [3]int{boxType, rowType, colType} {
		if t == last {
			continue
		}
		// The unit's cells that hold both digits, in unit order (which
		// is increasing cell order for every unit type); the start cell
		// is one of them.
		us := unitSet[cellUnits[c][t]].and(f.withV)
		for w := 0; w < 2; w++ {
			// The loop's cells but its first are passed over: taken out
			// of the set, they cost no test.
			inner := f.inLoop[w]
			if int(f.loop[0])>>6 == w {
				inner &^= 1 << (f.loop[0] & 63)
			}
			for m := us[w] &^ inner; m != 0; m &= m - 1 {
				next := w*64 + trailing64(m)
				if next == int(f.loop[0]) {
					if f.n >= 4 {
						f.closed = true
						f.check()
					}
					continue
				}
				p := cands[next]
				// As in SE, the extra digits accumulate over the cells tried here.
				ex |= p &^ f.v
				// check accepts no loop through next: a unit would hold
				// two cells at places of the same parity, or a unit of
				// next holds no other cell that may lie on a loop.
				if f.units[f.n&1]&chainCellUnits[next] != 0 || !f.core.has(next) {
					continue
				}
				if count(p) == 2 || count(ex) == 1 || allowedEx > 0 {
					a := allowedEx
					if count(p) > 2 {
						a--
					}
					f.search(next, a, ex, t)
				}
			}
		}
	}
	f.n--
	f.inLoop[c>>6] &^= 1 << (c & 63)
	f.units[f.n&1] &^= chainCellUnits[c]
}

// check examines a closed loop and records its steps.
func (f *loopFinder) check() {
	loop := f.loop[:f.n]
	// Every unit must be visited by exactly one even and one odd cell.
	// search admits no cell that shares a unit with a cell of its parity,
	// so each unit holds at most one of each: it holds one of each
	// exactly when the units of the two parities are the same.
	if f.units[0] != f.units[1] {
		return
	}
	cands := &f.s.p.Cands
	var extra [81]uint8
	ne := 0
	for _, c := range loop {
		if count(cands[c]) > 2 {
			extra[ne] = c
			ne++
		}
	}
	// With two extra cells or more, the types below read no cell
	// outside the loop but the peers of the first extra one.
	if ne >= 2 {
		f.reads.addAll(peerSet[extra[0]])
	}
	base := uniqueLoopRating(len(loop))
	switch {
	case ne == 1:
		c := extra[0]
		var el []Elimination
		for m := f.v; m != 0; m &= m - 1 {
			el = append(el, Elimination{c, uint8(first(m))})
		}
		f.offer(1, base, el)
	case ne > 2:
		f.type2(extra[:ne], base)
	case ne == 2:
		r1, r2 := int(extra[0]), int(extra[1])
		rp := (cands[r1] | cands[r2]) &^ f.v
		if count(rp) == 1 {
			f.type2(extra[:ne], base)
		} else if count(rp) >= 2 {
			f.type3(r1, r2, rp, base)
			f.type3Hidden(r1, r2, rp, base)
		}
		f.type4(r1, r2, base)
	}
}

// uniqueLoopRating is the SE rating of a unique loop of n cells before
// its type bonus: 4.5, +0.1 from 6 cells, +0.2 from 8, 0.3 more from 10.
func uniqueLoopRating(n int) Rating {
	r := UniqueRectangle.BaseRating()
	switch {
	case n >= 10:
		r += 5
	case n >= 8:
		r += 2
	case n >= 6:
		r++
	}
	return r
}

// type2: the extra cells share one extra digit, which leaves every cell
// that sees all of them. SE rates it as type 1.
func (f *loopFinder) type2(extra []uint8, base Rating) {
	cands := &f.s.p.Cands
	z := cands[extra[0]] &^ f.v
	if z == 0 {
		return
	}
	z &= -z
	see := cellSet{^uint64(0), ^uint64(0)}
	for _, c := range extra {
		see = see.and(peerSet[c])
	}
	var el []Elimination
	for c := 0; c < 81; c++ {
		if see.has(c) && cands[c]&z != 0 {
			el = append(el, Elimination{uint8(c), uint8(first(z))})
		}
	}
	f.offer(2, base, el)
}

// type3: the extra digits of the two extra cells act as one virtual
// cell in a naked set with other cells of a unit the two share.
func (f *loopFinder) type3(r1, r2 int, extra uint16, base Rating) {
	cands := &f.s.p.Cands
	for t := 0; t < 3; t++ {
		u := int(cellUnits[r1][t])
		if int(cellUnits[r2][t]) != u {
			continue
		}
		i1, i2 := int(cellIndex[r1][t]), int(cellIndex[r2][t])
		// The cells of the unit but r1 and r2 that may join the set:
		// those with two candidates or more.
		var members uint16
		for j, c := range unitCells[u] {
			if j != i1 && j != i2 && count(cands[c]) >= 2 {
				members |= 1 << j
			}
		}
		for k := count(extra); k <= 7; k++ {
			if 2*k > f.s.empty[u] || k > 5 {
				break
			}
			// the other k-1 cells of the set, from the members
			for _, m := range combos[k-1] {
				if m&^members != 0 {
					continue
				}
				union := extra
				for mm := m; mm != 0; mm &= mm - 1 {
					union |= cands[unitCells[u][first(mm)]]
				}
				if count(union) != k {
					continue
				}
				var el []Elimination
				for j := 0; j < 9; j++ {
					if j == i1 || j == i2 || m&(1<<j) != 0 {
						continue
					}
					c := unitCells[u][j]
					for x := cands[c] & union; x != 0; x &= x - 1 {
						el = append(el, Elimination{c, uint8(first(x))})
					}
				}
				f.offer(3, base+Rating(k-1), el)
			}
		}
	}
}

// type3Hidden: in a unit the two extra cells share, at most one of them
// holds a loop digit, so they count as one place for the loop digits; if
// the loop digits and k-2 other digits (none of them extra) then fit in k
// places, the other candidates leave those places.
func (f *loopFinder) type3Hidden(r1, r2 int, extra uint16, base Rating) {
	cands := &f.s.p.Cands
	for t := 0; t < 3; t++ {
		u := int(cellUnits[r1][t])
		if int(cellUnits[r2][t]) != u {
			continue
		}
		i1, i2 := int(cellIndex[r1][t]), int(cellIndex[r2][t])
		rest := allDigits &^ f.v &^ extra // candidates for the other hidden digits
		for k := count(extra); k <= 5; k++ {
			if 2*k >= f.s.empty[u] {
				break
			}
			for _, m := range combos[k-2] {
				others := m << 1
				if others&^rest != 0 {
					continue
				}
				digits := others | f.v
				var union uint16
				ok := true
				for x := digits; x != 0; x &= x - 1 {
					w := f.s.where[u][first(x)] &^ (1 << i2)
					if w == 0 {
						ok = false
						break
					}
					union |= w
				}
				if !ok || count(union) != k {
					continue
				}
				var el []Elimination
				for x := union &^ (1<<i1 | 1<<i2); x != 0; x &= x - 1 {
					c := unitCells[u][first(x)]
					for y := cands[c] &^ digits; y != 0; y &= y - 1 {
						el = append(el, Elimination{c, uint8(first(y))})
					}
				}
				// SE counts the set's cells other than the two extra ones,
				// k-1 of them, and adds 0.1 for each beyond the first: a
				// hidden pair adds nothing, where a naked pair adds 0.1.
				f.offer(3, base+Rating(k-2), el)
			}
		}
	}
}

// type4: in a unit the two extra cells share, one loop digit has no
// other place, so the other loop digit leaves both extra cells. SE rates
// it as type 1.
func (f *loopFinder) type4(r1, r2 int, base Rating) {
	v1 := f.v & -f.v
	v2 := f.v &^ v1
	for t := 0; t < 3; t++ {
		u := int(cellUnits[r1][t])
		if int(cellUnits[r2][t]) != u {
			continue
		}
		own := uint16(1)<<cellIndex[r1][t] | uint16(1)<<cellIndex[r2][t]
		var rem uint16
		if f.s.where[u][first(v1)]&^own == 0 {
			rem = v2
		} else if f.s.where[u][first(v2)]&^own == 0 {
			rem = v1
		} else {
			continue
		}
		el := []Elimination{{uint8(r1), uint8(first(rem))}, {uint8(r2), uint8(first(rem))}}
		f.offer(4, base, el)
	}
}

// offer records a candidate step if it eliminates something and beats the
// best so far.
func (f *loopFinder) offer(typ int, r Rating, el []Elimination) {
	if len(el) == 0 {
		return
	}
	f.offered = true
	if f.found && (r > f.best.Rating || (r == f.best.Rating && typ >= f.bestType)) {
		return
	}
	tech := UniqueRectangle
	if f.n > 4 {
		tech = UniqueLoop
	}
	f.best = Step{Technique: tech, Rating: r, Cells: append([]uint8(nil), f.loop[:f.n]...),
		Digits: f.v, Eliminations: el}
	f.bestType, f.found = typ, true
}
