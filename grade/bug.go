package grade

// bug finds a bivalue universal grave step. A position where every empty
// cell has two candidates and every digit two places in each unit it is
// missing from has two solutions; so when only a few "BUG cells" hold
// extra candidates, one of those extras must be true.
func (s *state) bug() (Step, bool) {
	cands := &s.p.Cands
	temp := *cands
	var bugCells [81]uint8
	nb := 0
	var bugVals [81]uint16 // extra digits per cell
	var all uint16
	common := cellSet{^uint64(0), ^uint64(0)}
	var inBug cellSet
	for _, t := range [3]int{boxType, rowType, colType} {
		for i := 0; i < 9; i++ {
			u := unitOf(t, i)
			for d := 1; d <= 9; d++ {
				w := s.where[u][d]
				if n := count(w); n == 0 || n == 2 {
					continue
				}
				// The digit has 1 or 3+ places: one of them must be a BUG cell.
				nc, bc := 0, -1
				for m := w; m != 0; m &= m - 1 {
					c := int(unitCells[u][first(m)])
					if count(cands[c]) >= 3 {
						nc++
						bc = c
					}
				}
				if nc == 0 {
					return Step{}, false
				}
				if nc > 1 {
					continue // another unit decides which cell is the buggy one
				}
				if !inBug.has(bc) {
					inBug.add(bc)
					bugCells[nb] = uint8(bc)
					nb++
				}
				bugVals[bc] |= bit(d)
				all |= bit(d)
				temp[bc] &^= bit(d)
				common = common.and(peerSet[bc])
				common[0] &^= inBug[0]
				common[1] &^= inBug[1]
				if nb > 1 && count(all) > 1 && common.empty() {
					return Step{}, false
				}
			}
		}
	}
	if nb == 0 {
		return Step{}, false
	}
	// Without the extras, the position must be a BUG.
	for c := 0; c < 81; c++ {
		if s.p.Grid[c] == 0 && count(temp[c]) != 2 {
			return Step{}, false
		}
	}
	for u := 0; u < 27; u++ {
		var cnt [10]int
		for _, c := range unitCells[u] {
			for m := temp[c]; m != 0; m &= m - 1 {
				cnt[first(m)]++
			}
		}
		for d := 1; d <= 9; d++ {
			if cnt[d] != 0 && cnt[d] != 2 {
				return Step{}, false
			}
		}
	}
	cells := append([]uint8(nil), bugCells[:nb]...)
	switch {
	case nb == 1:
		c := bugCells[0]
		var el []Elimination
		for m := cands[c] &^ all; m != 0; m &= m - 1 {
			el = append(el, Elimination{c, uint8(first(m))})
		}
		return Step{Technique: BUG1, Rating: BUG1.BaseRating(), Cells: cells, Digits: all, Eliminations: el}, true
	case count(all) == 1:
		d := first(all)
		var el []Elimination
		for c := 0; c < 81; c++ {
			if common.has(c) && cands[c]&all != 0 {
				el = append(el, Elimination{uint8(c), uint8(d)})
			}
		}
		if len(el) > 0 {
			return Step{Technique: BUG2, Rating: BUG2.BaseRating(), Cells: cells, Digits: all, Eliminations: el}, true
		}
		if nb == 2 {
			return s.bug4(bugCells[0], bugCells[1], &bugVals, all)
		}
	case !common.empty():
		if nb == 2 {
			if st, ok := s.bug4(bugCells[0], bugCells[1], &bugVals, all); ok {
				return st, true
			}
		}
		return s.bug3(cells, all, common)
	}
	return Step{}, false
}

// bug4: two BUG cells in one unit share exactly one digit besides their
// extras. One of the extras is true, and the shared digit is the unit's
// only other place for it, so each cell keeps only its extras and the
// shared digit: the candidate that is neither goes (SE's BUG type 4).
func (s *state) bug4(c1, c2 uint8, vals *[81]uint16, all uint16) (Step, bool) {
	cands := &s.p.Cands
	com := cands[c1] & cands[c2] &^ all
	if count(com) != 1 {
		return Step{}, false
	}
	for t := 0; t < 3; t++ {
		if cellUnits[c1][t] != cellUnits[c2][t] {
			continue
		}
		var el []Elimination
		for _, c := range [2]uint8{c1, c2} {
			for m := cands[c] &^ vals[c] &^ com; m != 0; m &= m - 1 {
				el = append(el, Elimination{c, uint8(first(m))})
			}
		}
		if len(el) == 0 {
			return Step{}, false
		}
		return Step{Technique: BUG4, Rating: BUG4.BaseRating(), Cells: []uint8{c1, c2}, Digits: all | com, Eliminations: el}, true
	}
	return Step{}, false
}

// bug3: the BUG cells share a unit; their extra digits act as one virtual
// cell of a naked set with other cells of that unit.
func (s *state) bug3(cells []uint8, all uint16, common cellSet) (Step, bool) {
	cands := &s.p.Cands
	for _, t := range [3]int{boxType, rowType, colType} {
		u := int(cellUnits[cells[0]][t])
		same := true
		for _, c := range cells[1:] {
			if int(cellUnits[c][t]) != u {
				same = false
			}
		}
		if !same {
			continue
		}
		// Cells of the unit that see every BUG cell.
		var rc uint16
		for j, c := range unitCells[u] {
			if common.has(int(c)) {
				rc |= 1 << j
			}
		}
		for k := 2; k <= 5; k++ {
			if count(rc) < k {
				break
			}
		combo:
			for _, m := range combos[k-1] {
				if m&^rc != 0 {
					continue
				}
				var other uint16
				for mm := m; mm != 0; mm &= mm - 1 {
					p := cands[unitCells[u][first(mm)]]
					if count(p) < 2 {
						continue combo
					}
					other |= p
				}
				if count(other) != k || count(other|all) != k {
					continue
				}
				var el []Elimination
				for r := rc &^ m; r != 0; r &= r - 1 {
					c := unitCells[u][first(r)]
					for x := cands[c] & other; x != 0; x &= x - 1 {
						el = append(el, Elimination{c, uint8(first(x))})
					}
				}
				if len(el) > 0 {
					return Step{Technique: BUG3, Rating: BUG3.BaseRating() + Rating(k-1), Cells: cells, Digits: other, Eliminations: el}, true
				}
			}
		}
	}
	return Step{}, false
}
