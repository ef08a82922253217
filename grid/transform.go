package grid

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Transform is one element of a shape's validity-preserving group: an
// optional transposition (square boxes only), a permutation of the rows
// that keeps each band's rows together (bands may be permuted too), the
// same for columns and stacks, and a relabelling of the values.
//
// Apply reads it as the 9x9 gen.Transform does: transpose the grid first if
// Transpose is set; then cell (r, c) of the result is taken from cell
// (Rows[r], Cols[c]) of that grid; then every value v becomes Values[v].
type Transform struct {
	Shape     Shape
	Transpose bool
	Rows      []int   // N entries, a permutation
	Cols      []int   // N entries, a permutation
	Values    []uint8 // N+1 entries, Values[0] == 0, a permutation of 1..N after it
}

// ErrTransform is wrapped by every error about a transform outside its
// shape's group or a text that is no transform.
var ErrTransform = errors.New("not a transform")

// Identity returns the identity of shape s's group.
func Identity(s Shape) Transform {
	t := Transform{Shape: s, Rows: make([]int, s.N), Cols: make([]int, s.N), Values: make([]uint8, s.N+1)}
	for i := range s.N {
		t.Rows[i], t.Cols[i] = i, i
	}
	for v := range s.N + 1 {
		t.Values[v] = uint8(v)
	}
	return t
}

// Check returns an error if t is not an element of its shape's group.
func (t Transform) Check() error {
	s := t.Shape
	if !s.Valid() {
		return fmt.Errorf("%w: shape %v", ErrTransform, s)
	}
	if t.Transpose && !s.Square() {
		return fmt.Errorf("%w: a %s grid with %dx%d boxes cannot be transposed", ErrTransform, s, s.BoxRows, s.BoxCols)
	}
	if err := checkLines(t.Rows, s.N, s.BoxRows, "rows", "band"); err != nil {
		return err
	}
	if err := checkLines(t.Cols, s.N, s.BoxCols, "columns", "stack"); err != nil {
		return err
	}
	if len(t.Values) != s.N+1 || t.Values[0] != 0 {
		return fmt.Errorf("%w: values are not a relabelling of 1-%d", ErrTransform, s.N)
	}
	var seen uint32
	for _, v := range t.Values[1:] {
		if v < 1 || int(v) > s.N || seen&(1<<v) != 0 {
			return fmt.Errorf("%w: values are not a relabelling of 1-%d", ErrTransform, s.N)
		}
		seen |= 1 << v
	}
	return nil
}

// checkLines checks that p permutes 0..n-1 keeping groups of size g
// together: each group of g result lines comes from one group.
func checkLines(p []int, n, g int, lines, group string) error {
	if len(p) != n {
		return fmt.Errorf("%w: %d %s, want %d", ErrTransform, len(p), lines, n)
	}
	seen := make([]bool, n)
	for i, x := range p {
		if x < 0 || x >= n || seen[x] {
			return fmt.Errorf("%w: %s are not a permutation", ErrTransform, lines)
		}
		seen[x] = true
		if x/g != p[i/g*g]/g {
			return fmt.Errorf("%w: %s leave their %s", ErrTransform, lines, group)
		}
	}
	return nil
}

// Apply returns the transform of g, which must have t's shape.
func (t Transform) Apply(g Grid) Grid {
	n := t.Shape.N
	out := New(t.Shape)
	for r := range n {
		for c := range n {
			src := t.Rows[r]*n + t.Cols[c]
			if t.Transpose {
				src = t.Cols[c]*n + t.Rows[r]
			}
			out.Cells[r*n+c] = t.Values[g.Cells[src]]
		}
	}
	return out
}

// Then returns the transform that applies t, then u.
func (t Transform) Then(u Transform) Transform {
	n := t.Shape.N
	w := Transform{Shape: t.Shape, Transpose: t.Transpose != u.Transpose,
		Rows: make([]int, n), Cols: make([]int, n), Values: make([]uint8, n+1)}
	for i := range n {
		if u.Transpose {
			w.Rows[i], w.Cols[i] = t.Cols[u.Rows[i]], t.Rows[u.Cols[i]]
		} else {
			w.Rows[i], w.Cols[i] = t.Rows[u.Rows[i]], t.Cols[u.Cols[i]]
		}
	}
	for v := range n + 1 {
		w.Values[v] = u.Values[t.Values[v]]
	}
	return w
}

