package grade

// Uniqueness techniques on every shape: unique rectangles and loops, and
// the bivalue universal grave, as unique.go and bug.go find them. A loop
// is valid when every row, column and box it visits holds exactly one of
// its even cells and one of its odd cells; for a rectangle that is two
// rows, two columns and two boxes, on every shape.

// sloopFinder searches unique loops for one pair of digits.
type sloopFinder struct {
	s        *sstate
	v        uint32
	loop     []uint16
	inLoop   []bool
	best     SizedStep
	bestType int
	found    bool
}

// uniqueLoops finds the easiest unique rectangle or loop step.
func (s *sstate) uniqueLoops() (SizedStep, bool) {
	g := s.g
	f := sloopFinder{s: s, loop: make([]uint16, 0, g.nc), inLoop: make([]bool, g.nc)}
	for c := 0; c < g.nc; c++ {
		m := s.cands[c]
		if count32(m) != 2 {
			continue
		}
		f.v = m
		f.loop = f.loop[:0]
		f.search(c, 2, 0, -1)
	}
	return f.best, f.found
}

// search extends the loop with cell c, as loopFinder.search.
func (f *sloopFinder) search(c, allowedEx int, ex uint32, last int) {
	g := f.s.g
	f.loop = append(f.loop, uint16(c))
	f.inLoop[c] = true
	cands := f.s.cands
	for _, t := range [3]int{boxType, rowType, colType} {
		if t == last {
			continue
		}
		u := int(g.cellUnits[c][t])
		for j := 0; j < g.n; j++ {
			next := g.cell(u, j)
			p := cands[next]
			if p&f.v != f.v {
				continue
			}
			if next == int(f.loop[0]) && len(f.loop) >= 4 {
				f.check()
				continue
			}
			if f.inLoop[next] {
				continue
			}
			ex |= p &^ f.v
			if count32(p) == 2 || count32(ex) == 1 || allowedEx > 0 {
				a := allowedEx
				if count32(p) > 2 {
					a--
				}
				f.search(next, a, ex, t)
			}
		}
	}
	f.loop = f.loop[:len(f.loop)-1]
	f.inLoop[c] = false
}

// check examines a closed loop and records its steps.
func (f *sloopFinder) check() {
	g := f.s.g
	loop := f.loop
	var odd, even [2]uint64 // units, bit u
	for i, c := range loop {
		for t := 0; t < 3; t++ {
			u := g.cellUnits[c][t]
			w, b := u>>6, uint64(1)<<(u&63)
			set := &even
			if i%2 == 1 {
				set = &odd
			}
			if set[w]&b != 0 {
				return
			}
			set[w] |= b
		}
	}
	if odd != even {
		return
	}
	cands := f.s.cands
	var extra []uint16
	for _, c := range loop {
		if count32(cands[c]) > 2 {
			extra = append(extra, c)
		}
	}
	base := uniqueLoopRating(len(loop))
	switch ne := len(extra); {
	case ne == 1:
		c := extra[0]
		var el []SizedCandidate
		for m := f.v; m != 0; m &= m - 1 {
			el = append(el, SizedCandidate{c, uint8(first32(m))})
		}
		f.offer(1, base, el)
	case ne > 2:
		f.type2(extra, base)
	case ne == 2:
		r1, r2 := int(extra[0]), int(extra[1])
		rp := (cands[r1] | cands[r2]) &^ f.v
		if count32(rp) == 1 {
			f.type2(extra, base)
		} else if count32(rp) >= 2 {
			f.type3(r1, r2, rp, base)
			f.type3Hidden(r1, r2, rp, base)
		}
		f.type4(r1, r2, base)
	}
}

// type2: the extra cells share one extra digit, which leaves every cell
// that sees all of them.
func (f *sloopFinder) type2(extra []uint16, base Rating) {
	g := f.s.g
	cands := f.s.cands
	z := cands[extra[0]] &^ f.v
	if z == 0 {
		return
	}
	z &= -z
	var el []SizedCandidate
cells:
	for c := 0; c < g.nc; c++ {
		if cands[c]&z == 0 {
			continue
		}
		for _, e := range extra {
			if !g.sees(int(e), c) {
				continue cells
			}
		}
		el = append(el, SizedCandidate{uint16(c), uint8(first32(z))})
	}
	f.offer(2, base, el)
}

