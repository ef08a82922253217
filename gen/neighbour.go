package gen

import (
	"math/rand/v2"

	"sudokubank/solve"
)

// Mover makes puzzles near a given one, for a search that walks from a
// hard puzzle to its neighbours: every move keeps the puzzle's solution
// grid and the symmetry of its givens, moving whole orbits of cells. The
// zero value is ready to use; a Mover is not safe for concurrent use.
type Mover struct {
	s            solve.Solver
	given, empty []uint8 // orbits of the puzzle being moved
}

// moveTries is how many draws a move makes before it reports that it
// found no puzzle with one solution.
const moveTries = 8

// orbits lists the orbits of pz's symmetry whose cells are given and
// those whose cells are empty.
func (m *Mover) orbits(pz *Puzzle) *orbitTable {
	t := &orbitTables[pz.Symmetry]
	m.given, m.empty = m.given[:0], m.empty[:0]
	for k := 0; k < t.n; k++ {
		if pz.Grid[t.cells[k][0]] != 0 {
			m.given = append(m.given, uint8(k))
		} else {
			m.empty = append(m.empty, uint8(k))
		}
	}
	return t
}

// Swap returns pz with k orbits of givens emptied and k empty orbits
// filled from its solution, with one solution still, drawing its choices
// from rng; false when a few draws found none. A symmetry whose orbits
// differ in size (the centre of rot180) may change the givens by a few.
// The result's Minimal is false: IsMinimal tells.
func (m *Mover) Swap(pz Puzzle, k int, rng *rand.Rand) (Puzzle, bool) {
	t := m.orbits(&pz)
	if k < 1 || len(m.given) < k || len(m.empty) < k {
		return pz, false
	}
	for range moveTries {
		g := pz.Grid
		partialShuffle(rng, m.given, k)
		partialShuffle(rng, m.empty, k)
		for i := range k {
			setOrbit(&g, t, m.given[i], nil)
			setOrbit(&g, t, m.empty[i], &pz.Solution)
		}
		if m.s.Count(g, 2) == 1 {
			return Puzzle{Grid: g, Solution: pz.Solution, Symmetry: pz.Symmetry}, true
		}
	}
	return pz, false
}

// Redig returns pz with k empty orbits filled from its solution and then
// dug again: each orbit of givens, in a random order, is emptied if the
// puzzle keeps one solution and at least minGivens givens. The result's
// Minimal is false: IsMinimal tells.
func (m *Mover) Redig(pz Puzzle, k, minGivens int, rng *rand.Rand) Puzzle {
	t := m.orbits(&pz)
	g := pz.Grid
	k = min(k, len(m.empty))
	partialShuffle(rng, m.empty, k)
	for _, o := range m.empty[:k] {
		setOrbit(&g, t, o, &pz.Solution)
		m.given = append(m.given, o)
	}
	partialShuffle(rng, m.given, len(m.given))
	givens := g.Givens()
	for _, o := range m.given {
		n := int(t.size[o])
		if givens-n < minGivens {
			continue
		}
		h := g
		setOrbit(&h, t, o, nil)
		if m.s.Count(h, 2) == 1 {
			g, givens = h, givens-n
		}
	}
	return Puzzle{Grid: g, Solution: pz.Solution, Symmetry: pz.Symmetry}
}

// Fill returns pz with empty orbits, in a random order drawn from rng,
// filled from its solution until it has at least n givens, passing over
// an orbit that would take it past most: a puzzle graded easier than the
// level its dig aimed at is given the givens of its own level. It keeps
// pz's one solution and symmetry; the result's Minimal is false.
func (m *Mover) Fill(pz Puzzle, n, most int, rng *rand.Rand) Puzzle {
	t := m.orbits(&pz)
	g := pz.Grid
	givens := g.Givens()
	partialShuffle(rng, m.empty, len(m.empty))
	for _, o := range m.empty {
		if givens >= n {
			break
		}
		if k := int(t.size[o]); givens+k <= most {
			setOrbit(&g, t, o, &pz.Solution)
			givens += k
		}
	}
	return Puzzle{Grid: g, Solution: pz.Solution, Symmetry: pz.Symmetry}
}

// setOrbit fills the cells of orbit o of t in g from sol, or empties them
// when sol is nil.
func setOrbit(g *solve.Grid, t *orbitTable, o uint8, sol *solve.Grid) {
	for _, c := range t.cells[o][:t.size[o]] {
		if sol == nil {
			g[c] = 0
		} else {
			g[c] = sol[c]
		}
	}
}

// partialShuffle moves a uniform random choice of k elements of s, in
// random order, to its front.
func partialShuffle(rng *rand.Rand, s []uint8, k int) {
	for i := 0; i < k && i < len(s)-1; i++ {
		j := i + uniform(rng, len(s)-i)
		s[i], s[j] = s[j], s[i]
	}
}
