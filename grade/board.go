package grade

import "math/bits"

// Board geometry, computed once. Units are numbered as in solve.Units:
// rows 0-8, columns 9-17, boxes 18-26.
var (
	unitCells [27][9]uint8  // the cells of each unit, in solve.Units order
	cellUnits [81][3]uint8  // the row, column and box unit of each cell
	cellIndex [81][3]uint8  // the position of each cell inside its row, column and box
	peers     [81][20]uint8 // the 20 cells that share a unit with each cell
	peerSet   [81]cellSet   // the same as a set
	crosses   [27][27]bool  // whether two units share a cell (and differ)
	unitSet   [27]cellSet   // the cells of each unit as a set
	combos    [5][]uint16   // combos[k] lists the k-subsets of 9 bits, in increasing order
	// sameCover[u][t][i]: the positions of unit u whose cell shares its
	// unit of type t with the cell at position i.
	sameCover [27][3][9]uint16
	// posIn[a][b]: the positions of unit a whose cell is also in unit b.
	posIn [27][27]uint16
)

// Unit types, the index into cellUnits.
const (
	rowType = iota
	colType
	boxType
)

// cellSet is a set of cells, bit i%64 of word i/64 for cell i.
type cellSet [2]uint64

func (s *cellSet) add(c int)            { s[c>>6] |= 1 << (c & 63) }
func (s cellSet) has(c int) bool        { return s[c>>6]&(1<<(c&63)) != 0 }
func (s cellSet) and(t cellSet) cellSet { return cellSet{s[0] & t[0], s[1] & t[1]} }
func (s cellSet) empty() bool           { return s[0]|s[1] == 0 }
func (s *cellSet) addAll(t cellSet)     { s[0] |= t[0]; s[1] |= t[1] }

func init() {
	for u := 0; u < 27; u++ {
		for i := 0; i < 9; i++ {
			var c int
			switch {
			case u < 9:
				c = u*9 + i
			case u < 18:
				c = i*9 + (u - 9)
			default:
				b := u - 18
				c = (b/3*3+i/3)*9 + b%3*3 + i%3
			}
			unitCells[u][i] = uint8(c)
			unitSet[u].add(c)
			cellUnits[c][u/9] = uint8(u)
			cellIndex[c][u/9] = uint8(i)
		}
	}
	for c := 0; c < 81; c++ {
		n := 0
		for d := 0; d < 81; d++ {
			if d == c {
				continue
			}
			if cellUnits[c][0] == cellUnits[d][0] || cellUnits[c][1] == cellUnits[d][1] || cellUnits[c][2] == cellUnits[d][2] {
				peers[c][n] = uint8(d)
				peerSet[c].add(d)
				n++
			}
		}
	}
	for a := 0; a < 27; a++ {
		for b := 0; b < 27; b++ {
			crosses[a][b] = a != b && !unitSet[a].and(unitSet[b]).empty()
		}
	}
	for u := 0; u < 27; u++ {
		for t := 0; t < 3; t++ {
			for i, ci := range unitCells[u] {
				for j, cj := range unitCells[u] {
					if cellUnits[ci][t] == cellUnits[cj][t] {
						sameCover[u][t][i] |= 1 << j
					}
				}
			}
		}
		for b := 0; b < 27; b++ {
			for i, c := range unitCells[u] {
				if unitSet[b].has(int(c)) {
					posIn[u][b] |= 1 << i
				}
			}
		}
	}
	combos[0] = []uint16{0}
	for m := 1; m < 1<<9; m++ {
		k := bits.OnesCount(uint(m))
		if k <= 4 {
			combos[k] = append(combos[k], uint16(m))
		}
	}
}

// count returns the number of bits set in m.
func count(m uint16) int { return bits.OnesCount16(m) }

// first returns the lowest set bit's index of m (m != 0).
func first(m uint16) int { return bits.TrailingZeros16(m) }

// digitsOf returns the digits of a candidate mask as a mask (identity;
// named for readability where a mask of digits is built).
func bit(d int) uint16 { return 1 << d }

// count64 returns the number of cells in s.
func count64(s cellSet) int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// trailing64 returns the index of the lowest set bit of m (m != 0).
func trailing64(m uint64) int { return bits.TrailingZeros64(m) }
