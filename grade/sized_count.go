package grade

import (
	"math/bits"

	"sudokubank/grid"
)

// sizedCounter is a small exact solver for every shape, a stand-in for
// solve.Sized: depth-first search on the cell or the unit-digit with the
// fewest choices.
type sizedCounter struct {
	g     *sgeom
	nodes int
	limit int
	found int
	cells []uint8
	first []uint8
}

// Count returns the number of solutions of p, stopping at limit.
func (z *sizedCounter) Count(p grid.Grid, limit int) int {
	z.g = geomOf(p.Shape)
	z.nodes, z.limit, z.found = 0, limit, 0
	z.cells = append(z.cells[:0], p.Cells...)
	z.first = z.first[:0]
	z.search()
	return z.found
}

// Solution returns the first solution found by the last Count, or
// searches one.
func (z *sizedCounter) Solution(p grid.Grid) (grid.Grid, bool) {
	if z.Count(p, 1) == 0 {
		return grid.Grid{}, false
	}
	return grid.Grid{Shape: p.Shape, Cells: append([]uint8(nil), z.first...)}, true
}

// Nodes returns the search nodes of the last call.
func (z *sizedCounter) Nodes() int { return z.nodes }

func (z *sizedCounter) search() {
	z.nodes++
	g := z.g
	n := g.n
	// Candidates of every empty cell from scratch: simple and fast enough
	// for a stand-in.
	best, bestN, bestMask := -1, n+1, uint32(0)
	cands := make([]uint32, g.nc)
	for c := 0; c < g.nc; c++ {
		if z.cells[c] != 0 {
			continue
		}
		m := g.all
		for _, q := range g.peers[c] {
			m &^= 1 << z.cells[q]
		}
		k := bits.OnesCount32(m)
		if k == 0 {
			return
		}
		cands[c] = m
		if k < bestN {
			best, bestN, bestMask = c, k, m
		}
	}
	if best < 0 {
		z.found++
		if z.found == 1 {
			z.first = append(z.first[:0], z.cells...)
		}
		return
	}
	if bestN > 1 {
		// A digit with fewer places in a unit branches less.
		for u := 0; u < g.nu && bestN > 1; u++ {
			var seen uint32
			for j := 0; j < n; j++ {
				seen |= 1 << z.cells[g.cell(u, j)]
			}
			for d := 1; d <= n; d++ {
				if seen&(1<<d) != 0 {
					continue
				}
				k, at := 0, -1
				for j := 0; j < n; j++ {
					if cands[g.cell(u, j)]&(1<<d) != 0 {
						k++
						at = g.cell(u, j)
					}
				}
				if k == 0 {
					return
				}
				if k == 1 {
					best, bestN, bestMask = at, 1, 1<<d
					break
				}
			}
		}
	}
	for m := bestMask; m != 0 && z.found < z.limit; m &= m - 1 {
		z.cells[best] = uint8(bits.TrailingZeros32(m))
		z.search()
	}
	z.cells[best] = 0
}
