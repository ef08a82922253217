package gen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"sudokubank/solve"
)

// Transform is one element of the Sudoku validity-preserving group: an
// optional transposition, a permutation of the rows that keeps each row in
// a band (bands may be permuted too), the same for columns and stacks, and
// a relabelling of the digits. Rotations and reflections are compositions
// of these; see Rot90, MirrorLR and the others.
//
// Apply reads a Transform as: transpose the grid first if the transform
// transposes; then cell (r, c) of the result is taken from cell
// (Row(r), Col(c)) of that grid; then every digit d becomes Digit(d).
//
// A Transform is a small comparable value; == is equality of group
// elements. The zero value is the identity.
type Transform struct {
	// Each field stores the permutation XOR the identity, so that the zero
	// value is the identity: row r comes from row rows[r]^r.
	transpose bool
	rows      [9]uint8
	cols      [9]uint8
	digits    [10]uint8 // digits[d]^d is the new label of digit d; digits[0] is 0
}

// Identity returns the transform that changes nothing; it equals the zero
// Transform.
func Identity() Transform { return Transform{} }

// Transposes reports whether t transposes the grid before it permutes rows
// and columns.
func (t Transform) Transposes() bool { return t.transpose }

// Row returns the row (0..8) of the possibly transposed grid that becomes
// row r of the result.
func (t Transform) Row(r int) int { return int(t.rows[r]) ^ r }

// Col returns the column (0..8) of the possibly transposed grid that becomes
// column c of the result.
func (t Transform) Col(c int) int { return int(t.cols[c]) ^ c }

// Digit returns the digit that d (1..9) becomes; Digit(0) is 0, an empty
// cell stays empty.
func (t Transform) Digit(d int) int { return int(t.digits[d]) ^ d }

// perms returns the decoded permutations of t.
func (t Transform) perms() (rows, cols [9]uint8, digits [10]uint8) {
	for i := range 9 {
		rows[i] = t.rows[i] ^ uint8(i)
		cols[i] = t.cols[i] ^ uint8(i)
	}
	for d := range 10 {
		digits[d] = t.digits[d] ^ uint8(d)
	}
	return rows, cols, digits
}

// makeTransform encodes decoded permutations. It does not validate them.
func makeTransform(transpose bool, rows, cols [9]uint8, digits [10]uint8) Transform {
	// Eight bytes at a time: id holds the identity's first eight values.
	const id = 0x0706050403020100
	le := binary.LittleEndian
	t := Transform{transpose: transpose}
	le.PutUint64(t.rows[:8], le.Uint64(rows[:8])^id)
	t.rows[8] = rows[8] ^ 8
	le.PutUint64(t.cols[:8], le.Uint64(cols[:8])^id)
	t.cols[8] = cols[8] ^ 8
	le.PutUint64(t.digits[:8], le.Uint64(digits[:8])^id)
	le.PutUint16(t.digits[8:], le.Uint16(digits[8:])^0x0908)
	return t
}

// Apply returns g transformed by t. A puzzle and its solution transformed
// by the same t are again a puzzle and its solution.
func (t Transform) Apply(g solve.Grid) solve.Grid {
	rows, cols, digits := t.perms()
	var out solve.Grid
	for r := range 9 {
		for c := range 9 {
			var v uint8
			if t.transpose {
				v = g[int(cols[c])*9+int(rows[r])]
			} else {
				v = g[int(rows[r])*9+int(cols[c])]
			}
			if v > 9 {
				v = 0 // not a grid value; Apply keeps its output a grid
			}
			out[r*9+c] = digits[v]
		}
	}
	return out
}

// Then returns the transform that applies t and then u:
// t.Then(u).Apply(g) == u.Apply(t.Apply(g)).
func (t Transform) Then(u Transform) Transform {
	tr, tc, td := t.perms()
	ur, uc, ud := u.perms()
	var rows, cols [9]uint8
	var digits [10]uint8
	// Cell (r, c) of the result comes from cell (ur[r], uc[c]) of t's
	// output (swapped if u transposes), which comes from g through t.
	for i := range 9 {
		if u.transpose {
			rows[i] = tc[ur[i]]
			cols[i] = tr[uc[i]]
		} else {
			rows[i] = tr[ur[i]]
			cols[i] = tc[uc[i]]
		}
	}
	for d := range 10 {
		digits[d] = ud[td[d]]
	}
	return makeTransform(t.transpose != u.transpose, rows, cols, digits)
}

