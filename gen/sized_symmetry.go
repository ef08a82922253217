package gen

import (
	"math/rand/v2"
	"sync"

	"sudokubank/grid"
)

// ValidFor reports whether sym is a symmetry of givens patterns of shape
// s that the shape's group respects. NoSymmetry, Rot180, Mirror and Flip
// reverse rows or columns, which maps bands to bands and stacks to
// stacks, so they suit every shape; Rot90, Diagonal and Antidiagonal
// exchange rows and columns, so they need square boxes (4, 9, 16, 25).
func (sym Symmetry) ValidFor(s grid.Shape) bool {
	if sym >= numSymmetries || !s.Valid() {
		return false
	}
	switch sym {
	case Rot90, Diagonal, Antidiagonal:
		return s.Square()
	}
	return true
}

// HoldsSized reports whether the pattern of givens of p, of any shape, is
// unchanged by sym: a cell is given exactly when its image is. It is false
// when sym is not ValidFor p's shape.
func (sym Symmetry) HoldsSized(p grid.Grid) bool {
	if !sym.ValidFor(p.Shape) || len(p.Cells) != p.Shape.Cells() {
		return false
	}
	o := sizedOrbitsOf(p.Shape, sym)
	for c, v := range p.Cells {
		if (v == 0) != (p.Cells[o.image[c]] == 0) {
			return false
		}
	}
	return true
}

// DetectSymmetrySized returns the symmetry of the pattern of givens of p,
// of any shape, choosing among those ValidFor its shape in
// DetectSymmetry's order; on 9x9 grids it agrees with DetectSymmetry.
func DetectSymmetrySized(p grid.Grid) Symmetry {
	for _, s := range [...]Symmetry{Rot90, Rot180, Mirror, Flip, Diagonal, Antidiagonal} {
		if s.HoldsSized(p) {
			return s
		}
	}
	return NoSymmetry
}

// OrbitsSized returns the number of orbits of the cells of shape s under
// sym, the separate choices a symmetric dig makes, or 0 if sym is not
// ValidFor s.
func (sym Symmetry) OrbitsSized(s grid.Shape) int {
	if !sym.ValidFor(s) {
		return 0
	}
	return sizedOrbitsOf(s, sym).orbits()
}

// KeepsSized reports whether t keeps sym: whether t.Apply(p) has pattern
// symmetry sym for every p of t's shape that has it. It holds exactly
// when t takes each orbit of cells under sym to an orbit.
func (sym Symmetry) KeepsSized(t grid.Transform) bool {
	s := t.Shape
	if !sym.ValidFor(s) || len(t.Rows) != s.N || len(t.Cols) != s.N {
		return false
	}
	o := sizedOrbitsOf(s, sym)
	n := s.N
	// Cell x of the result comes from cell src(x) of the source; the
	// result has sym for every symmetric source when x and its image come
	// from one orbit, for every x.
	src := func(x int) int {
		r, c := t.Rows[x/n], t.Cols[x%n]
		if t.Transpose {
			return c*n + r
		}
		return r*n + c
	}
	for x := range s.Cells() {
		if o.of[src(x)] != o.of[src(int(o.image[x]))] {
			return false
		}
	}
	return true
}

// RandomSizedTransform draws a transform of shape s uniformly from those
// that keep sym (KeepsSized), as RandomTransform does for 9x9 grids: every
// relabelling, and the row, column and transposition maps that commute
// with sym or turn a quarter turn into the opposite one. With m = N-1, P
// the band- (or stack-) preserving maps and C those of them that commute
// with the reversal i -> m-i:
//
//	none          any transform (grid.RandomTransform)
//	rot180        rows, cols in C; transposed or not (square boxes)
//	rot90         cols in C, rows = cols or their reversal; transposed or not
//	mirror        rows in P, cols in C; not transposed
//	flip          rows in C, cols in P; not transposed
//	diagonal      rows = cols in P; transposed or not
//	antidiagonal  cols[i] = m - rows[m-i], rows in P; transposed or not
//
// It uses only rng, so a seed gives the same transforms on every machine.
// It panics if sym is not ValidFor s.
func (sym Symmetry) RandomSizedTransform(s grid.Shape, rng *rand.Rand) grid.Transform {
	if !sym.ValidFor(s) {
		panic("gen: RandomSizedTransform: symmetry " + sym.String() + " is not valid for " + s.String() + " grids")
	}
	if sym == NoSymmetry {
		return grid.RandomTransform(s, rng)
	}
	t := grid.Identity(s)
	m := s.N - 1
	switch sym {
	case Rot180:
		reversalLines(t.Rows, s.BoxRows, rng)
		reversalLines(t.Cols, s.BoxCols, rng)
		t.Transpose = s.Square() && rng.IntN(2) == 1
	case Rot90:
		reversalLines(t.Cols, s.BoxCols, rng)
		rev := rng.IntN(2) == 1
		for i, c := range t.Cols {
			t.Rows[i] = c
			if rev {
				t.Rows[i] = m - c
			}
		}
		t.Transpose = rng.IntN(2) == 1
	case Mirror:
		randomLines(t.Rows, s.BoxRows, rng)
		reversalLines(t.Cols, s.BoxCols, rng)
	case Flip:
		reversalLines(t.Rows, s.BoxRows, rng)
		randomLines(t.Cols, s.BoxCols, rng)
	case Diagonal:
		randomLines(t.Rows, s.BoxRows, rng)
		copy(t.Cols, t.Rows)
		t.Transpose = rng.IntN(2) == 1
	case Antidiagonal:
		randomLines(t.Rows, s.BoxRows, rng)
		for i := range t.Cols {
			t.Cols[i] = m - t.Rows[m-i]
		}
		t.Transpose = rng.IntN(2) == 1
	}
	rng.Shuffle(s.N, func(i, j int) { t.Values[i+1], t.Values[j+1] = t.Values[j+1], t.Values[i+1] })
	return t
}

