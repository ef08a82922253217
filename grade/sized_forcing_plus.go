package grade

import "slices"

// Dynamic forcing chains (+) on every shape: when a dynamic run of level
// 1 runs out of implications, the simple techniques of chain_rules.go
// (locking, hidden pair, naked pair, X-wing, in that order) look at the
// grid as the run has changed it, as chainEngine.advance does. The first
// of them with a hint that relies on a removal of the run supplies the
// run's next "off" nodes: each candidate such a hint removes, whose
// ancestors are the removals the pattern needed (chainRuleSink lists
// which) and their own ancestors. The scan orders are the 9x9 rules',
// so a 9x9 puzzle takes the 9x9 grader's path.

// advance adds to r the eliminations of the first simple technique that
// finds one relying on the run's removals, queueing them on *qOff, and
// reports whether it added any node.
func (f *sforce) advance(r *srun, qOff *[]int32) bool {
	for rule := 0; rule < 4; rule++ {
		f.found, f.added = false, false
		switch rule {
		case 0:
			f.plusLocking(r, qOff)
		case 1:
			f.plusHiddenPairs(r, qOff)
		case 2:
			f.plusNakedPairs(r, qOff)
		case 3:
			f.plusXWings(r, qOff)
		}
		if f.found {
			return f.added
		}
	}
	if f.level >= 2 {
		return f.advanceNested(r, qOff)
	}
	return false
}

// remIn reports whether the run removed digit d somewhere in unit u.
func (f *sforce) remIn(u, d int) bool {
	return f.remU[d*2+u>>6]&(1<<(u&63)) != 0
}

// remAny reports whether the run removed any digit in unit u.
func (f *sforce) remAny(u int) bool {
	return f.remU[u>>6]&(1<<(u&63)) != 0
}

// plusParent records candidate d of cell c as a parent of the hint being
// built if the run removed it.
func (f *sforce) plusParent(c, d int) {
	if f.orig[c]&(1<<d) != 0 && f.work[c]&(1<<d) == 0 {
		f.plusPar = append(f.plusPar, int32(c*f.n+d-1))
	}
}

// plusCommit turns the hint built in plusRem and plusPar into off nodes
// of r, if it relies on a removal of the run: its removals in SE's order
// (by column, then row), each with the union of its parents' ancestors.
func (f *sforce) plusCommit(r *srun, qOff *[]int32) {
	rem, par := f.plusRem, f.plusPar
	f.plusRem, f.plusPar = rem[:0], par[:0]
	if len(rem) == 0 || len(par) == 0 {
		return
	}
	f.found = true
	n := f.n
	slices.SortFunc(rem, func(a, b int32) int {
		ca, cb := int(f.kCell[a])%n, int(f.kCell[b])%n
		if ca != cb {
			return ca - cb
		}
		return int(a - b)
	})
	src := f.plusSrc[:0]
	for _, p := range par {
		src = append(src, int32(f.ai(2*int(p))))
	}
	f.plusSrc = src
	for _, k := range rem {
		if setHas(r.off, int(k)) {
			continue
		}
		nd := 2 * int(k)
		i := f.ai(nd)
		cnt := f.ancCount(src)
		f.ancMake(i, src, cnt)
		f.offPar[i] = ownSet
		r.cnt[nd] = chainCount16(cnt)
		setAdd(r.off, int(k))
		*qOff = append(*qOff, k)
		f.added = true
	}
}

// plusLocking finds pointing (box -> line) and claiming (line -> box)
// eliminations, as chainLockingRule does.
func (f *sforce) plusLocking(r *srun, qOff *[]int32) {
	g := f.g
	n, nu := f.n, g.nu
	for d := 1; d <= n; d++ {
		for b := 2 * n; b < 3*n; b++ {
			if !f.remIn(b, d) {
				continue
			}
			pm := f.pos[b*(n+1)+d]
			if count32(pm) < 2 {
				continue
			}
			for _, t := range [2]int{rowType, colType} {
				line := g.coverOf(b, pm, t)
				if line < 0 || f.pos[line*(n+1)+d]&^g.posIn[line*nu+b] == 0 {
					continue
				}
				f.plusLine(r, qOff, line, b, d)
			}
		}
		for line := 0; line < 2*n; line++ {
			if !f.remIn(line, d) {
				continue
			}
			pm := f.pos[line*(n+1)+d]
			if count32(pm) < 2 {
				continue
			}
			box := g.coverOf(line, pm, boxType)
			if box < 0 || f.pos[box*(n+1)+d]&^g.posIn[box*nu+line] == 0 {
				continue
			}
			f.plusLine(r, qOff, box, line, d)
		}
	}
}