// Inverse returns the transform that undoes t:
// t.Then(t.Inverse()) == Identity().
func (t Transform) Inverse() Transform {
	tr, tc, td := t.perms()
	var rows, cols [9]uint8
	var digits [10]uint8
	for i := range 9 {
		if t.transpose {
			rows[tc[i]] = uint8(i)
			cols[tr[i]] = uint8(i)
		} else {
			rows[tr[i]] = uint8(i)
			cols[tc[i]] = uint8(i)
		}
	}
	for d := range 10 {
		digits[td[d]] = uint8(d)
	}
	return makeTransform(t.transpose, rows, cols, digits)
}

// RandomTransform draws a transform uniformly from the whole group
// (2 x 6^8 tfGeometric transforms x 9! relabellings) using only rng, so the
// same seed gives the same transforms on every machine.
func RandomTransform(rng *rand.Rand) Transform {
	var rows, cols [9]uint8
	var digits [10]uint8
	tfRandomLines(rng, &rows)
	tfRandomLines(rng, &cols)
	for d := range 10 {
		digits[d] = uint8(d)
	}
	tfShuffle(rng, digits[1:])
	return makeTransform(rng.IntN(2) == 1, rows, cols, digits)
}

// tfRandomLines fills p with a random band-preserving permutation of 9 lines.
func tfRandomLines(rng *rand.Rand, p *[9]uint8) {
	bands := [3]uint8{0, 1, 2}
	tfShuffle(rng, bands[:])
	for b := range 3 {
		in := [3]uint8{0, 1, 2}
		tfShuffle(rng, in[:])
		for i := range 3 {
			p[b*3+i] = bands[b]*3 + in[i]
		}
	}
}

// tfShuffle permutes s uniformly (Fisher-Yates) without allocating.
func tfShuffle(rng *rand.Rand, s []uint8) {
	for i := len(s) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}

// tfGeometric returns a transform without relabelling from line maps given
// as functions of the result line.
func tfGeometric(transpose bool, row, col func(int) int) Transform {
	var rows, cols [9]uint8
	var digits [10]uint8
	for i := range 9 {
		rows[i] = uint8(row(i))
		cols[i] = uint8(col(i))
	}
	for d := range 10 {
		digits[d] = uint8(d)
	}
	return makeTransform(transpose, rows, cols, digits)
}

func tfKeep(i int) int    { return i }
func tfReverse(i int) int { return 8 - i }

// Turn90 returns the quarter turn clockwise: the left column becomes the
// top row.
func Turn90() Transform { return tfGeometric(true, tfKeep, tfReverse) }

// Turn180 returns the half turn.
func Turn180() Transform { return tfGeometric(false, tfReverse, tfReverse) }

// Turn270 returns the quarter turn anticlockwise: the top row becomes the
// left column.
func Turn270() Transform { return tfGeometric(true, tfReverse, tfKeep) }

// MirrorLR returns the reflection in the vertical axis: left and right swap.
func MirrorLR() Transform { return tfGeometric(false, tfKeep, tfReverse) }

// FlipTB returns the reflection in the horizontal axis: top and bottom swap.
func FlipTB() Transform { return tfGeometric(false, tfReverse, tfKeep) }

// Transpose returns the reflection in the main diagonal (top left to bottom
// right): rows become columns.
func Transpose() Transform { return tfGeometric(true, tfKeep, tfKeep) }

// AntiTranspose returns the reflection in the anti-diagonal (top right to
// bottom left).
func AntiTranspose() Transform { return tfGeometric(true, tfReverse, tfReverse) }

// Relabel returns the transform that only relabels digits: digit d becomes
// digits[d-1]. It reports an error unless digits is a permutation of 1..9.
func Relabel(digits [9]uint8) (Transform, error) {
	var d [10]uint8
	var seen uint16
	for i, v := range digits {
		if v < 1 || v > 9 || seen&(1<<v) != 0 {
			return Transform{}, fmt.Errorf("relabel %v: %w", digits, ErrNotPermutation)
		}
		seen |= 1 << v
		d[i+1] = v
	}
	var id [9]uint8
	for i := range 9 {
		id[i] = uint8(i)
	}
	return makeTransform(false, id, id, d), nil
}

