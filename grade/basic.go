package grade

import "math/bits"

// The techniques up to 5.4 that work on one unit or one digit at a time:
// singles, intersections, naked and hidden sets, and fish. Each finder
// searches with plain loops over the state's masks and allocates only
// for the step it returns.

// regionOrder is the order in which SE scans units for subsets and
// singles: boxes, then columns, then rows.
var regionOrder = [3]int{boxType, colType, rowType}

// fullHouse finds a unit with one empty cell left.
func (s *state) fullHouse() (Step, bool) {
	if s.lastOne == 0 {
		return Step{}, false
	}
	for _, t := range regionOrder {
		for m := s.lastOne >> (9 * t) & 0x1ff; m != 0; m &= m - 1 {
			u := unitOf(t, bits.TrailingZeros32(m))
			for _, c := range unitCells[u] {
				if s.p.Grid[c] == 0 && count(s.p.Cands[c]) == 1 {
					d := uint8(first(s.p.Cands[c]))
					return Step{Technique: FullHouse, Rating: FullHouse.BaseRating(),
						Cells: []uint8{c}, Digits: 1 << d,
						Placements: []Placement{{c, d}}}, true
				}
			}
		}
	}
	return Step{}, false
}

// hiddenSingle finds a digit with one place left in a box (inBox) or in
// a row or column.
func (s *state) hiddenSingle(inBox bool) (Step, bool) {
	types := []int{colType, rowType}
	tech := HiddenSingleLine
	if inBox {
		types, tech = []int{boxType}, HiddenSingleBox
	}
	for _, t := range types {
		for i := 0; i < 9; i++ {
			u := unitOf(t, i)
			if m := s.singles[u]; m != 0 {
				d := first(m)
				c := unitCells[u][first(s.where[u][d])]
				return Step{Technique: tech, Rating: tech.BaseRating(),
					Cells: []uint8{c}, Digits: bit(d),
					Placements: []Placement{{c, uint8(d)}}}, true
			}
		}
	}
	return Step{}, false
}

// nakedSingle finds a cell with one candidate left.
func (s *state) nakedSingle() (Step, bool) {
	for c := 0; c < 81; c++ {
		if m := s.p.Cands[c]; s.p.Grid[c] == 0 && m != 0 && m&(m-1) == 0 {
			d := uint8(first(m))
			return Step{Technique: NakedSingle, Rating: NakedSingle.BaseRating(),
				Cells: []uint8{uint8(c)}, Digits: m,
				Placements: []Placement{{uint8(c), d}}}, true
		}
	}
	return Step{}, false
}

// lockingPairs are the (base, cover) unit types of intersections in SE
// order: pointing (box on column, box on row), then claiming (column on
// box, row on box).
var lockingPairs = [4][2]int{{boxType, colType}, {boxType, rowType}, {colType, boxType}, {rowType, boxType}}

// coverOf returns the unit of type t that holds every cell of unit u at
// the positions of m, or -1.
func coverOf(u int, m uint16, t int) int {
	if m == 0 {
		return -1
	}
	i := first(m)
	if m&^sameCover[u][t][i] != 0 {
		return -1
	}
	return int(cellUnits[unitCells[u][i]][t])
}

