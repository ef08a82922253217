package grade

import (
	"math/bits"

	"sudokubank/solve"
)

// The simple techniques that dynamic forcing chains (+) use as links, in
// SE's order: locked candidates, hidden pair, naked pair, X-wing. Inside a
// chain they run on the grid as the chain has changed it; each
// elimination they make becomes an "off" node whose parents are the
// removals (since the chain started) that the pattern needed.
//
// The same functions, with larger sizes, serve the test driver that
// stands in for the basic grader.

// chainRuleSink receives the hints of a rule: for each hint the
// candidates it removes and the candidates whose earlier removal it
// relied on (those in orig but no longer in the grid), as SE counts them:
// for locked candidates and fish the removed places of the digit in the
// base houses outside the cover houses, for hidden sets the removed set
// digits outside the set's cells, for naked sets the removed other
// digits of the set's cells.
type chainRuleSink struct {
	orig *Candidates     // the grid when the chain started; nil: no parents
	pos  *[27][10]uint16 // the grid's positions per unit and digit; nil: count them
	// units, when set (with orig), has bit u of units[d] set when the
	// chain removed digit d somewhere in unit u. A hint needs a parent to
	// count, and every parent is such a removal inside the pattern's
	// units, so the rules skip the units without one.
	units  *[10]uint32
	rem    []int16
	par    []int16
	remEnd []int
	parEnd []int
}

func (s *chainRuleSink) reset(orig *Candidates) {
	s.orig, s.pos, s.units = orig, nil, nil
	s.rem, s.par, s.remEnd, s.parEnd = s.rem[:0], s.par[:0], s.remEnd[:0], s.parEnd[:0]
}

func (s *chainRuleSink) hints() int { return len(s.remEnd) }

// skip reports whether no pattern over units with digits may have a
// parent: the chain removed none of those digits in any of those units.
func (s *chainRuleSink) skip(units uint32, digits uint16) bool {
	if s.units == nil {
		return false
	}
	for ; digits != 0; digits &= digits - 1 {
		if s.units[bits.TrailingZeros16(digits)]&units != 0 {
			return false
		}
	}
	return true
}

// positions returns the positions of digit d in unit u of cands.
func (s *chainRuleSink) positions(cands *Candidates, u, d int) uint16 {
	if s.pos != nil {
		return s.pos[u][d]
	}
	return chainUnitPositions(cands, u, d)
}

// parent records candidate (c, d) as a parent if the chain removed it.
func (s *chainRuleSink) parent(cands *Candidates, c, d int) {
	if s.orig != nil && s.orig[c]&(1<<d) != 0 && cands[c]&(1<<d) == 0 {
		s.par = append(s.par, int16(c*9+d-1))
	}
}

// commit closes the current hint, or drops it when it removes nothing.
func (s *chainRuleSink) commit(remStart, parStart int) {
	if len(s.rem) == remStart {
		s.par = s.par[:parStart]
		return
	}
	// SE sorts a hint's removals by column, then row.
	r := s.rem[remStart:]
	key := func(k int16) int { return int(k)/9%9*1000 + int(k) }
	for i := 1; i < len(r); i++ {
		for j := i; j > 0 && key(r[j]) < key(r[j-1]); j-- {
			r[j], r[j-1] = r[j-1], r[j]
		}
	}
	s.remEnd = append(s.remEnd, len(s.rem))
	s.parEnd = append(s.parEnd, len(s.par))
}

// chainLockingRule finds pointing (box -> line) and claiming (line ->
// box) eliminations.
func chainLockingRule(s *chainRuleSink, cands *Candidates) {
	for d := 1; d <= 9; d++ {
		// Pointing: the digit's places in a box lie in one row or column.
		for b := 18; b < 27; b++ {
			if s.skip(1<<b, 1<<d) {
				continue // the parents are removals of d in the box
			}
			pm := s.positions(cands, b, d)
			if bits.OnesCount16(pm) < 2 {
				continue
			}
			for _, line := range chainLockedLines(b, pm) {
				if line < 0 {
					continue
				}
				// Nothing to remove unless the line has d outside the
				// box: most boxes stop here, before any scan.
				if s.positions(cands, line, d)&^posIn[line][b] == 0 {
					continue
				}
				rs, ps := len(s.rem), len(s.par)
				for _, c := range solve.Units[line] {
					if chainPos[b][c] == 9 && cands[c]&(1<<d) != 0 {
						s.rem = append(s.rem, int16(c*9+d-1))
					}
				}
				if len(s.rem) > rs {
					for _, c := range solve.Units[b] {
						if chainPos[line][c] == 9 {
							s.parent(cands, c, d)
						}
					}
				}
				s.commit(rs, ps)
			}
		}
		// Claiming: the digit's places in a line lie in one box.
		for line := 0; line < 18; line++ {
			if s.skip(1<<line, 1<<d) {
				continue // the parents are removals of d in the line
			}
			pm := s.positions(cands, line, d)
			if bits.OnesCount16(pm) < 2 {
				continue
			}
			box := chainLineBox(line, pm)
			if box < 0 {
				continue
			}
			// Nothing to remove unless the box has d outside the line.
			if s.positions(cands, box, d)&^posIn[box][line] == 0 {
				continue
			}
			rs, ps := len(s.rem), len(s.par)
			for _, c := range solve.Units[box] {
				if chainPos[line][c] == 9 && cands[c]&(1<<d) != 0 {
					s.rem = append(s.rem, int16(c*9+d-1))
				}
			}
			if len(s.rem) > rs {
				for _, c := range solve.Units[line] {
					if chainPos[box][c] == 9 {
						s.parent(cands, c, d)
					}
				}
			}
			s.commit(rs, ps)
		}
	}
}