// type3: the extra digits of the two extra cells act as one virtual cell
// in a naked set with other cells of a unit the two share.
func (f *sloopFinder) type3(r1, r2 int, extra uint32, base Rating) {
	g := f.s.g
	cands := f.s.cands
	for t := 0; t < 3; t++ {
		u := int(g.cellUnits[r1][t])
		if int(g.cellUnits[r2][t]) != u {
			continue
		}
		i1, i2 := int(g.cellIndex[r1][t]), int(g.cellIndex[r2][t])
		// The other cells of the set: two or more candidates, neither
		// extra cell. The walk visits their (k-1)-subsets in the order
		// of combos, as the 9x9 finder does, but drops a partial subset
		// as soon as its union is too wide.
		var sw subsetWalk32
		for j := 0; j < g.n; j++ {
			if p := cands[g.cell(u, j)]; j != i1 && j != i2 && count32(p) >= 2 {
				sw.add(p, j)
			}
		}
		for k := count32(extra); k <= 7; k++ {
			if 2*k > f.s.empty[u] || k > 5 {
				break
			}
			sw.startWith(k-1, extra, k)
			for {
				m, union, more := sw.next()
				if !more {
					break
				}
				var el []SizedCandidate
				for j := 0; j < g.n; j++ {
					if j == i1 || j == i2 || m&(1<<j) != 0 {
						continue
					}
					c := g.cell(u, j)
					for x := cands[c] & union; x != 0; x &= x - 1 {
						el = append(el, SizedCandidate{uint16(c), uint8(first32(x))})
					}
				}
				f.offer(3, base+Rating(k-1), el)
			}
		}
	}
}

// type3Hidden: the hidden-set form of type 3, as loopFinder.type3Hidden.
func (f *sloopFinder) type3Hidden(r1, r2 int, extra uint32, base Rating) {
	g := f.s.g
	cands := f.s.cands
	for t := 0; t < 3; t++ {
		u := int(g.cellUnits[r1][t])
		if int(g.cellUnits[r2][t]) != u {
			continue
		}
		i1, i2 := int(g.cellIndex[r1][t]), int(g.cellIndex[r2][t])
		rest := g.all &^ f.v &^ extra
		for k := count32(extra); k <= 5; k++ {
			if 2*k >= f.s.empty[u] {
				break
			}
			for _, m := range g.combos[k-2] {
				others := m << 1
				if others&^rest != 0 {
					continue
				}
				digits := others | f.v
				var union uint32
				ok := true
				for x := digits; x != 0; x &= x - 1 {
					w := f.s.w(u, first32(x)) &^ (1 << i2)
					if w == 0 {
						ok = false
						break
					}
					union |= w
				}
				if !ok || count32(union) != k {
					continue
				}
				var el []SizedCandidate
				for x := union &^ (1<<i1 | 1<<i2); x != 0; x &= x - 1 {
					c := g.cell(u, first32(x))
					for y := cands[c] &^ digits; y != 0; y &= y - 1 {
						el = append(el, SizedCandidate{uint16(c), uint8(first32(y))})
					}
				}
				f.offer(3, base+Rating(k-2), el)
			}
		}
	}
}

// type4: in a unit the two extra cells share, one loop digit has no other
// place, so the other loop digit leaves both extra cells.
func (f *sloopFinder) type4(r1, r2 int, base Rating) {
	g := f.s.g
	v1 := f.v & -f.v
	v2 := f.v &^ v1
	for t := 0; t < 3; t++ {
		u := int(g.cellUnits[r1][t])
		if int(g.cellUnits[r2][t]) != u {
			continue
		}
		own := uint32(1)<<g.cellIndex[r1][t] | uint32(1)<<g.cellIndex[r2][t]
		var rem uint32
		if f.s.w(u, first32(v1))&^own == 0 {
			rem = v2
		} else if f.s.w(u, first32(v2))&^own == 0 {
			rem = v1
		} else {
			continue
		}
		d := uint8(first32(rem))
		f.offer(4, base, []SizedCandidate{{uint16(r1), d}, {uint16(r2), d}})
	}
}

// offer records a candidate step if it eliminates something and beats
// the best so far.
func (f *sloopFinder) offer(typ int, r Rating, el []SizedCandidate) {
	if len(el) == 0 {
		return
	}
	if f.found && (r > f.best.Rating || (r == f.best.Rating && typ >= f.bestType)) {
		return
	}
	tech := UniqueRectangle
	if len(f.loop) > 4 {
		tech = UniqueLoop
	}
	f.best = SizedStep{Technique: tech, Rating: r, Cells: append([]uint16(nil), f.loop...),
		Digits: f.v, Eliminations: el}
	f.bestType, f.found = typ, true
}