// locking finds a pointing or claiming: the candidates of a digit in a
// base unit all lie in one cover unit, so the digit leaves the rest of the
// cover. In direct mode it counts only when that leaves the digit one
// place in another unit of the base type crossing the cover (SE's rule),
// and the step then also places that hidden single.
func (s *state) locking(direct bool) (Step, bool) {
	// As in fish, the digits unchanged since this search last found
	// nothing are skipped: a locking depends on its digit's places only.
	none := &s.lockNone[b2i(direct)]
	var unchanged uint16
	for d := 1; d <= 9; d++ {
		if none[d] == s.dver[d]|1<<63 {
			unchanged |= bit(d)
		}
	}
	for _, pr := range lockingPairs {
		t1, t2 := pr[0], pr[1]
		for d := 1; d <= 9; d++ {
			if unchanged&bit(d) != 0 {
				continue
			}
			for i1 := 0; i1 < 9; i1++ {
				u1 := unitOf(t1, i1)
				w := s.where[u1][d]
				if count(w) < 2 {
					continue
				}
				u2 := coverOf(u1, w, t2)
				if u2 < 0 {
					continue
				}
				// Removable: the digit in the cover outside the base.
				rem := s.where[u2][d] &^ posIn[u2][u1]
				if rem == 0 {
					continue
				}
				if !direct {
					tech := Pointing
					if t1 != boxType {
						tech = Claiming
					}
					return s.lockingStep(tech, u1, w, u2, rem, d, -1), true
				}
				for i3 := 0; i3 < 9; i3++ {
					u3 := unitOf(t1, i3)
					if u3 == u1 || !crosses[u3][u2] {
						continue
					}
					w3 := s.where[u3][d]
					if count(w3) < 2 {
						continue
					}
					hc, n := -1, 0
					for m := w3; m != 0; m &= m - 1 {
						c := int(unitCells[u3][first(m)])
						if int(cellUnits[c][t2]) != u2 {
							n++
							hc = c
						}
					}
					if n == 1 {
						tech := DirectPointing
						if t1 != boxType {
							tech = DirectClaiming
						}
						return s.lockingStep(tech, u1, w, u2, rem, d, hc), true
					}
				}
			}
		}
	}
	for d := 1; d <= 9; d++ {
		none[d] = s.dver[d] | 1<<63
	}
	return Step{}, false
}

func (s *state) lockingStep(tech Technique, u1 int, w uint16, u2 int, rem uint16, d, hc int) Step {
	st := Step{Technique: tech, Rating: tech.BaseRating(), Cells: cellsOf(u1, w), Digits: bit(d)}
	if hc >= 0 {
		// A direct step places its hidden single only: like SE, it leaves
		// the eliminations that justify it unapplied.
		st.Placements = []Placement{{uint8(hc), uint8(d)}}
		return st
	}
	for ; rem != 0; rem &= rem - 1 {
		st.Eliminations = append(st.Eliminations, Elimination{unitCells[u2][first(rem)], uint8(d)})
	}
	return st
}

// nakedSet finds k cells of a unit whose candidates together are k
// digits; the digits leave the unit's other cells. Like SE it looks only
// in units with at least 2k empty cells.
func (s *state) nakedSet(k int) (Step, bool) {
	tech := [5]Technique{2: NakedPair, 3: NakedTriple, 4: NakedQuad}[k]
	// A naked set depends on its unit only: the units unchanged since
	// this search last found nothing are skipped, as in fish.
	none := &s.nakedNone[k]
	for _, t := range regionOrder {
		for i := 0; i < 9; i++ {
			u := unitOf(t, i)
			if s.empty[u] < 2*k || none[u] == s.uver[u]|1<<63 {
				continue
			}
			// Members: the cells with two to k candidates (one with more
			// is in no set of k; leaving it out keeps the order of those
			// found).
			var sw subsetWalk
			for j, c := range unitCells[u] {
				if n := count(s.p.Cands[c]); n >= 2 && n <= k {
					sw.add(s.p.Cands[c], j)
				}
			}
			sw.start(k)
			for {
				m, union, more := sw.next()
				if !more {
					break
				}
				var rem [9]uint16
				any := false
				for j := 0; j < 9; j++ {
					if m&(1<<j) == 0 {
						if x := s.p.Cands[unitCells[u][j]] & union; x != 0 {
							rem[j], any = x, true
						}
					}
				}
				if !any {
					continue
				}
				st := Step{Technique: tech, Rating: tech.BaseRating(), Cells: cellsOf(u, m), Digits: union}
				st.Eliminations = unitElims(u, &rem)
				return st, true
			}
		}
	}
	for u := range none {
		none[u] = s.uver[u] | 1<<63
	}
	return Step{}, false
}