// plusLine commits the locking hint that removes digit d from unit to
// outside unit from, whose places of d all lie in both.
func (f *sforce) plusLine(r *srun, qOff *[]int32, to, from, d int) {
	g := f.g
	n, nu := f.n, g.nu
	in := g.posIn[to*nu+from]
	for j := 0; j < n; j++ {
		if c := g.cell(to, j); in&(1<<j) == 0 && f.work[c]&(1<<d) != 0 {
			f.plusRem = append(f.plusRem, int32(c*n+d-1))
		}
	}
	if len(f.plusRem) > 0 {
		out := g.posIn[from*nu+to]
		for j := 0; j < n; j++ {
			if out&(1<<j) == 0 {
				f.plusParent(g.cell(from, j), d)
			}
		}
	}
	f.plusCommit(r, qOff)
}

// plusHiddenPairs finds hidden pairs, as chainHiddenSetRule(2) does.
func (f *sforce) plusHiddenPairs(r *srun, qOff *[]int32) {
	g := f.g
	n := f.n
	for u := 0; u < g.nu; u++ {
		if !f.remAny(u) {
			continue
		}
		pos := f.pos[u*(n+1) : (u+1)*(n+1)]
		for d1 := 1; d1 <= n; d1++ {
			if count32(pos[d1]) != 2 {
				continue
			}
			for d2 := d1 + 1; d2 <= n; d2++ {
				if count32(pos[d2]) != 2 || pos[d1] != pos[d2] {
					continue
				}
				m := pos[d1]
				dm := uint32(1)<<d1 | 1<<d2
				for w := m; w != 0; w &= w - 1 {
					c := g.cell(u, first32(w))
					for x := f.work[c] &^ dm; x != 0; x &= x - 1 {
						f.plusRem = append(f.plusRem, int32(c*n+first32(x)-1))
					}
				}
				if len(f.plusRem) > 0 {
					for _, d := range [2]int{d1, d2} {
						for j := 0; j < n; j++ {
							if m&(1<<j) == 0 {
								f.plusParent(g.cell(u, j), d)
							}
						}
					}
				}
				f.plusCommit(r, qOff)
			}
		}
	}
}

// plusNakedPairs finds naked pairs, as chainNakedSetRule(2) does.
func (f *sforce) plusNakedPairs(r *srun, qOff *[]int32) {
	g := f.g
	n := f.n
	for u := 0; u < g.nu; u++ {
		if !f.remAny(u) {
			continue
		}
		for i := 0; i < n; i++ {
			c1 := g.cell(u, i)
			m := f.work[c1]
			if count32(m) != 2 {
				continue
			}
			for j := i + 1; j < n; j++ {
				c2 := g.cell(u, j)
				if f.work[c2] != m {
					continue
				}
				for x := 0; x < n; x++ {
					if x == i || x == j {
						continue
					}
					c := g.cell(u, x)
					for w := f.work[c] & m; w != 0; w &= w - 1 {
						f.plusRem = append(f.plusRem, int32(c*n+first32(w)-1))
					}
				}
				if len(f.plusRem) > 0 {
					for _, c := range [2]int{c1, c2} {
						for w := f.orig[c] &^ m; w != 0; w &= w - 1 {
							f.plusParent(c, first32(w))
						}
					}
				}
				f.plusCommit(r, qOff)
			}
		}
	}
}

// plusXWings finds X-wings, rows first, as chainFishRule(2) does.
func (f *sforce) plusXWings(r *srun, qOff *[]int32) {
	g := f.g
	n := f.n
	for d := 1; d <= n; d++ {
		for _, base := range [2]int{0, n} {
			if !f.remInLines(base, d) {
				continue
			}
			cover := n - base
			for i1 := 0; i1 < n; i1++ {
				m := f.pos[(base+i1)*(n+1)+d]
				if count32(m) != 2 {
					continue
				}
				for i2 := i1 + 1; i2 < n; i2++ {
					if f.pos[(base+i2)*(n+1)+d] != m {
						continue
					}
					for w := m; w != 0; w &= w - 1 {
						cu := cover + first32(w)
						for j := 0; j < n; j++ {
							if c := g.cell(cu, j); j != i1 && j != i2 && f.work[c]&(1<<d) != 0 {
								f.plusRem = append(f.plusRem, int32(c*n+d-1))
							}
						}
					}
					if len(f.plusRem) > 0 {
						for _, i := range [2]int{i1, i2} {
							for j := 0; j < n; j++ {
								if m&(1<<j) == 0 {
									f.plusParent(g.cell(base+i, j), d)
								}
							}
						}
					}
					f.plusCommit(r, qOff)
				}
			}
		}
	}
}

// remInLines reports whether the run removed digit d in one of the N
// lines from unit base (the rows or the columns).
func (f *sforce) remInLines(base, d int) bool {
	for u := base; u < base+f.n; u++ {
		if f.remIn(u, d) {
			return true
		}
	}
	return false
}