// bug finds a bivalue universal grave step, as state.bug.
func (s *sstate) bug() (SizedStep, bool) {
	g := s.g
	n := g.n
	cands := s.cands
	temp := append([]uint32(nil), cands...)
	var bugCells []uint16
	bugVals := make([]uint32, g.nc)
	inBug := make([]bool, g.nc)
	var all uint32
	// common: the cells that see every BUG cell and are none of them.
	var common []bool
	commonAny := true
	for _, t := range [3]int{boxType, rowType, colType} {
		for i := 0; i < n; i++ {
			u := t*n + i
			for d := 1; d <= n; d++ {
				w := s.w(u, d)
				if k := count32(w); k == 0 || k == 2 {
					continue
				}
				nc, bc := 0, -1
				for m := w; m != 0; m &= m - 1 {
					c := g.cell(u, first32(m))
					if count32(cands[c]) >= 3 {
						nc++
						bc = c
					}
				}
				if nc == 0 {
					return SizedStep{}, false
				}
				if nc > 1 {
					continue
				}
				if !inBug[bc] {
					inBug[bc] = true
					bugCells = append(bugCells, uint16(bc))
				}
				bugVals[bc] |= 1 << d
				all |= 1 << d
				temp[bc] &^= 1 << d
				if common == nil {
					common = make([]bool, g.nc)
					for c := range common {
						common[c] = g.sees(bc, c)
					}
				} else {
					for c := range common {
						common[c] = common[c] && g.sees(bc, c)
					}
				}
				commonAny = false
				for c := range common {
					if inBug[c] {
						common[c] = false
					}
					commonAny = commonAny || common[c]
				}
				if len(bugCells) > 1 && count32(all) > 1 && !commonAny {
					return SizedStep{}, false
				}
			}
		}
	}
	nb := len(bugCells)
	if nb == 0 {
		return SizedStep{}, false
	}
	for c := 0; c < g.nc; c++ {
		if s.grid[c] == 0 && count32(temp[c]) != 2 {
			return SizedStep{}, false
		}
	}
	var cnt [26]int
	for u := 0; u < g.nu; u++ {
		cnt = [26]int{}
		for j := 0; j < n; j++ {
			for m := temp[g.cell(u, j)]; m != 0; m &= m - 1 {
				cnt[first32(m)]++
			}
		}
		for d := 1; d <= n; d++ {
			if cnt[d] != 0 && cnt[d] != 2 {
				return SizedStep{}, false
			}
		}
	}
	cells := bugCells
	switch {
	case nb == 1:
		c := bugCells[0]
		var el []SizedCandidate
		for m := cands[c] &^ all; m != 0; m &= m - 1 {
			el = append(el, SizedCandidate{c, uint8(first32(m))})
		}
		return SizedStep{Technique: BUG1, Rating: BUG1.BaseRating(), Cells: cells, Digits: all, Eliminations: el}, true
	case count32(all) == 1:
		d := uint8(first32(all))
		var el []SizedCandidate
		for c := 0; c < g.nc; c++ {
			if common[c] && cands[c]&all != 0 {
				el = append(el, SizedCandidate{uint16(c), d})
			}
		}
		if len(el) > 0 {
			return SizedStep{Technique: BUG2, Rating: BUG2.BaseRating(), Cells: cells, Digits: all, Eliminations: el}, true
		}
		if nb == 2 {
			return s.bug4(bugCells[0], bugCells[1], bugVals, all)
		}
	case commonAny:
		if nb == 2 {
			if st, ok := s.bug4(bugCells[0], bugCells[1], bugVals, all); ok {
				return st, true
			}
		}
		return s.bug3(cells, all, common)
	}
	return SizedStep{}, false
}

// bug4 is state.bug4 on every shape.
func (s *sstate) bug4(c1, c2 uint16, vals []uint32, all uint32) (SizedStep, bool) {
	g := s.g
	cands := s.cands
	com := cands[c1] & cands[c2] &^ all
	if count32(com) != 1 {
		return SizedStep{}, false
	}
	for t := 0; t < 3; t++ {
		if g.cellUnits[c1][t] != g.cellUnits[c2][t] {
			continue
		}
		var el []SizedCandidate
		for _, c := range [2]uint16{c1, c2} {
			for m := cands[c] &^ vals[c] &^ com; m != 0; m &= m - 1 {
				el = append(el, SizedCandidate{c, uint8(first32(m))})
			}
		}
		if len(el) == 0 {
			return SizedStep{}, false
		}
		return SizedStep{Technique: BUG4, Rating: BUG4.BaseRating(), Cells: []uint16{c1, c2}, Digits: all | com, Eliminations: el}, true
	}
	return SizedStep{}, false
}

// bug3 is state.bug3 on every shape.
func (s *sstate) bug3(cells []uint16, all uint32, common []bool) (SizedStep, bool) {
	g := s.g
	cands := s.cands
	for _, t := range [3]int{boxType, rowType, colType} {
		u := int(g.cellUnits[cells[0]][t])
		same := true
		for _, c := range cells[1:] {
			if int(g.cellUnits[c][t]) != u {
				same = false
			}
		}
		if !same {
			continue
		}
		var rc uint32
		for j := 0; j < g.n; j++ {
			if common[g.cell(u, j)] {
				rc |= 1 << j
			}
		}
		for k := 2; k <= 5; k++ {
			if count32(rc) < k {
				break
			}
		combo:
			for _, m := range g.combos[k-1] {
				if m&^rc != 0 {
					continue
				}
				var other uint32
				for mm := m; mm != 0; mm &= mm - 1 {
					p := cands[g.cell(u, first32(mm))]
					if count32(p) < 2 {
						continue combo
					}
					other |= p
				}
				if count32(other) != k || count32(other|all) != k {
					continue
				}
				var el []SizedCandidate
				for r := rc &^ m; r != 0; r &= r - 1 {
					c := g.cell(u, first32(r))
					for x := cands[c] & other; x != 0; x &= x - 1 {
						el = append(el, SizedCandidate{uint16(c), uint8(first32(x))})
					}
				}
				if len(el) > 0 {
					return SizedStep{Technique: BUG3, Rating: BUG3.BaseRating() + Rating(k-1), Cells: cells, Digits: other, Eliminations: el}, true
				}
			}
		}
	}
	return SizedStep{}, false
}