// Errors ParseTransform wraps, so callers can tell the cases apart.
var (
	// ErrTransformSyntax reports text that is not laid out as a transform.
	ErrTransformSyntax = errors.New("not a transform")
	// ErrNotPermutation reports a group that repeats or misses a value.
	ErrNotPermutation = errors.New("not a permutation of 1-9")
	// ErrBandBroken reports a row or column map that splits a band or stack.
	ErrBandBroken = errors.New("moves a line out of its band")
)

// String returns t in its stored text form, which is stable:
//
//	[T]RRRRRRRRR/CCCCCCCCC/DDDDDDDDD
//
// An optional leading 'T' says the grid is transposed first. R lists, for
// result rows 1 to 9, the row (1-9) of the possibly transposed grid it is
// taken from; C does the same for columns; D lists the digits that 1 to 9
// become. The identity is "123456789/123456789/123456789"; Rot90 is
// "T123456789/987654321/123456789".
func (t Transform) String() string {
	var b [30]byte
	return string(t.AppendString(b[:0]))
}

// AppendString appends t's String form to b and returns the result, so
// that many texts can share one allocation.
func (t Transform) AppendString(b []byte) []byte {
	rows, cols, digits := t.perms()
	if t.transpose {
		b = append(b, 'T')
	}
	n := len(b)
	b = slices.Grow(b, 29)[:n+29]
	out := (*[29]byte)(b[n:])
	for i := range 9 {
		out[i] = '1' + rows[i]
		out[10+i] = '1' + cols[i]
		out[20+i] = '0' + digits[i+1]
	}
	out[9], out[19] = '/', '/'
	return b
}

// MarshalText returns t.String(), so that a Transform is stored and
// exported in its stable text form by encodings that use
// encoding.TextMarshaler.
func (t Transform) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText sets t from the text form, as ParseTransform reads it.
func (t *Transform) UnmarshalText(text []byte) error {
	u, err := ParseTransform(string(text))
	if err != nil {
		return err
	}
	*t = u
	return nil
}

// ParseTransform parses the text form written by Transform.String. Its
// errors name the group and position at fault and wrap
// ErrTransformSyntax, ErrNotPermutation or ErrBandBroken.
func ParseTransform(s string) (Transform, error) {
	body := s
	transpose := false
	if len(body) > 0 && body[0] == 'T' {
		transpose = true
		body = body[1:]
	}
	if len(body) != 29 || body[9] != '/' || body[19] != '/' {
		return Transform{}, fmt.Errorf("parse transform %q: want [T]RRRRRRRRR/CCCCCCCCC/DDDDDDDDD: %w", s, ErrTransformSyntax)
	}
	var groups [3][9]uint8
	names := [3]string{"rows", "columns", "digits"}
	for g := range 3 {
		var seen uint16
		for i := range 9 {
			ch := body[g*10+i]
			if ch < '1' || ch > '9' {
				return Transform{}, fmt.Errorf("parse transform %q: %s, position %d: %q is not 1-9: %w", s, names[g], i+1, ch, ErrTransformSyntax)
			}
			v := ch - '1'
			if seen&(1<<v) != 0 {
				return Transform{}, fmt.Errorf("parse transform %q: %s, position %d: %c repeated: %w", s, names[g], i+1, ch, ErrNotPermutation)
			}
			seen |= 1 << v
			groups[g][i] = v
		}
	}
	for g := range 2 {
		for i := range 9 {
			if groups[g][i]/3 != groups[g][i/3*3]/3 {
				return Transform{}, fmt.Errorf("parse transform %q: %s, position %d: %c is not in the band of %c: %w",
					s, names[g], i+1, '1'+groups[g][i], '1'+groups[g][i/3*3], ErrBandBroken)
			}
		}
	}
	var digits [10]uint8
	for d := range 9 {
		digits[d+1] = groups[2][d] + 1
	}
	return makeTransform(transpose, groups[0], groups[1], digits), nil
}

