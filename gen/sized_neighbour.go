package gen

import (
	"math/rand/v2"

	"sudokubank/grid"
	"sudokubank/solve"
)

// SizedMover is Mover for puzzles of any shape: every move keeps the
// puzzle's solution grid and the symmetry of its givens, moving whole
// orbits of cells. Each uniqueness check is held to a node budget, as a
// dig's are (SizedDigger.CheckNodes), and one that runs out counts as
// failed, so that a move ends in bounded time on every size. The zero
// value is ready to use; a SizedMover is not safe for concurrent use.
type SizedMover struct {
	// CheckNodes is the most search nodes one uniqueness check may use:
	// 0 means DefaultCheckNodes of the shape, a negative value no bound.
	CheckNodes int

	s            solve.Sized
	given, empty []uint16 // orbits of the puzzle being moved
}

// orbits lists the orbits of pz's symmetry whose cells are given and
// those whose cells are empty.
func (m *SizedMover) orbits(pz *SizedPuzzle) *sizedOrbits {
	o := sizedOrbitsOf(pz.Grid.Shape, pz.Symmetry)
	m.given, m.empty = m.given[:0], m.empty[:0]
	for k := range o.orbits() {
		if pz.Grid.Cells[o.orbit(k)[0]] != 0 {
			m.given = append(m.given, uint16(k))
		} else {
			m.empty = append(m.empty, uint16(k))
		}
	}
	return o
}

// unique reports whether g has one solution, decided within the node
// budget.
func (m *SizedMover) unique(g grid.Grid) bool {
	budget := m.CheckNodes
	if budget == 0 {
		budget = DefaultCheckNodes(g.Shape)
	}
	n, decided := m.s.CountWithin(g, 2, budget)
	return decided && n == 1
}

// Swap returns pz with k orbits of givens emptied and k empty orbits
// filled from its solution, with one solution still, drawing its choices
// from rng; false when a few draws found none. The result's Minimal is
// false: SizedDigger.IsMinimal tells. pz's symmetry must be ValidFor its
// shape.
func (m *SizedMover) Swap(pz SizedPuzzle, k int, rng *rand.Rand) (SizedPuzzle, bool) {
	o := m.orbits(&pz)
	if k < 1 || len(m.given) < k || len(m.empty) < k {
		return pz, false
	}
	g := pz.Grid.Clone()
	for range moveTries {
		copy(g.Cells, pz.Grid.Cells)
		partialShuffle16(rng, m.given, k)
		partialShuffle16(rng, m.empty, k)
		for i := range k {
			setSizedOrbit(g, o, m.given[i], nil)
			setSizedOrbit(g, o, m.empty[i], &pz.Solution)
		}
		if m.unique(g) {
			return SizedPuzzle{Grid: g, Solution: pz.Solution, Symmetry: pz.Symmetry}, true
		}
	}
	return pz, false
}

// Redig returns pz with k empty orbits filled from its solution and then
// dug again: each orbit of givens, in a random order, is emptied if the
// puzzle keeps one solution and at least minGivens givens. The result's
// Minimal is false: SizedDigger.IsMinimal tells.
func (m *SizedMover) Redig(pz SizedPuzzle, k, minGivens int, rng *rand.Rand) SizedPuzzle {
	o := m.orbits(&pz)
	g := pz.Grid.Clone()
	k = min(k, len(m.empty))
	partialShuffle16(rng, m.empty, k)
	for _, e := range m.empty[:k] {
		setSizedOrbit(g, o, e, &pz.Solution)
		m.given = append(m.given, e)
	}
	partialShuffle16(rng, m.given, len(m.given))
	givens := g.Givens()
	for _, e := range m.given {
		n := len(o.orbit(int(e)))
		if givens-n < minGivens {
			continue
		}
		setSizedOrbit(g, o, e, nil)
		if m.unique(g) {
			givens -= n
		} else {
			setSizedOrbit(g, o, e, &pz.Solution)
		}
	}
	return SizedPuzzle{Grid: g, Solution: pz.Solution, Symmetry: pz.Symmetry}
}

// Fill returns pz with empty orbits, in a random order drawn from rng,
// filled from its solution until it has at least n givens, passing over
// an orbit that would take it past most, as Mover.Fill does. Adding
// givens keeps the one solution, so it checks nothing; the result's
// Minimal is false, and pz is left as it was.
func (m *SizedMover) Fill(pz SizedPuzzle, n, most int, rng *rand.Rand) SizedPuzzle {
	o := m.orbits(&pz)
	g := pz.Grid.Clone()
	givens := g.Givens()
	partialShuffle16(rng, m.empty, len(m.empty))
	for _, e := range m.empty {
		if givens >= n {
			break
		}
		if k := len(o.orbit(int(e))); givens+k <= most {
			setSizedOrbit(g, o, e, &pz.Solution)
			givens += k
		}
	}
	return SizedPuzzle{Grid: g, Solution: pz.Solution, Symmetry: pz.Symmetry}
}

// setSizedOrbit fills the cells of orbit k of o in g from sol, or
// empties them when sol is nil.
func setSizedOrbit(g grid.Grid, o *sizedOrbits, k uint16, sol *grid.Grid) {
	for _, c := range o.orbit(int(k)) {
		if sol == nil {
			g.Cells[c] = 0
		} else {
			g.Cells[c] = sol.Cells[c]
		}
	}
}

// partialShuffle16 is partialShuffle for orbits numbered above 255.
func partialShuffle16(rng *rand.Rand, s []uint16, k int) {
	for i := 0; i < k && i < len(s)-1; i++ {
		j := i + uniform(rng, len(s)-i)
		s[i], s[j] = s[j], s[i]
	}
}