// Inverse returns the transform that undoes t.
func (t Transform) Inverse() Transform {
	n := t.Shape.N
	u := Transform{Shape: t.Shape, Transpose: t.Transpose,
		Rows: make([]int, n), Cols: make([]int, n), Values: make([]uint8, n+1)}
	rows, cols := t.Rows, t.Cols
	if t.Transpose {
		rows, cols = t.Cols, t.Rows
	}
	for i := range n {
		u.Rows[rows[i]] = i
		u.Cols[cols[i]] = i
	}
	for v := range n + 1 {
		u.Values[t.Values[v]] = uint8(v)
	}
	return u
}

// Equal reports whether t and u are the same group element of one shape.
func (t Transform) Equal(u Transform) bool {
	return t.Shape == u.Shape && t.Transpose == u.Transpose && slices.Equal(t.Rows, u.Rows) &&
		slices.Equal(t.Cols, u.Cols) && slices.Equal(t.Values, u.Values)
}

// String returns the transform's text: "T" if it transposes, then rows,
// columns and values as three words of N symbols separated by '/', each
// row or column by its number from 1 (Symbol), e.g. for the 4x4 identity
// "1234/1234/1234".
func (t Transform) String() string {
	var b strings.Builder
	if t.Transpose {
		b.WriteByte('T')
	}
	for _, r := range t.Rows {
		b.WriteByte(Symbol(uint8(r + 1)))
	}
	b.WriteByte('/')
	for _, c := range t.Cols {
		b.WriteByte(Symbol(uint8(c + 1)))
	}
	b.WriteByte('/')
	for _, v := range t.Values[1:] {
		b.WriteByte(Symbol(v))
	}
	return b.String()
}

// ParseTransform reads a transform of shape s from its String form and
// checks that it is in the group.
func ParseTransform(s Shape, text string) (Transform, error) {
	t := Transform{Shape: s}
	rest, transposed := strings.CutPrefix(text, "T")
	t.Transpose = transposed
	parts := strings.Split(rest, "/")
	if len(parts) != 3 || len(parts[0]) != s.N || len(parts[1]) != s.N || len(parts[2]) != s.N {
		return Transform{}, fmt.Errorf("%w: %q is not rows/columns/values of %d symbols each", ErrTransform, text, s.N)
	}
	read := func(word string) ([]int, error) {
		out := make([]int, s.N)
		for i := range len(word) {
			v, ok := Value(word[i], s.N)
			if !ok || v == 0 {
				return nil, fmt.Errorf("%w: %q: %q is no number from 1 to %d", ErrTransform, text, word[i], s.N)
			}
			out[i] = int(v)
		}
		return out, nil
	}
	rows, err := read(parts[0])
	if err != nil {
		return Transform{}, err
	}
	cols, err := read(parts[1])
	if err != nil {
		return Transform{}, err
	}
	vals, err := read(parts[2])
	if err != nil {
		return Transform{}, err
	}
	t.Rows, t.Cols, t.Values = make([]int, s.N), make([]int, s.N), make([]uint8, s.N+1)
	for i := range s.N {
		t.Rows[i], t.Cols[i], t.Values[i+1] = rows[i]-1, cols[i]-1, uint8(vals[i])
	}
	if err := t.Check(); err != nil {
		return Transform{}, fmt.Errorf("%q: %w", text, err)
	}
	return t, nil
}

// RandomTransform returns a transform drawn uniformly from shape s's
// group, with every choice from rng.
func RandomTransform(s Shape, rng *rand.Rand) Transform {
	t := Identity(s)
	t.Transpose = s.Square() && rng.IntN(2) == 1
	shuffleLines(t.Rows, s.BoxRows, rng)
	shuffleLines(t.Cols, s.BoxCols, rng)
	rng.Shuffle(s.N, func(i, j int) { t.Values[i+1], t.Values[j+1] = t.Values[j+1], t.Values[i+1] })
	return t
}

// shuffleLines permutes the identity p in groups of g: the groups, then
// the lines within each group.
func shuffleLines(p []int, g int, rng *rand.Rand) {
	groups := rng.Perm(len(p) / g)
	for i, grp := range groups {
		within := rng.Perm(g)
		for j, k := range within {
			p[i*g+j] = grp*g + k
		}
	}
}