// subsetWalk visits the k-subsets of up to 9 members (each a bit
// position and a set) whose sets together hold exactly k elements, in
// increasing order of their position masks, as a scan of combos[k] would.
// It drops a partial subset as soon as its union passes k elements, which
// skips most of the combinations a full scan tests.
type subsetWalk struct {
	sets [9]uint16
	pos  [9]uint8 // increasing
	n, k int
	j    int       // the index being advanced; idx[j+1:] are fixed
	idx  [4]int    // member indices, idx[0] < ... < idx[k-1]
	un   [5]uint16 // un[i] is the union of the sets of idx[i:k]
}

// add appends a member; positions must come in increasing order.
func (w *subsetWalk) add(set uint16, pos int) {
	w.sets[w.n], w.pos[w.n] = set, uint8(pos)
	w.n++
}

// start begins the walk over the subsets of k members (1 <= k <= 4).
func (w *subsetWalk) start(k int) {
	w.k, w.j = k, k-1
	w.un[k] = 0
	w.idx[k-1] = k - 2
}

// next returns the next subset's position mask and union, or false at
// the end. Subsets are ordered colexicographically (highest member
// first), which is increasing order of the masks.
func (w *subsetWalk) next() (mask, union uint16, ok bool) {
	k := w.k
	if k > w.n {
		return 0, 0, false
	}
	for {
		j := w.j
		w.idx[j]++
		limit := w.n
		if j < k-1 {
			limit = w.idx[j+1]
		}
		if w.idx[j] >= limit {
			if j == k-1 {
				w.k = 10 // exhausted
				return 0, 0, false
			}
			w.j++
			continue
		}
		w.un[j] = w.un[j+1] | w.sets[w.idx[j]]
		if count(w.un[j]) > k {
			continue // every subset with these members is too wide
		}
		if j > 0 {
			w.j--
			w.idx[j-1] = j - 2
			continue
		}
		if count(w.un[0]) != k {
			continue
		}
		for i := 0; i < k; i++ {
			mask |= 1 << w.pos[w.idx[i]]
		}
		return mask, w.un[0], true
	}
}

// unitElims lists the eliminations rem[j] (a digit mask) at position j of
// unit u.
func unitElims(u int, rem *[9]uint16) []Elimination {
	var out []Elimination
	for j, m := range rem {
		for ; m != 0; m &= m - 1 {
			out = append(out, Elimination{unitCells[u][j], uint8(first(m))})
		}
	}
	return out
}

// hiddenSet finds k digits of a unit that fit only in the same k cells;
// other candidates leave those cells. Like SE it looks only in units with
// more than 2k empty cells. In direct mode (pairs and triples) it counts
// only when that leaves another digit one place in the unit, and the
// step then also places that hidden single.
func (s *state) hiddenSet(k int, direct bool) (Step, bool) {
	tech := [5]Technique{2: HiddenPair, 3: HiddenTriple, 4: HiddenQuad}[k]
	if direct {
		tech = [5]Technique{2: DirectHiddenPair, 3: DirectHiddenTriple}[k]
	}
	none := &s.hiddenNone[k][b2i(direct)] // as in nakedSet
	for _, t := range regionOrder {
		for i := 0; i < 9; i++ {
			u := unitOf(t, i)
			if e := s.empty[u]; (direct && e <= k) || (!direct && e <= 2*k) || none[u] == s.uver[u]|1<<63 {
				continue
			}
			// Members: the digits (bit d-1) with two to k places, as in
			// nakedSet.
			var sw subsetWalk
			for d := 1; d <= 9; d++ {
				if w := s.where[u][d]; count(w) >= 2 && count(w) <= k {
					sw.add(w, d-1)
				}
			}
			sw.start(k)
			for {
				m, union, more := sw.next()
				if !more {
					break
				}
				digits := m << 1
				var rem [9]uint16
				any := false
				for mm := union; mm != 0; mm &= mm - 1 {
					j := first(mm)
					if x := s.p.Cands[unitCells[u][j]] &^ digits; x != 0 {
						rem[j], any = x, true
					}
				}
				if !any {
					continue
				}
				hc, hd := -1, 0
				if direct {
					for d := 1; d <= 9 && hc < 0; d++ {
						if digits&bit(d) != 0 {
							continue
						}
						w := s.where[u][d]
						if count(w) > 1 && count(w&^union) == 1 {
							hc, hd = int(unitCells[u][first(w&^union)]), d
						}
					}
					if hc < 0 {
						continue
					}
				}
				st := Step{Technique: tech, Rating: tech.BaseRating(), Cells: cellsOf(u, union), Digits: digits}
				if hc >= 0 {
					// Direct: the hidden single only, as in lockingStep.
					st.Placements = []Placement{{uint8(hc), uint8(hd)}}
				} else {
					st.Eliminations = unitElims(u, &rem)
				}
				return st, true
			}
		}
	}
	for u := range none {
		none[u] = s.uver[u] | 1<<63
	}
	return Step{}, false
}

