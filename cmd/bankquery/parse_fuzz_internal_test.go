package main

import (
	"testing"

	"sudokubank/grid"
	"sudokubank/solve"
)

// FuzzParseGrade reads any text as grade reads its input and show its
// argument (solve.ParseLine and solve.Parse for 9x9), of any size:
// a puzzle it takes is a valid grid of one of grid.Shapes that reads
// back as itself from its String, and a refusal is an error, never a
// panic.
func FuzzParseGrade(f *testing.F) {
	for _, s := range grid.Shapes {
		f.Add(grid.New(s).String(), false)
	}
	for _, s := range []string{"6....3.1..2.5.......8.7.....5.2.......2.8....1....6..9......7..3......61.....98.4",
		"1234", "12.4.3..........", "1.1.............", "", "x", "G" + "..............."} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, arg bool) {
		parse9 := solve.ParseLine
		if arg {
			parse9 = solve.Parse
		}
		g, err := parseGrade(text, parse9)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("parseGrade(%q): empty error", text)
			}
			return
		}
		if !g.Shape.Valid() || g.Check() != nil {
			t.Fatalf("parseGrade(%q) = a %v grid, Check %v", text, g.Shape, g.Check())
		}
		back, err := parseGrade(g.String(), parse9)
		if err != nil || !back.Equal(g) {
			t.Fatalf("parseGrade(%q): String %q reads back as %v, %v", text, g.String(), back, err)
		}
	})
}
