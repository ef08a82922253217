package gen

import "math/rand/v2"

// RandomTransform draws a transform uniformly from those that keep s: a
// transform t keeps s when t.Apply(p) has pattern symmetry s for every p
// that has it. Every relabelling keeps every symmetry; the row, column,
// band and stack maps and the transposition it draws are those that
// commute with s, or turn a quarter turn into the opposite one, as in the
// table below (rows for the rows' map, cols for the columns', C the 24
// maps that commute with the reversal r -> 8-r, P all 1,296
// band-preserving maps):
//
//	none          any transform (RandomTransform)
//	rot180        rows, cols in C; transposed or not      2 x 24 x 24
//	rot90         rows = cols or rows = reversal after
//	              cols, cols in C; transposed or not      2 x 2 x 24
//	mirror        rows in P, cols in C; not transposed    1,296 x 24
//	flip          rows in C, cols in P; not transposed    24 x 1,296
//	diagonal      rows = cols in P; transposed or not     2 x 1,296
//	antidiagonal  cols = reversal of rows, reversed; both 2 x 1,296
//
// Each geometric map of the table is drawn with the same chance, then a
// relabelling, so that the variants of a symmetric family are as varied
// as the symmetry allows. It uses only rng, so a seed gives the same
// transforms on every machine.
func (s Symmetry) RandomTransform(rng *rand.Rand) Transform {
	var rows, cols [9]uint8
	transpose := false
	switch s {
	case Rot180:
		reversalMap(rng, &rows)
		reversalMap(rng, &cols)
		transpose = rng.IntN(2) == 1
	case Rot90:
		reversalMap(rng, &cols)
		rows = cols
		if rng.IntN(2) == 1 {
			for i := range rows {
				rows[i] = 8 - cols[i]
			}
		}
		transpose = rng.IntN(2) == 1
	case Mirror:
		tfRandomLines(rng, &rows)
		reversalMap(rng, &cols)
	case Flip:
		reversalMap(rng, &rows)
		tfRandomLines(rng, &cols)
	case Diagonal:
		tfRandomLines(rng, &rows)
		cols = rows
		transpose = rng.IntN(2) == 1
	case Antidiagonal:
		tfRandomLines(rng, &rows)
		for i := range cols {
			cols[i] = 8 - rows[8-i]
		}
		transpose = rng.IntN(2) == 1
	default:
		return RandomTransform(rng)
	}
	var digits [10]uint8
	for d := range 10 {
		digits[d] = uint8(d)
	}
	tfShuffle(rng, digits[1:])
	return makeTransform(transpose, rows, cols, digits)
}

// reversalMap fills p with a random band-preserving map of 9 lines that
// commutes with the reversal r -> 8-r: the outer bands stay outer (kept or
// swapped) with mirrored orders inside, and the middle line stays in the
// middle. There are 2 x 6 x 2 = 24.
func reversalMap(rng *rand.Rand, p *[9]uint8) {
	in := [3]uint8{0, 1, 2}
	tfShuffle(rng, in[:])
	band := uint8(3 * 2 * rng.IntN(2)) // the band result band 0 comes from
	for i := range 3 {
		p[i] = band + in[i]
		p[8-i] = 8 - p[i]
	}
	p[3], p[4], p[5] = 3, 4, 5
	if rng.IntN(2) == 1 {
		p[3], p[5] = 5, 3
	}
}

// Keeps reports whether t keeps s: whether t.Apply(p) has pattern
// symmetry s for every p that has it. It holds exactly when t takes
// each orbit of cells under s to an orbit.
func (s Symmetry) Keeps(t Transform) bool {
	if s >= numSymmetries {
		return false
	}
	o := &orbitTables[s]
	// Cell x of the result comes from cell src(x) of the source; the
	// result has s for every symmetric source when x and its image come
	// from one orbit, for every x.
	src := func(x int) int {
		r, c := t.Row(x/9), t.Col(x%9)
		if t.transpose {
			return c*9 + r
		}
		return r*9 + c
	}
	for x := range 81 {
		if o.of[src(x)] != o.of[src(int(o.image[x]))] {
			return false
		}
	}
	return true
}
