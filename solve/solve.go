package solve

// Solve returns the first solution of g, if it has one.
func Solve(g Grid) (Grid, bool) {
	var s state
	if !s.load(g) {
		return Grid{}, false
	}
	s.limit = 1
	s.search()
	return s.first, s.count > 0
}

// Count returns the number of solutions of g, stopping at limit
// (limit 2 is the uniqueness check).
func Count(g Grid, limit int) int {
	var s state
	if !s.load(g) {
		return 0
	}
	s.limit = limit
	s.search()
	return s.count
}

// state is a plain bitmask backtracker: a placeholder for the fast solver.
type state struct {
	g             Grid
	row, col, box [9]uint16
	limit, count  int
	first         Grid
}

func (s *state) load(g Grid) bool {
	s.g = g
	for i, v := range g {
		if v == 0 {
			continue
		}
		m := uint16(1) << v
		r, c, b := i/9, i%9, i/27*3+i%9/3
		if (s.row[r]|s.col[c]|s.box[b])&m != 0 {
			return false
		}
		s.row[r] |= m
		s.col[c] |= m
		s.box[b] |= m
	}
	return true
}

func (s *state) search() {
	best, bestN, bestM := -1, 10, uint16(0)
	for i, v := range s.g {
		if v != 0 {
			continue
		}
		r, c, b := i/9, i%9, i/27*3+i%9/3
		m := ^(s.row[r] | s.col[c] | s.box[b]) & 0x3fe
		n := 0
		for x := m; x != 0; x &= x - 1 {
			n++
		}
		if n < bestN {
			best, bestN, bestM = i, n, m
			if n == 0 {
				return
			}
		}
	}
	if best < 0 {
		if s.count == 0 {
			s.first = s.g
		}
		s.count++
		return
	}
	r, c, b := best/9, best%9, best/27*3+best%9/3
	for v := uint8(1); v <= 9; v++ {
		m := uint16(1) << v
		if bestM&m == 0 {
			continue
		}
		s.g[best] = v
		s.row[r] |= m
		s.col[c] |= m
		s.box[b] |= m
		s.search()
		s.row[r] &^= m
		s.col[c] &^= m
		s.box[b] &^= m
		s.g[best] = 0
		if s.count >= s.limit {
			return
		}
	}
}
