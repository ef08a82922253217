package grade

import (
	"math/bits"
	"sync"

	"sudokubank/grid"
)

// sgeom holds the tables of one grid shape that the sized techniques
// read, built once per shape. Units are numbered as grid.Shape.Units
// numbers them (rows 0..N-1, columns N..2N-1, boxes 2N..3N-1), which for
// 9x9 is solve.Units' order: with the same scan orders as the 9x9 grader,
// a 9x9 puzzle takes the same path.
type sgeom struct {
	s          grid.Shape
	n, nc, nu  int
	nw         int    // words of a cell set
	all        uint32 // the candidate mask of an unconstrained cell, bits 1..N
	unitCells  []uint16
	cellUnits  [][3]uint16 // row, column and box unit of each cell
	cellIndex  [][3]uint8  // the position of each cell in those units
	peers      [][]uint16  // increasing
	peerSet    []uint64    // nc*nw
	sameCover  []uint32    // ((u*3+t)*n+i): positions of u sharing unit type t with position i
	posIn      []uint32    // a*nu+b: positions of unit a whose cell is also in unit b
	combos     [5][]uint32 // combos[k]: the k-subsets of N bits, increasing
	houses     [][3]uint16 // box, row, column of each cell (SE's chain order)
	chainPeers [][]uint16  // peers in the order box, row, column, each once
	// chainPeerPos[c][i]: the positions in houses[c][i] of the peers of c
	// that chainPeers lists under that house.
	chainPeerPos [][3]uint32
}

var (
	sgeomOnce [26]sync.Once
	sgeomTab  [26]*sgeom
)

// geomOf returns the tables of shape s (a valid shape).
func geomOf(s grid.Shape) *sgeom {
	sgeomOnce[s.N].Do(func() { sgeomTab[s.N] = newGeom(s) })
	return sgeomTab[s.N]
}

func newGeom(s grid.Shape) *sgeom {
	n := s.N
	g := &sgeom{s: s, n: n, nc: n * n, nu: 3 * n, nw: (n*n + 63) / 64}
	g.all = uint32(1)<<(n+1) - 2
	g.unitCells = make([]uint16, g.nu*n)
	g.cellUnits = make([][3]uint16, g.nc)
	g.cellIndex = make([][3]uint8, g.nc)
	for u, cells := range s.Units() {
		for i, c := range cells {
			g.unitCells[u*n+i] = uint16(c)
			g.cellUnits[c][u/n] = uint16(u)
			g.cellIndex[c][u/n] = uint8(i)
		}
	}
	g.peers = make([][]uint16, g.nc)
	g.peerSet = make([]uint64, g.nc*g.nw)
	for c := 0; c < g.nc; c++ {
		for _, p := range s.Peers(c) {
			g.peers[c] = append(g.peers[c], uint16(p))
			g.peerSet[c*g.nw+p>>6] |= 1 << (p & 63)
		}
	}
	g.sameCover = make([]uint32, g.nu*3*n)
	g.posIn = make([]uint32, g.nu*g.nu)
	for u := 0; u < g.nu; u++ {
		for t := 0; t < 3; t++ {
			for i := 0; i < n; i++ {
				ci := g.unitCells[u*n+i]
				for j := 0; j < n; j++ {
					if g.cellUnits[ci][t] == g.cellUnits[g.unitCells[u*n+j]][t] {
						g.sameCover[(u*3+t)*n+i] |= 1 << j
					}
				}
			}
		}
		for i := 0; i < n; i++ {
			c := g.unitCells[u*n+i]
			for t := 0; t < 3; t++ {
				g.posIn[u*g.nu+int(g.cellUnits[c][t])] |= 1 << i
			}
		}
	}
	for k := 0; k <= 4 && k <= n; k++ {
		if k == 0 {
			g.combos[0] = []uint32{0}
			continue
		}
		// Gosper's hack walks the k-subsets in increasing order.
		for m := uint32(1)<<k - 1; m < 1<<n; {
			g.combos[k] = append(g.combos[k], m)
			c := m & -m
			r := m + c
			m = ((r^m)>>2)/c | r
		}
	}
	g.houses = make([][3]uint16, g.nc)
	g.chainPeers = make([][]uint16, g.nc)
	g.chainPeerPos = make([][3]uint32, g.nc)
	seen := make([]bool, g.nc)
	for c := 0; c < g.nc; c++ {
		cu := g.cellUnits[c]
		g.houses[c] = [3]uint16{cu[boxType], cu[rowType], cu[colType]}
		clear(seen)
		seen[c] = true
		for i, u := range g.houses[c] {
			for j := 0; j < n; j++ {
				o := g.unitCells[int(u)*n+j]
				if !seen[o] {
					seen[o] = true
					g.chainPeers[c] = append(g.chainPeers[c], o)
					g.chainPeerPos[c][i] |= 1 << j
				}
			}
		}
	}
	return g
}

// cell returns the cell at position i of unit u.
func (g *sgeom) cell(u, i int) int { return int(g.unitCells[u*g.n+i]) }

// sees reports whether cells a and b differ and share a unit.
func (g *sgeom) sees(a, b int) bool {
	return g.peerSet[a*g.nw+b>>6]&(1<<(b&63)) != 0
}

// crosses reports whether units a and b differ and share a cell.
func (g *sgeom) crosses(a, b int) bool { return a != b && g.posIn[a*g.nu+b] != 0 }

// coverOf returns the unit of type t that holds every cell of unit u at
// the positions of m, or -1.
func (g *sgeom) coverOf(u int, m uint32, t int) int {
	if m == 0 {
		return -1
	}
	i := bits.TrailingZeros32(m)
	if m&^g.sameCover[(u*3+t)*g.n+i] != 0 {
		return -1
	}
	return int(g.cellUnits[g.cell(u, i)][t])
}

// count32 returns the number of bits set in m.
func count32(m uint32) int { return bits.OnesCount32(m) }

// first32 returns the lowest set bit's index of m (m != 0).
func first32(m uint32) int { return bits.TrailingZeros32(m) }
