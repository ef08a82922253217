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
	first, rest, more := strings.Cut(t, " ")
	if !more {
		first, rest, more = strings.Cut(t, "\t")
	}
	s, ok := grid.ShapeOfCells(len(first))
	if !ok || s == grid.Nine || !cellsOnly(first) {
		return grid.Nine
	}
	if more && strings.TrimSpace(rest) != "" {
		// A 9x9 grid written in groups might start with a group of
		// 16 or 36 cells; it is read as 9x9 where it parses as one.
		if _, err := solve.Parse(t); err == nil {
			return grid.Nine
		}
	}
	return s
}

// cellsOnly reports whether every byte of s is a cell of some grid
// size: '.', a digit or a letter up to Y (25).
func cellsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if _, ok := grid.Value(s[i], grid.MaxN); !ok {
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
	first, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	first, _, _ = strings.Cut(first, "\t")
	return grid.ParseIn(s, first)
}
