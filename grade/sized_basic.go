package grade

// The sized techniques up to 5.4 that work on one unit or one digit at a
// time: singles, intersections, naked and hidden sets, and fish. Each is
// basic.go's finder with N in place of 9, scanning in the same order, so
// that on 9x9 both graders take the same path.

// fullHouse finds a unit with one empty cell left.
func (s *sstate) fullHouse() (SizedStep, bool) {
	g := s.g
	for _, t := range regionOrder {
		for i := 0; i < g.n; i++ {
			u := t*g.n + i
			if s.empty[u] != 1 {
				continue
			}
			for j := 0; j < g.n; j++ {
				c := g.cell(u, j)
				if m := s.cands[c]; s.grid[c] == 0 && count32(m) == 1 {
					return singleStep(FullHouse, c, m), true
				}
			}
		}
	}
	return SizedStep{}, false
}

// singleStep places the one digit of mask m in cell c.
func singleStep(t Technique, c int, m uint32) SizedStep {
	return SizedStep{Technique: t, Rating: t.BaseRating(), Cells: []uint16{uint16(c)}, Digits: m,
		Placements: []SizedCandidate{{uint16(c), uint8(first32(m))}}}
}

// hiddenSingle finds a digit with one place left in a box (inBox) or in
// a row or column.
func (s *sstate) hiddenSingle(inBox bool) (SizedStep, bool) {
	g := s.g
	types := []int{colType, rowType}
	tech := HiddenSingleLine
	if inBox {
		types, tech = []int{boxType}, HiddenSingleBox
	}
	for _, t := range types {
		for i := 0; i < g.n; i++ {
			u := t*g.n + i
			for d := 1; d <= g.n; d++ {
				if w := s.w(u, d); w != 0 && w&(w-1) == 0 {
					return singleStep(tech, g.cell(u, first32(w)), 1<<d), true
				}
			}
		}
	}
	return SizedStep{}, false
}

// nakedSingle finds a cell with one candidate left.
func (s *sstate) nakedSingle() (SizedStep, bool) {
	for c, m := range s.cands {
		if s.grid[c] == 0 && m != 0 && m&(m-1) == 0 {
			return singleStep(NakedSingle, c, m), true
		}
	}
	return SizedStep{}, false
}

// locking finds a pointing or claiming, direct or not, as state.locking.
func (s *sstate) locking(direct bool) (SizedStep, bool) {
	g := s.g
	n := g.n
	for _, pr := range lockingPairs {
		t1, t2 := pr[0], pr[1]
		for d := 1; d <= n; d++ {
			for i1 := 0; i1 < n; i1++ {
				u1 := t1*n + i1
				w := s.w(u1, d)
				if count32(w) < 2 {
					continue
				}
				u2 := g.coverOf(u1, w, t2)
				if u2 < 0 {
					continue
				}
				rem := s.w(u2, d) &^ g.posIn[u2*g.nu+u1]
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
				for i3 := 0; i3 < n; i3++ {
					u3 := t1*n + i3
					if u3 == u1 || !g.crosses(u3, u2) {
						continue
					}
					w3 := s.w(u3, d)
					if count32(w3) < 2 {
						continue
					}
					// The places of d in u3 outside the cover.
					out := w3 &^ g.posIn[u3*g.nu+u2]
					if count32(out) == 1 {
						tech := DirectPointing
						if t1 != boxType {
							tech = DirectClaiming
						}
						return s.lockingStep(tech, u1, w, u2, rem, d, g.cell(u3, first32(out))), true
					}
				}
			}
		}
	}
	return SizedStep{}, false
}

func (s *sstate) lockingStep(tech Technique, u1 int, w uint32, u2 int, rem uint32, d, hc int) SizedStep {
	st := SizedStep{Technique: tech, Rating: tech.BaseRating(), Cells: s.cellsOf(u1, w), Digits: 1 << d}
	if hc >= 0 {
		st.Placements = []SizedCandidate{{uint16(hc), uint8(d)}}
		return st
	}
	for ; rem != 0; rem &= rem - 1 {
		st.Eliminations = append(st.Eliminations, SizedCandidate{uint16(s.g.cell(u2, first32(rem))), uint8(d)})
	}
	return st
}

// nakedSet finds k cells of a unit whose candidates together are k
// digits, as state.nakedSet.
func (s *sstate) nakedSet(k int) (SizedStep, bool) {
	g := s.g
	n := g.n
	tech := [5]Technique{2: NakedPair, 3: NakedTriple, 4: NakedQuad}[k]
	var sw subsetWalk32
	for _, t := range regionOrder {
		for i := 0; i < n; i++ {
			u := t*n + i
			if s.empty[u] < 2*k {
				continue
			}
			sw.reset()
			for j := 0; j < n; j++ {
				if cm := s.cands[g.cell(u, j)]; count32(cm) >= 2 {
					sw.add(cm, j)
				}
			}
			sw.start(k)
			for {
				m, union, more := sw.next()
				if !more {
					break
				}
				var el []SizedCandidate
				for j := 0; j < n; j++ {
					if m&(1<<j) == 0 {
						c := g.cell(u, j)
						for x := s.cands[c] & union; x != 0; x &= x - 1 {
							el = append(el, SizedCandidate{uint16(c), uint8(first32(x))})
						}
					}
				}
				if len(el) == 0 {
					continue
				}
				return SizedStep{Technique: tech, Rating: tech.BaseRating(), Cells: s.cellsOf(u, m),
					Digits: union, Eliminations: el}, true
			}
		}
	}
	return SizedStep{}, false
}

