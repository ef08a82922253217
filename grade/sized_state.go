package grade

import "sudokubank/grid"

// sstate is the working position of a sized logical solve plus the tables
// the techniques read: the sized twin of state, with uint32 candidate
// masks (bit d for digit d, up to 25) and slices sized by the shape.
type sstate struct {
	g      *sgeom
	grid   []uint8
	cands  []uint32
	where  []uint32 // where[u*(n+1)+d]: bit i when digit d may go in position i of unit u
	empty  []int    // empty cells per unit
	placed []int    // how many times each digit is placed
	left   int      // empty cells in the grid
}

// load sets up the position of puzzle p: its digits and every candidate
// the placed digits allow.
func (s *sstate) load(p grid.Grid) {
	g := geomOf(p.Shape)
	if s.g != g {
		s.g = g
		s.grid = make([]uint8, g.nc)
		s.cands = make([]uint32, g.nc)
		s.where = make([]uint32, g.nu*(g.n+1))
		s.empty = make([]int, g.nu)
		s.placed = make([]int, g.n+1)
	}
	copy(s.grid, p.Cells)
	for c := 0; c < g.nc; c++ {
		if s.grid[c] != 0 {
			s.cands[c] = 0
			continue
		}
		m := g.all
		for _, q := range g.peers[c] {
			m &^= 1 << s.grid[q]
		}
		s.cands[c] = m
	}
	clear(s.where)
	clear(s.placed)
	clear(s.empty)
	s.left = 0
	n1 := g.n + 1
	for c := 0; c < g.nc; c++ {
		if v := s.grid[c]; v != 0 {
			s.placed[v]++
			continue
		}
		s.left++
		cu, ci := &g.cellUnits[c], &g.cellIndex[c]
		for t := 0; t < 3; t++ {
			s.empty[cu[t]]++
		}
		for m := s.cands[c]; m != 0; m &= m - 1 {
			d := first32(m)
			for t := 0; t < 3; t++ {
				s.where[int(cu[t])*n1+d] |= 1 << ci[t]
			}
		}
	}
}

// w returns the positions of digit d in unit u.
func (s *sstate) w(u, d int) uint32 { return s.where[u*(s.g.n+1)+d] }

// apply plays a step: its placements (which also clear the digit from
// the peers) and its eliminations.
func (s *sstate) apply(st *SizedStep) {
	g := s.g
	for _, pl := range st.Placements {
		c, d := int(pl.Cell), pl.Digit
		s.drop(c, s.cands[c])
		s.grid[c] = d
		s.placed[d]++
		s.left--
		for _, u := range g.cellUnits[c] {
			s.empty[u]--
		}
		for _, q := range g.peers[c] {
			s.drop(int(q), s.cands[q]&(1<<d))
		}
	}
	for _, e := range st.Eliminations {
		s.drop(int(e.Cell), s.cands[e.Cell]&(1<<e.Digit))
	}
}

// drop removes the candidates m (a subset of c's) from cell c and from
// the where masks of c's units.
func (s *sstate) drop(c int, m uint32) {
	if m == 0 {
		return
	}
	g := s.g
	s.cands[c] &^= m
	cu, ci := &g.cellUnits[c], &g.cellIndex[c]
	n1 := g.n + 1
	for ; m != 0; m &= m - 1 {
		d := first32(m)
		for t := 0; t < 3; t++ {
			s.where[int(cu[t])*n1+d] &^= 1 << ci[t]
		}
	}
}

// cellsOf returns the cells of unit u at the positions set in m.
func (s *sstate) cellsOf(u int, m uint32) []uint16 {
	out := make([]uint16, 0, count32(m))
	for ; m != 0; m &= m - 1 {
		out = append(out, uint16(s.g.cell(u, first32(m))))
	}
	return out
}