// fish finds k base lines (columns, then rows) in which a digit's
// candidates lie in the same k cover lines; the digit leaves the rest of
// the cover lines. Like SE it skips digits placed more than 9-2k times.
func (s *state) fish(k int) (Step, bool) {
	tech := [5]Technique{2: XWing, 3: Swordfish, 4: Jellyfish}[k]
	// A fish of one digit depends on that digit's places only: the
	// digits unchanged since this search last found nothing are skipped.
	var unchanged uint16
	for d := 1; d <= 9; d++ {
		if s.fishNone[k][d] == s.dver[d]|1<<63 {
			unchanged |= bit(d)
		}
	}
	for _, bt := range [2]int{colType, rowType} {
		ct := colType + rowType - bt
		// The base lines where the digit has two to k places: a line
		// with more puts more than k places in the union of any k.
		var ok [10]uint16
		for d := 1; d <= 9; d++ {
			if unchanged&bit(d) != 0 {
				continue
			}
			for i := 0; i < 9; i++ {
				if n := count(s.where[unitOf(bt, i)][d]); n >= 2 && n <= k {
					ok[d] |= 1 << i
				}
			}
		}
		// Digits that can make a fish at all: placed at most 9-2k times,
		// with k or more base lines holding two or more places.
		var eligible uint16
		for d := 1; d <= 9; d++ {
			if unchanged&bit(d) == 0 && s.placed[d]+2*k <= 9 && count(ok[d]) >= k {
				eligible |= bit(d)
			}
		}
		if eligible == 0 {
			continue
		}
		for _, m := range combos[k] {
		digit:
			for dm := eligible; dm != 0; dm &= dm - 1 {
				d := first(dm)
				if m&^ok[d] != 0 {
					continue
				}
				var union uint16
				for mm := m; mm != 0; mm &= mm - 1 {
					w := s.where[unitOf(bt, first(mm))][d]
					if count(w) < 2 {
						continue digit
					}
					union |= w
				}
				if count(union) != k {
					continue
				}
				var elims []Elimination
				for mm := union; mm != 0; mm &= mm - 1 {
					cu := unitOf(ct, first(mm))
					for r := s.where[cu][d] &^ m; r != 0; r &= r - 1 {
						elims = append(elims, Elimination{unitCells[cu][first(r)], uint8(d)})
					}
				}
				if len(elims) == 0 {
					continue
				}
				st := Step{Technique: tech, Rating: tech.BaseRating(), Digits: bit(d), Eliminations: elims}
				for mm := m; mm != 0; mm &= mm - 1 {
					bu := unitOf(bt, first(mm))
					st.Cells = append(st.Cells, cellsOf(bu, s.where[bu][d])...)
				}
				return st, true
			}
		}
	}
	for d := 1; d <= 9; d++ {
		s.fishNone[k][d] = s.dver[d] | 1<<63
	}
	return Step{}, false
}

// As in SE (its CommonTuples rule), every member of a naked set, hidden
// set or fish must have at least two candidates, places or positions:
// a member with one is a single, found earlier.
