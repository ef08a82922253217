package store

import (
	"fmt"
	"slices"

	"sudokubank/grid"
)

// A grid is stored as 41 bytes, two cells a byte, high nibble first: 0 for
// an empty cell ('.'), 1..9 for a digit; the last byte's low nibble is 0.
// That halves the puzzles table's rows and its unique index against the
// 81-character text, and keeps the text's order ('.' sorts before '1').
const packedLen = 41

// cellNibble maps a grid character to its nibble; 0xff marks a character
// that is not '.' or 1..9.
var cellNibble = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	t['.'] = 0
	for d := byte(1); d <= 9; d++ {
		t['0'+d] = d
	}
	return t
}()

// packGrid returns the stored form of an 81-character grid string, or an
// error naming the first cell that is not '.' or a digit 1..9.
func packGrid(s string) ([]byte, error) {
	return appendPacked(make([]byte, 0, packedLen), s)
}

// appendPacked appends the stored form of an 81-character grid string to
// dst, as packGrid makes it; on error dst is returned unchanged. A batch
// packs all its grids into one array this way, not one allocation each.
func appendPacked(dst []byte, s string) ([]byte, error) {
	if len(s) != 81 {
		return dst, fmt.Errorf("grid %q has %d characters, want 81: %w", s, len(s), ErrInvalid)
	}
	dst = slices.Grow(dst, packedLen)
	b := dst[len(dst) : len(dst)+packedLen]
	var bad byte
	for i := 0; i < 80; i += 2 {
		hi, lo := cellNibble[s[i]], cellNibble[s[i+1]]
		bad |= hi | lo
		b[i/2] = hi<<4 | lo&0xf
	}
	last := cellNibble[s[80]]
	bad |= last
	b[40] = last << 4
	if bad&0xf0 != 0 {
		for i := 0; i < 81; i++ {
			if cellNibble[s[i]] == 0xff {
				return dst, fmt.Errorf("grid %q: cell %d is %q, want '.' or 1..9: %w", s, i+1, s[i], ErrInvalid)
			}
		}
	}
	return dst[:len(dst)+packedLen], nil
}

// unpackGrid returns the 81-character string of a stored grid. A value
// that is not packedLen bytes is returned as it is.
func unpackGrid[T ~string | ~[]byte](b T) string {
	if len(b) != packedLen {
		return string(b)
	}
	return unpackCells(b).String()
}

// unpack turns the stored forms of r's grids into their strings.
func (r *Row) unpack() {
	r.Puzzle = unpackGridSize(r.Puzzle, r.Size)
	r.Solution = unpackGridSize(r.Solution, r.Size)
}

// Grids of the other sizes (migrations/0013) are stored two cells a byte
// as 9x9 grids are, in (N*N+1)/2 bytes, where their values fit a nibble
// (N < 16), and one cell a byte, in N*N bytes, where they do not (16x16
// and 25x25 have values 16 to 25). A 9x9 grid keeps the 41-byte form
// above. The text is the grid package's (grid.Grid.String): '.' for an
// empty cell, 1-9, then A for 10 up to P for 25; the store takes the
// capitals only, as String writes them, so that one grid has one text.

// packedLenOf returns the bytes a grid of n x n cells is stored in.
func packedLenOf(n int) int {
	if n < 16 {
		return (n*n + 1) / 2
	}
	return n * n
}

// symbolValue maps a grid character to its value: 0 for '.', 1..25 for
// '1'-'9' and 'A'-'P'; 0xff marks any other character.
var symbolValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for v := range uint8(grid.MaxN + 1) {
		t[grid.Symbol(v)] = v
	}
	return t
}()

// checkSize returns an error unless n is the N of one of grid.Shapes.
func checkSize(n int) error {
	if _, err := grid.ShapeOf(n); err != nil {
		return fmt.Errorf("size %d: %w: %w", n, err, ErrInvalid)
	}
	return nil
}

// appendPackedSize appends the stored form of a grid string of n x n
// cells to dst; on error dst is returned unchanged. n is a checked size
// (checkSize). A 9x9 grid is packed as appendPacked packs it.
func appendPackedSize(dst []byte, s string, n int) ([]byte, error) {
	if n == 9 {
		return appendPacked(dst, s)
	}
	if len(s) != n*n {
		return dst, fmt.Errorf("grid %q has %d characters, want %d for %dx%d: %w", s, len(s), n*n, n, n, ErrInvalid)
	}
	l := packedLenOf(n)
	dst = slices.Grow(dst, l)
	b := dst[len(dst) : len(dst)+l]
	clear(b)
	for i := range len(s) {
		v := symbolValue[s[i]]
		if v == 0xff || int(v) > n {
			return dst, fmt.Errorf("grid %q: cell %d is %q, want '.' or a value of 1..%d (%s): %w", s, i+1, s[i], n, grid.Shape{N: n}.String(), ErrInvalid)
		}
		if n < 16 {
			b[i/2] |= v << (4 * (1 - i%2))
		} else {
			b[i] = v
		}
	}
	return dst[:len(dst)+l], nil
}

// unpackGridSize returns the text of a stored grid of n x n cells (n 0
// is taken as 9). A value that is not packedLenOf(n) bytes is returned
// as it is.
func unpackGridSize[T ~string | ~[]byte](b T, n int) string {
	if n == 0 || n == 9 {
		return unpackGrid(b)
	}
	if len(b) != packedLenOf(n) {
		return string(b)
	}
	out := make([]byte, n*n)
	for i := range out {
		var v byte
		if n < 16 {
			v = b[i/2] >> (4 * (1 - i%2)) & 0xf
		} else {
			v = b[i]
		}
		out[i] = grid.Symbol(v)
	}
	return string(out)
}