// chainLockedLines returns the row and the column (unit indices) that
// hold every position in pm of box b, each -1 when there is none. pm
// has two positions or more. A box's positions 3k..3k+2 are its k-th
// row, positions k, k+3 and k+6 its k-th column.
func chainLockedLines(b int, pm uint16) [2]int {
	row, col := -1, -1
	i := b - 18
	for k := 0; k < 3; k++ {
		if pm&^(0x7<<(3*k)) == 0 {
			row = i/3*3 + k
		}
		if pm&^(0x49<<k) == 0 {
			col = 9 + i%3*3 + k
		}
	}
	return [2]int{row, col}
}

// chainLineBox returns the box (unit index) that holds every position
// in pm (two or more) of line, or -1 when there is none. A line's
// positions 3t..3t+2 lie in its t-th box.
func chainLineBox(line int, pm uint16) int {
	for t := 0; t < 3; t++ {
		if pm&^(0x7<<(3*t)) == 0 {
			if line < 9 {
				return 18 + line/3*3 + t // a row
			}
			return 18 + t*3 + (line-9)/3 // a column
		}
	}
	return -1
}

// chainNakedSetRule finds naked sets of size n: n cells of a house whose
// candidates are n digits, which leave the rest of the house.
func chainNakedSetRule(s *chainRuleSink, cands *Candidates, n int) {
	for u := 0; u < 27; u++ {
		if s.skip(1<<u, allDigits) {
			continue // the parents are removals in the set's cells
		}
		var cells [9]int
		nc := 0
		for _, c := range solve.Units[u] {
			if k := bits.OnesCount16(cands[c]); k >= 2 && k <= n {
				cells[nc] = c
				nc++
			}
		}
		var idx [4]int
		if nc >= n {
			for i := range idx[:n] {
				idx[i] = i
			}
			for ok := true; ok; ok = chainNextCombo(idx[:n], nc) {
				var m uint16
				for _, i := range idx[:n] {
					m |= cands[cells[i]]
				}
				if bits.OnesCount16(m) != n {
					continue
				}
				rs, ps := len(s.rem), len(s.par)
				for _, c := range solve.Units[u] {
					in := false
					for _, i := range idx[:n] {
						if cells[i] == c {
							in = true
						}
					}
					if in {
						continue
					}
					for w := cands[c] & m; w != 0; w &= w - 1 {
						s.rem = append(s.rem, int16(c*9+bits.TrailingZeros16(w)-1))
					}
				}
				if len(s.rem) > rs && s.orig != nil {
					for _, i := range idx[:n] {
						c := cells[i]
						for w := s.orig[c] &^ m; w != 0; w &= w - 1 {
							s.parent(cands, c, bits.TrailingZeros16(w))
						}
					}
				}
				s.commit(rs, ps)
			}
		}
	}
}

// chainHiddenSetRule finds hidden sets of size n: n digits confined to n
// cells of a house, whose other candidates go.
func chainHiddenSetRule(s *chainRuleSink, cands *Candidates, n int) {
	for u := 0; u < 27; u++ {
		if s.skip(1<<u, allDigits) {
			continue // the parents are removals of the set's digits in u
		}
		var pos [10]uint16
		var digs [9]int
		nd := 0
		for d := 1; d <= 9; d++ {
			pos[d] = s.positions(cands, u, d)
			if k := bits.OnesCount16(pos[d]); k >= 2 && k <= n {
				digs[nd] = d
				nd++
			}
		}
		var idx [4]int
		if nd >= n {
			for i := range idx[:n] {
				idx[i] = i
			}
			for ok := true; ok; ok = chainNextCombo(idx[:n], nd) {
				var m uint16
				for _, i := range idx[:n] {
					m |= pos[digs[i]]
				}
				if bits.OnesCount16(m) != n {
					continue
				}
				var dm uint16
				for _, i := range idx[:n] {
					dm |= 1 << digs[i]
				}
				rs, ps := len(s.rem), len(s.par)
				for w := m; w != 0; w &= w - 1 {
					c := solve.Units[u][bits.TrailingZeros16(w)]
					for x := cands[c] &^ dm; x != 0; x &= x - 1 {
						s.rem = append(s.rem, int16(c*9+bits.TrailingZeros16(x)-1))
					}
				}
				if len(s.rem) > rs {
					for _, i := range idx[:n] {
						for j, c := range solve.Units[u] {
							if m&(1<<j) == 0 {
								s.parent(cands, c, digs[i])
							}
						}
					}
				}
				s.commit(rs, ps)
			}
		}
	}
}

