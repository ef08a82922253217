package store

import (
	"fmt"
	"slices"
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
	r.Puzzle = unpackGrid(r.Puzzle)
	r.Solution = unpackGrid(r.Solution)
}
