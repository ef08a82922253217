// Package solve holds the Sudoku grid type, its parser and the exact
// solvers that count solutions. It knows nothing of human techniques
// (see package grade), generation (package gen) or storage.
package solve

import (
	"fmt"
	"strings"
)

// Grid is a 9x9 Sudoku grid in row-major order: 0 is an empty cell and
// 1..9 a digit.
type Grid [81]uint8

// String returns the grid as 81 characters, '.' for an empty cell.
func (g Grid) String() string {
	var b [81]byte
	for i, v := range g {
		if v == 0 {
			b[i] = '.'
		} else {
			b[i] = '0' + v
		}
	}
	return string(b[:])
}

// Givens returns the number of filled cells.
func (g Grid) Givens() int {
	n := 0
	for _, v := range g {
		if v != 0 {
			n++
		}
	}
	return n
}

// Parse reads a grid from one 81-character line or from 9 lines of 9
// cells, with '.', '0', '-', '*' or '_' for empty cells and spaces, '|'
// and '+' rulings allowed. A grid with a digit repeated in a row, column
// or box is an error.
func Parse(s string) (Grid, error) {
	var g Grid
	n := 0
	for lineNo, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, "\r")
		if isRuling(line) {
			continue
		}
		for col, r := range line {
			switch {
			case r >= '1' && r <= '9':
				if n < 81 {
					g[n] = uint8(r - '0')
				}
				n++
			case r == '.' || r == '0' || r == '-' || r == '*' || r == '_':
				n++
			case r == ' ' || r == '\t' || r == '|' || r == '+':
			default:
				return Grid{}, fmt.Errorf("line %d, column %d: %q is not a digit or an empty cell", lineNo+1, col+1, r)
			}
		}
	}
	if n != 81 {
		return Grid{}, fmt.Errorf("found %d cells, want 81", n)
	}
	if err := g.Check(); err != nil {
		return Grid{}, err
	}
	return g, nil
}

// isRuling reports whether a line is a horizontal ruling such as
// "------+-------+------": it holds '+' or '=' and nothing but ruling
// characters, or only dashes and more of them than a row has cells.
func isRuling(line string) bool {
	dashes, other := 0, false
	for _, r := range line {
		switch r {
		case '-', '=':
			dashes++
		case '+':
			other = true
		case ' ', '\t', '|':
		default:
			return false
		}
	}
	return other || dashes > 9 || dashes == 0
}

// Check reports the first digit repeated in a row, column or box.
func (g Grid) Check() error {
	for u := 0; u < 27; u++ {
		var seen uint16
		for _, c := range Units[u] {
			v := g[c]
			if v == 0 {
				continue
			}
			if seen&(1<<v) != 0 {
				return fmt.Errorf("digit %d repeated in %s", v, UnitName(u))
			}
			seen |= 1 << v
		}
	}
	return nil
}

// Units lists the cells of the 27 units: rows 0-8, columns 9-17, boxes 18-26.
var Units = func() (u [27][9]int) {
	for i := 0; i < 9; i++ {
		for j := 0; j < 9; j++ {
			u[i][j] = i*9 + j
			u[9+i][j] = j*9 + i
			u[18+i][j] = (i/3*3+j/3)*9 + i%3*3 + j%3
		}
	}
	return u
}()

// UnitName names unit u (0..26) for messages: "row 3", "column 5", "box 9".
func UnitName(u int) string {
	switch {
	case u < 9:
		return fmt.Sprintf("row %d", u+1)
	case u < 18:
		return fmt.Sprintf("column %d", u-8)
	default:
		return fmt.Sprintf("box %d", u-17)
	}
}
