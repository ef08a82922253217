package solve

import "math/bits"

// backtrack is the plain reference solver: it fills the empty cell with
// the fewest candidates (row, column and box masks only) and backs up on
// a dead end. It is slow and simple on purpose, to check the others.
type backtrack struct {
	g             Grid
	row, col, box [9]uint16
	limit, count  int
	first         Grid
	nodes         int
	maxNodes      int
}

// countBacktrack counts the solutions of g up to limit with the reference
// solver. It gives up after maxNodes nodes (0: no limit) and then reports
// false.
func countBacktrack(g Grid, limit, maxNodes int) (n int, ok bool) {
	s := backtrack{g: g, limit: limit, maxNodes: maxNodes}
	for i, v := range g {
		if v == 0 {
			continue
		}
		if v > 9 {
			return 0, true
		}
		m := uint16(1) << v
		r, c, b := i/9, i%9, i/27*3+i%9/3
		if (s.row[r]|s.col[c]|s.box[b])&m != 0 {
			return 0, true
		}
		s.row[r] |= m
		s.col[c] |= m
		s.box[b] |= m
	}
	if limit <= 0 {
		return 0, true
	}
	s.search()
	return s.count, maxNodes == 0 || s.nodes <= maxNodes
}

func (s *backtrack) search() {
	s.nodes++
	if s.maxNodes > 0 && s.nodes > s.maxNodes {
		s.limit = 0 // abandon the search
		return
	}
	best, bestN, bestM := -1, 10, uint16(0)
	for i, v := range s.g {
		if v != 0 {
			continue
		}
		r, c, b := i/9, i%9, i/27*3+i%9/3
		m := ^(s.row[r] | s.col[c] | s.box[b]) & 0x3fe
		if n := bits.OnesCount16(m); n < bestN {
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