// chainFishRule finds fish of size n (X-wing, swordfish, jellyfish): n
// rows whose places for a digit lie in n columns (or the transpose).
func chainFishRule(s *chainRuleSink, cands *Candidates, n int) {
	for d := 1; d <= 9; d++ {
		for _, baseStart := range [2]int{0, 9} {
			if s.skip(0x1ff<<baseStart, 1<<d) {
				continue // the parents are removals of d in base lines
			}
			coverStart := 9 - baseStart
			var pos [9]uint16
			var lines [9]int
			nl := 0
			for i := 0; i < 9; i++ {
				pos[i] = s.positions(cands, baseStart+i, d)
				if k := bits.OnesCount16(pos[i]); k >= 2 && k <= n {
					lines[nl] = i
					nl++
				}
			}
			var idx [4]int
			if nl >= n {
				for i := range idx[:n] {
					idx[i] = i
				}
				for ok := true; ok; ok = chainNextCombo(idx[:n], nl) {
					var m uint16
					for _, i := range idx[:n] {
						m |= pos[lines[i]]
					}
					if bits.OnesCount16(m) != n {
						continue
					}
					rs, ps := len(s.rem), len(s.par)
					for w := m; w != 0; w &= w - 1 {
						cover := coverStart + bits.TrailingZeros16(w)
						for j, c := range solve.Units[cover] {
							base := false
							for _, i := range idx[:n] {
								if lines[i] == j {
									base = true
								}
							}
							if !base && cands[c]&(1<<d) != 0 {
								s.rem = append(s.rem, int16(c*9+d-1))
							}
						}
					}
					if len(s.rem) > rs {
						for _, i := range idx[:n] {
							for j, c := range solve.Units[baseStart+lines[i]] {
								if m&(1<<j) == 0 {
									s.parent(cands, c, d)
								}
							}
						}
					}
					s.commit(rs, ps)
				}
			}
		}
	}
}

// chainNextCombo advances idx, n increasing indices below k, to the next
// combination in lexicographic order, or reports false after the last.
func chainNextCombo(idx []int, k int) bool {
	n := len(idx)
	i := n - 1
	for i >= 0 && idx[i] == k-n+i {
		i--
	}
	if i < 0 {
		return false
	}
	idx[i]++
	for j := i + 1; j < n; j++ {
		idx[j] = idx[j-1] + 1
	}
	return true
}

// chainAdvanced is the scratch of the "(+)" links.
type chainAdvanced struct {
	sink chainRuleSink
}

// advance adds to r the eliminations the simple techniques make in the
// grid as the chain left it, trying the techniques in SE's order and
// stopping at the first that finds any. It reports whether it added
// nodes to propagate.
func (e *chainEngine) advance(r *chainRun) bool {
	// At the nested levels, a grid the memo knows is one on which the
	// simple techniques found nothing (advanceNested is asked only
	// then, and the memo lives while orig stays the same): go straight
	// to the inner producers.
	ent, key := -1, uint64(0)
	if e.mode.level >= 2 {
		key = chainHash(&e.work)
		if ent = e.memo.lookup(&e.work, key); ent >= 0 {
			return e.advanceNested(r, ent, key)
		}
	}
	s := &e.adv.sink
	for rule := 0; rule < 4; rule++ {
		s.reset(e.orig)
		s.pos = &e.pos
		s.units = &e.remUnits
		switch rule {
		case 0:
			chainLockingRule(s, &e.work)
		case 1:
			chainHiddenSetRule(s, &e.work, 2)
		case 2:
			chainNakedSetRule(s, &e.work, 2)
		case 3:
			chainFishRule(s, &e.work, 2)
		}
		found, added := false, false
		rs, ps := 0, 0
		for h := 0; h < s.hints(); h++ {
			re, pe := s.remEnd[h], s.parEnd[h]
			if pe > ps {
				found = true
				for _, k16 := range s.rem[rs:re] {
					k := int(k16)
					if r.off.has(k) {
						continue
					}
					n := 2 * k
					e.anc[n] = chainBits{}
					for _, p := range s.par[ps:pe] {
						e.anc[n].or(&e.anc[2*int(p)])
					}
					e.anc[n].add(n)
					r.cnt[n] = chainCount16(e.anc[n].count())
					r.off.add(k)
					e.qOff = append(e.qOff, int16(k))
					added = true
				}
			}
			rs, ps = re, pe
		}
		if found {
			return added
		}
	}
	if e.mode.level >= 2 {
		return e.advanceNested(r, ent, key)
	}
	return false
}