// TransformCodes is the number of transforms in the group, and so one more
// than the largest code Transform.Code returns: 2 (transposed or not) x 6^4
// row maps (the bands' order and each band's rows') x 6^4 column maps x 9!
// relabellings.
const TransformCodes int64 = 2 * 1296 * 1296 * 362880

// ErrTransformCode reports a number that TransformOfCode cannot read: one
// outside 0 .. TransformCodes-1.
var ErrTransformCode = errors.New("not a transform code")

// Code returns t's number in 0 .. TransformCodes-1. The numbering is
// stable, since the store keeps transforms as their codes: a mixed-radix
// number whose digits are, most significant first, the transposition, the
// rows' map, the columns' map and the relabelling, each map being the
// Lehmer code of the bands' order and then of each band's lines' order,
// and the relabelling the Lehmer code of the digits that 1 to 9 become.
// TransformOfCode(t.Code()) == t.
func (t Transform) Code() int64 {
	rows, cols, digits := t.perms()
	var c int64
	if t.transpose {
		c = 1
	}
	c = c*1296 + int64(linesCode(&rows))
	c = c*1296 + int64(linesCode(&cols))
	var d [9]uint8
	for i := range 9 {
		d[i] = digits[i+1] - 1
	}
	return c*362880 + int64(lehmer(d[:]))
}

// TransformOfCode returns the transform whose Code is c. Its error wraps
// ErrTransformCode when c is out of range.
func TransformOfCode(c int64) (Transform, error) {
	if c < 0 || c >= TransformCodes {
		return Transform{}, fmt.Errorf("transform code %d: want 0 to %d: %w", c, TransformCodes-1, ErrTransformCode)
	}
	var d [9]uint8
	unlehmer(int(c%362880), d[:])
	c /= 362880
	var digits [10]uint8
	for i := range 9 {
		digits[i+1] = d[i] + 1
	}
	var rows, cols [9]uint8
	linesOfCode(int(c%1296), &cols)
	c /= 1296
	linesOfCode(int(c%1296), &rows)
	c /= 1296
	return makeTransform(c == 1, rows, cols, digits), nil
}

// linesCode numbers a band-preserving line map in 0 .. 6^4-1: the bands'
// order, then the order of the lines inside each result band.
func linesCode(p *[9]uint8) int {
	var bands [3]uint8
	for b := range 3 {
		bands[b] = p[b*3] / 3
	}
	c := lehmer(bands[:])
	for b := range 3 {
		in := [3]uint8{p[b*3] % 3, p[b*3+1] % 3, p[b*3+2] % 3}
		c = c*6 + lehmer(in[:])
	}
	return c
}

// linesOfCode sets p to the line map that linesCode numbers c.
func linesOfCode(c int, p *[9]uint8) {
	for b := 2; b >= 0; b-- {
		in := &perms3[c%6]
		p[b*3], p[b*3+1], p[b*3+2] = in[0], in[1], in[2]
		c /= 6
	}
	bands := &perms3[c]
	for i := range 9 {
		p[i] += bands[i/3] * 3
	}
}

// perms3 lists the permutations of 0, 1, 2 in the order lehmer numbers
// them, for linesOfCode, which looks up four for each line map.
var perms3 = [6][3]uint8{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// lehmer numbers a permutation of 0 .. len(p)-1 (at most 9 long) in
// lexicographic order, from 0 for the identity to len(p)!-1.
func lehmer(p []uint8) int {
	c := 0
	for i, v := range p {
		smaller := 0
		for _, w := range p[i+1:] {
			if w < v {
				smaller++
			}
		}
		c = c*(len(p)-i) + smaller
	}
	return c
}

// unlehmer sets p to the permutation of 0 .. len(p)-1 (at most 9 long)
// that lehmer numbers c, for c in 0 .. len(p)!-1.
func unlehmer(c int, p []uint8) {
	n := len(p)
	// The digits of c in the factorial base, least significant last.
	for i := n - 1; i >= 0; i-- {
		p[i] = uint8(c % (n - i))
		c /= n - i
	}
	// Each digit picks one of the values not yet taken, in order.
	left := [9]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8}
	for i := range p {
		k := p[i]
		p[i] = left[k]
		copy(left[k:n-i], left[k+1:n-i])
	}
}
