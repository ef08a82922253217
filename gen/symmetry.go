package gen

import (
	"fmt"

	"sudokubank/solve"
)

// Symmetry is a layout of the givens that publishers print: the pattern of
// given cells is unchanged by a rotation or reflection of the grid. Only
// the pattern is symmetric, not the digits.
type Symmetry uint8

// The symmetries of a givens pattern. A cell (r, c), rows and columns
// numbered 0 to 8, is mapped to:
const (
	NoSymmetry   Symmetry = iota // itself
	Rot180                       // (8-r, 8-c): the classic newspaper layout
	Rot90                        // (c, 8-r), and so also to its 180 and 270 degree turns
	Mirror                       // (r, 8-c): left-right reflection
	Flip                         // (8-r, c): top-bottom reflection
	Diagonal                     // (c, r): reflection in the main diagonal
	Antidiagonal                 // (8-c, 8-r): reflection in the other diagonal
	numSymmetries
)

var symmetryNames = [numSymmetries]string{"none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal"}

// String returns the symmetry's name as ParseSymmetry reads it: none,
// rot180, rot90, mirror, flip, diagonal or antidiagonal.
func (s Symmetry) String() string {
	if s < numSymmetries {
		return symmetryNames[s]
	}
	return fmt.Sprintf("Symmetry(%d)", uint8(s))
}

// ParseSymmetry returns the symmetry named s: none, rot180, rot90, mirror,
// flip, diagonal or antidiagonal.
func ParseSymmetry(s string) (Symmetry, error) {
	for i, name := range symmetryNames {
		if s == name {
			return Symmetry(i), nil
		}
	}
	return 0, fmt.Errorf("unknown symmetry %q (want none, rot180, rot90, mirror, flip, diagonal or antidiagonal)", s)
}

// Holds reports whether the pattern of givens of p is unchanged by s: a
// cell is given exactly when its image under s is given.
func (s Symmetry) Holds(p solve.Grid) bool {
	if s >= numSymmetries {
		return false
	}
	t := &orbitTables[s]
	for c := 0; c < 81; c++ {
		if (p[c] == 0) != (p[t.image[c]] == 0) {
			return false
		}
	}
	return true
}

// Orbits returns the number of orbits of cells under s: the number of
// separate choices a symmetric dig makes (81 for NoSymmetry, 41 for
// Rot180, 21 for Rot90, 45 for the reflections).
func (s Symmetry) Orbits() int {
	if s >= numSymmetries {
		return 0
	}
	return orbitTables[s].n
}

// DetectSymmetry returns the symmetry of the pattern of givens of p. When
// several hold, the first in this order wins: Rot90 (which implies
// Rot180), Rot180 (implied by Mirror and Flip together, and by Diagonal
// and Antidiagonal together), Mirror, Flip, Diagonal, Antidiagonal. It
// returns NoSymmetry when none holds. Use Holds to test one symmetry.
func DetectSymmetry(p solve.Grid) Symmetry {
	for _, s := range [...]Symmetry{Rot90, Rot180, Mirror, Flip, Diagonal, Antidiagonal} {
		if s.Holds(p) {
			return s
		}
	}
	return NoSymmetry
}

// orbitTable lists the orbits of the 81 cells under one symmetry. For
// every orbit k < n, cells[k][:size[k]] are its cells, from its smallest on, and
// of[c] == k for each of them; image[c] is the image of c under the
// symmetry's generator.
type orbitTable struct {
	n     int
	of    [81]uint8
	size  [81]uint8
	cells [81][4]uint8
	image [81]uint8
}

// orbitTables holds the orbit table of each symmetry.
var orbitTables = func() (ts [numSymmetries]orbitTable) {
	for s := range ts {
		t := &ts[s]
		for c := 0; c < 81; c++ {
			r, col := c/9, c%9
			var img int
			switch Symmetry(s) {
			case NoSymmetry:
				img = c
			case Rot180:
				img = (8-r)*9 + 8 - col
			case Rot90:
				img = col*9 + 8 - r
			case Mirror:
				img = r*9 + 8 - col
			case Flip:
				img = (8-r)*9 + col
			case Diagonal:
				img = col*9 + r
			case Antidiagonal:
				img = (8-col)*9 + 8 - r
			}
			t.image[c] = uint8(img)
		}
		var seen [81]bool
		for c := 0; c < 81; c++ {
			if seen[c] {
				continue
			}
			k := t.n
			t.n++
			for x := c; !seen[x]; x = int(t.image[x]) {
				seen[x] = true
				t.of[x] = uint8(k)
				t.cells[k][t.size[k]] = uint8(x)
				t.size[k]++
			}
		}
	}
	return ts
}()