// subsetWalk32 is subsetWalk over up to 25 members with uint32 sets.
// startWith generalises it: the union starts from a seed and must reach
// a given size.
type subsetWalk32 struct {
	sets [25]uint32
	pos  [25]uint8
	n, k int
	size int // the size the union must have
	j    int
	idx  [4]int
	un   [5]uint32
}

func (w *subsetWalk32) reset() { w.n = 0 }

func (w *subsetWalk32) add(set uint32, pos int) {
	w.sets[w.n], w.pos[w.n] = set, uint8(pos)
	w.n++
}

func (w *subsetWalk32) start(k int) { w.startWith(k, 0, k) }

// startWith begins the walk over the subsets of k members (1 <= k <= 4)
// whose sets together with seed hold exactly size elements.
func (w *subsetWalk32) startWith(k int, seed uint32, size int) {
	w.k, w.j, w.size = k, k-1, size
	w.un[k] = seed
	w.idx[k-1] = k - 2
}

func (w *subsetWalk32) next() (mask, union uint32, ok bool) {
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
				w.k = 100 // exhausted
				return 0, 0, false
			}
			w.j++
			continue
		}
		w.un[j] = w.un[j+1] | w.sets[w.idx[j]]
		if count32(w.un[j]) > w.size {
			continue
		}
		if j > 0 {
			w.j--
			w.idx[j-1] = j - 2
			continue
		}
		if count32(w.un[0]) != w.size {
			continue
		}
		for i := 0; i < k; i++ {
			mask |= 1 << w.pos[w.idx[i]]
		}
		return mask, w.un[0], true
	}
}

// hiddenSet finds k digits of a unit that fit only in the same k cells,
// as state.hiddenSet.
func (s *sstate) hiddenSet(k int, direct bool) (SizedStep, bool) {
	g := s.g
	n := g.n
	tech := [5]Technique{2: HiddenPair, 3: HiddenTriple, 4: HiddenQuad}[k]
	if direct {
		tech = [5]Technique{2: DirectHiddenPair, 3: DirectHiddenTriple}[k]
	}
	var sw subsetWalk32
	for _, t := range regionOrder {
		for i := 0; i < n; i++ {
			u := t*n + i
			if e := s.empty[u]; (direct && e <= k) || (!direct && e <= 2*k) {
				continue
			}
			sw.reset()
			for d := 1; d <= n; d++ {
				if w := s.w(u, d); count32(w) >= 2 {
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
				any := false
				for mm := union; mm != 0 && !any; mm &= mm - 1 {
					any = s.cands[g.cell(u, first32(mm))]&^digits != 0
				}
				if !any {
					continue
				}
				hc, hd := -1, 0
				if direct {
					for d := 1; d <= n && hc < 0; d++ {
						if digits&(1<<d) != 0 {
							continue
						}
						w := s.w(u, d)
						if count32(w) > 1 && count32(w&^union) == 1 {
							hc, hd = g.cell(u, first32(w&^union)), d
						}
					}
					if hc < 0 {
						continue
					}
				}
				st := SizedStep{Technique: tech, Rating: tech.BaseRating(), Cells: s.cellsOf(u, union), Digits: digits}
				if hc >= 0 {
					st.Placements = []SizedCandidate{{uint16(hc), uint8(hd)}}
					return st, true
				}
				for mm := union; mm != 0; mm &= mm - 1 {
					c := g.cell(u, first32(mm))
					for x := s.cands[c] &^ digits; x != 0; x &= x - 1 {
						st.Eliminations = append(st.Eliminations, SizedCandidate{uint16(c), uint8(first32(x))})
					}
				}
				return st, true
			}
		}
	}
	return SizedStep{}, false
}

// fish finds an X-wing, swordfish or jellyfish, as state.fish; a digit
// qualifies when placed at most N-2k times.
func (s *sstate) fish(k int) (SizedStep, bool) {
	g := s.g
	n := g.n
	tech := [5]Technique{2: XWing, 3: Swordfish, 4: Jellyfish}[k]
	var ok [26]uint32
	for _, bt := range [2]int{colType, rowType} {
		ct := colType + rowType - bt
		var eligible uint32
		for d := 1; d <= n; d++ {
			ok[d] = 0
			for i := 0; i < n; i++ {
				if count32(s.w(bt*n+i, d)) >= 2 {
					ok[d] |= 1 << i
				}
			}
			if s.placed[d]+2*k <= n && count32(ok[d]) >= k {
				eligible |= 1 << d
			}
		}
		if eligible == 0 {
			continue
		}
		for _, m := range g.combos[k] {
			for dm := eligible; dm != 0; dm &= dm - 1 {
				d := first32(dm)
				if m&^ok[d] != 0 {
					continue
				}
				var union uint32
				for mm := m; mm != 0; mm &= mm - 1 {
					union |= s.w(bt*n+first32(mm), d)
				}
				if count32(union) != k {
					continue
				}
				var el []SizedCandidate
				for mm := union; mm != 0; mm &= mm - 1 {
					cu := ct*n + first32(mm)
					for r := s.w(cu, d) &^ m; r != 0; r &= r - 1 {
						el = append(el, SizedCandidate{uint16(g.cell(cu, first32(r))), uint8(d)})
					}
				}
				if len(el) == 0 {
					continue
				}
				st := SizedStep{Technique: tech, Rating: tech.BaseRating(), Digits: 1 << d, Eliminations: el}
				for mm := m; mm != 0; mm &= mm - 1 {
					bu := bt*n + first32(mm)
					st.Cells = append(st.Cells, s.cellsOf(bu, s.w(bu, d))...)
				}
				return st, true
			}
		}
	}
	return SizedStep{}, false
}