// randomLines fills p with a uniformly random permutation of its lines
// that keeps groups of g lines together: the groups, then the lines
// within each.
func randomLines(p []int, g int, rng *rand.Rand) {
	groups := rng.Perm(len(p) / g)
	for i, grp := range groups {
		for j, k := range rng.Perm(g) {
			p[i*g+j] = grp*g + k
		}
	}
}

// reversalLines fills p with a uniformly random permutation of its n lines
// that keeps groups of g lines together and commutes with the reversal
// i -> n-1-i. The groups come in pairs exchanged by the reversal (and a
// middle one when their number is odd): the pairs are permuted and each
// turned or not, the lines of the first group of a pair are permuted
// freely and those of the second mirror them, and the middle group's
// lines are permuted the same way one by one.
func reversalLines(p []int, g int, rng *rand.Rand) {
	n := len(p)
	groups := n / g
	pairs := rng.Perm(groups / 2)
	for b, src := range pairs {
		if rng.IntN(2) == 1 {
			src = groups - 1 - src
		}
		for i, k := range rng.Perm(g) {
			p[b*g+i] = src*g + k
			p[n-1-(b*g+i)] = n - 1 - (src*g + k)
		}
	}
	if groups%2 == 1 {
		mid := groups / 2 * g
		if g == 1 {
			p[mid] = mid
			return
		}
		inner := make([]int, g)
		reversalLines(inner, 1, rng)
		for i, k := range inner {
			p[mid+i] = mid + k
		}
	}
}

// sizedOrbits lists the orbits of a shape's cells under one symmetry:
// orbit k holds cells[start[k]:start[k+1]], from its smallest cell on,
// of[c] is the orbit of cell c and image[c] its image under the
// symmetry's generator.
type sizedOrbits struct {
	image, of []uint16
	start     []uint16
	cells     []uint16
}

// orbits returns the number of orbits.
func (o *sizedOrbits) orbits() int { return len(o.start) - 1 }

// orbit returns the cells of orbit k.
func (o *sizedOrbits) orbit(k int) []uint16 { return o.cells[o.start[k]:o.start[k+1]] }

type orbitKey struct {
	s   grid.Shape
	sym Symmetry
}

var sizedOrbitCache sync.Map // orbitKey -> *sizedOrbits

// sizedOrbitsOf returns the orbits of shape s under sym, which must be
// ValidFor s, built once per pair.
func sizedOrbitsOf(s grid.Shape, sym Symmetry) *sizedOrbits {
	key := orbitKey{s, sym}
	if o, ok := sizedOrbitCache.Load(key); ok {
		return o.(*sizedOrbits)
	}
	n, m := s.N, s.N-1
	cells := s.Cells()
	o := &sizedOrbits{image: make([]uint16, cells), of: make([]uint16, cells), cells: make([]uint16, 0, cells)}
	for c := range cells {
		r, col := c/n, c%n
		img := c
		switch sym {
		case Rot180:
			img = (m-r)*n + m - col
		case Rot90:
			img = col*n + m - r
		case Mirror:
			img = r*n + m - col
		case Flip:
			img = (m-r)*n + col
		case Diagonal:
			img = col*n + r
		case Antidiagonal:
			img = (m-col)*n + m - r
		}
		o.image[c] = uint16(img)
	}
	seen := make([]bool, cells)
	for c := range cells {
		if seen[c] {
			continue
		}
		k := uint16(len(o.start))
		o.start = append(o.start, uint16(len(o.cells)))
		for x := c; !seen[x]; x = int(o.image[x]) {
			seen[x] = true
			o.of[x] = k
			o.cells = append(o.cells, uint16(x))
		}
	}
	o.start = append(o.start, uint16(len(o.cells)))
	got, _ := sizedOrbitCache.LoadOrStore(key, o)
	return got.(*sizedOrbits)
}
