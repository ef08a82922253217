package grid_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"sudokubank/grid"
)

// FuzzParseShape checks that a size as flags and query parameters give
// it reads as a shape of Shapes, whose String reads back as itself, or
// fails with ErrSize.
func FuzzParseShape(f *testing.F) {
	for _, s := range []string{"9", "16x16", " 25 ", "9x16", "x", "", "0", "-9", "+9", "99999999999999999999", "4x4x4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := grid.ParseShape(text)
		if err != nil {
			if !errors.Is(err, grid.ErrSize) {
				t.Fatalf("ParseShape(%q): %v does not wrap ErrSize", text, err)
			}
			return
		}
		if !s.Valid() {
			t.Fatalf("ParseShape(%q) = %+v, no shape of Shapes", text, s)
		}
		if back, err := grid.ParseShape(s.String()); err != nil || back != s {
			t.Fatalf("ParseShape(%q) = %v, whose String reads as %v, %v", text, s, back, err)
		}
	})
}

// FuzzParseIn checks that a line read in a given shape is a grid of
// that shape that Check accepts and that String writes back as the same
// grid, or an error of one of the package's kinds.
func FuzzParseIn(f *testing.F) {
	for i, s := range grid.Shapes {
		f.Add(uint8(i), pattern(s).String())
		f.Add(uint8(i), strings.Repeat(".", s.Cells()))
	}
	f.Add(uint8(3), "11"+strings.Repeat(".", 79))
	f.Add(uint8(0), "12345")
	f.Add(uint8(2), strings.Repeat("9", 64))
	f.Fuzz(func(t *testing.T, shape uint8, line string) {
		s := grid.Shapes[int(shape)%len(grid.Shapes)]
		g, err := grid.ParseIn(s, line)
		if err != nil {
			if !errors.Is(err, grid.ErrLength) && !errors.Is(err, grid.ErrCharacter) && !errors.Is(err, grid.ErrRepeated) {
				t.Fatalf("ParseIn(%v, %q): %v is none of ErrLength, ErrCharacter, ErrRepeated", s, line, err)
			}
			return
		}
		if g.Shape != s || g.Check() != nil {
			t.Fatalf("ParseIn(%v, %q) = a %v grid, Check %v", s, line, g.Shape, g.Check())
		}
		back, err := grid.ParseIn(s, g.String())
		if err != nil || !back.Equal(g) {
			t.Fatalf("ParseIn(%v, %q): String %q reads back as %v, %v", s, line, g.String(), back, err)
		}
	})
}

// FuzzParseTransform checks that a transform read in a given shape is in
// its group and that String writes it back as the same text, or that the
// error wraps ErrTransform and quotes the text.
func FuzzParseTransform(f *testing.F) {
	for i, s := range grid.Shapes {
		f.Add(uint8(i), grid.Identity(s).String())
	}
	f.Add(uint8(3), "T123456789/123456789/987654321")
	f.Add(uint8(3), "213456789/123456789/123456789")
	f.Add(uint8(3), "123456789/123456789/11345678")
	f.Add(uint8(0), "1234/1234/123")
	f.Add(uint8(0), "//")
	f.Fuzz(func(t *testing.T, shape uint8, text string) {
		s := grid.Shapes[int(shape)%len(grid.Shapes)]
		tr, err := grid.ParseTransform(s, text)
		if err != nil {
			if !errors.Is(err, grid.ErrTransform) || !strings.Contains(err.Error(), strconv.Quote(text)) {
				t.Fatalf("ParseTransform(%v, %q): %v does not wrap ErrTransform and quote the text", s, text, err)
			}
			return
		}
		if err := tr.Check(); err != nil {
			t.Fatalf("ParseTransform(%v, %q) is not in the group: %v", s, text, err)
		}
		if got := tr.String(); !strings.EqualFold(got, text) {
			t.Fatalf("ParseTransform(%v, %q) writes back as %q", s, text, got)
		}
	})
}
