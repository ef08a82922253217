package importfmt

import (
	"strings"

	"sudokubank/grid"
	"sudokubank/solve"
)

// ShapeOf returns the shape of a puzzle's text: another of grid.Shapes
// than 9x9 when the text (or its first word, when more words follow, as
// solve.ParseLine reads a 9x9 line) is exactly that shape's N*N cells
// with nothing between them (16, 36, 64, 144, 256 or 625 characters of
// '.', '0' and values 1-9, A-Y); 9x9 otherwise, so that every 9x9 layout
// (81 cells, spaces and rulings between them, a comment after them)
// reads exactly as solve.ParseLine reads it, and a line of a length no
// shape has gets 9x9's message.
func ShapeOf(text string) grid.Shape {
	t := strings.TrimSpace(text)
	first, more := firstWord(t)
	s, ok := grid.ShapeOfCells(len(first))
	if !ok || s == grid.Nine || !cellsOnly(first) {
		return grid.Nine
	}
	if more {
		// A 9x9 grid written in groups might start with a group of
		// 16 or 36 cells; it is read as 9x9 where it parses as one.
		if _, err := solve.Parse(t); err == nil {
			return grid.Nine
		}
	}
	return s
}

// firstWord returns the text up to the first space or tab of t, which
// has no leading spaces, and whether more follows.
func firstWord(t string) (string, bool) {
	i := strings.IndexAny(t, " \t")
	if i < 0 {
		return t, false
	}
	return t[:i], true
}

// cellsOnly reports whether every byte of s is a cell of some grid
// size: '.', a digit or a letter up to Y (25); '0', empty up to 9x9, is
// left to grid.ParseIn to refuse in the larger sizes.
func cellsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if _, ok := grid.Value(s[i], grid.MaxN); !ok && s[i] != '0' {
			return false
		}
	}
	return true
}

// ParseGrid reads a record's text as a grid of the shape ShapeOf gives
// it: 9x9 text as solve.ParseLine reads it (and with its errors), other
// sizes with grid.ParseIn, which names the cell and the value at fault.
func ParseGrid(text string) (grid.Grid, error) {
	s := ShapeOf(text)
	if s == grid.Nine {
		g, err := solve.ParseLine(text)
		if err != nil {
			return grid.Grid{}, err
		}
		return grid.Grid{Shape: grid.Nine, Cells: g[:]}, nil
	}
	first, _ := firstWord(strings.TrimSpace(text))
	return grid.ParseIn(s, first)
}
