// Package solve holds the Sudoku grid type, its parser and the exact
// solvers that count solutions: the uniqueness check (Count with limit
// 2), first solutions, random terminal grids for the generators
// (SolveRandom) and the dig-hole question (HasOtherSolution), with
// deterministic search statistics for the grader.
//
// Behind the API is one fast solver, a band-oriented bitboard solver with
// singles and locked-candidate propagation (board.go). Two independent
// solvers, Algorithm X with dancing links (dlx.go) and a plain
// backtracker (backtrack.go), exist only to cross-check it in the tests.
// Sized (sized.go) solves and counts grids of every shape of package grid.
//
// It knows nothing of human techniques (see package grade), generation
// (package gen) or storage.
package solve

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Grid is a 9x9 Sudoku grid in row-major order: 0 is an empty cell and
// 1..9 a digit.
type Grid [81]uint8

// String returns the grid as 81 characters, '.' for an empty cell.
func (g Grid) String() string {
	var b [81]byte
	return string(g.AppendString(b[:0]))
}

// AppendString appends the grid's String form to b and returns the
// result, so that many grids' texts can share one allocation.
func (g Grid) AppendString(b []byte) []byte {
	n := len(b)
	b = slices.Grow(b, 81)[:n+81]
	out := (*[81]byte)(b[n:])
	for i, v := range g {
		if v == 0 {
			out[i] = '.'
		} else {
			out[i] = '0' + v
		}
	}
	return b
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

// Errors that Parse and Check wrap, and that callers who count solutions
// (the grader, the importer) wrap, for callers that must tell the cases
// apart (an importer skipping bad lines, say).
var (
	// ErrCellCount: the input does not hold exactly 81 cells.
	ErrCellCount = errors.New("wrong number of cells")
	// ErrCharacter: a character is neither a cell nor a ruling.
	ErrCharacter = errors.New("not a digit or an empty cell")
	// ErrRepeated: a digit appears twice in a row, column or box.
	ErrRepeated = errors.New("digit repeated")
	// ErrNoSolution: the givens admit no solution.
	ErrNoSolution = errors.New("no solution")
	// ErrMultipleSolutions: the givens admit more than one solution, so
	// they are not a proper puzzle.
	ErrMultipleSolutions = errors.New("more than one solution")
)

// Parse reads a grid the way people paste one: a single line of 81 cells,
// or 9 lines of 9, with 1-9 for a digit and '.', '0', '-', '*' or '_' for
// an empty cell. Spaces, tabs, '|' and '+' may stand anywhere, and ruling
// lines made of '-', '=', '+', '|' and spaces are skipped, as are blank
// lines.
//
// A '-' is an empty cell, except in a ruling line. A line that holds no
// digit and no empty-cell mark other than '-' is a ruling when it holds a
// '+' or a '=', or when its number of dashes is neither 9 (a row of empty
// cells) nor 81 (an empty grid on one line). So "---+---+---" and
// "-------------------" are rulings while "- - - | - - - | - - -" is an
// empty row. A line of dashes (and such marks) with a '*' at each end,
// Simple Sudoku's frame "*-----------*", is a ruling too.
//
// Errors name the problem and its place: the number of cells found when
// it is not 81 (ErrCellCount), the character, line and column of a
// character that is not a cell (ErrCharacter), or the digit, unit and
// cells of a repeat (ErrRepeated, see Check).
func Parse(s string) (Grid, error) {
	var g Grid
	n, extraLine := 0, 0
	for lineNo, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, "\r")
		if IsRuling(line) {
			continue
		}
		col := 0
		for i, r := range line {
			col++
			var v uint8
			switch {
			case r >= '1' && r <= '9':
				v = uint8(r - '0')
			case r == '.' || r == '0' || r == '-' || r == '*' || r == '_':
			case r == ' ' || r == '\t' || r == '|' || r == '+':
				continue
			default:
				if _, size := utf8.DecodeRuneInString(line[i:]); r == utf8.RuneError && size == 1 {
					// %q would print U+FFFD, which names no byte of the input.
					return Grid{}, fmt.Errorf("line %d, column %d: byte %#02x (not UTF-8) is %w", lineNo+1, col, line[i], ErrCharacter)
				}
				return Grid{}, fmt.Errorf("line %d, column %d: %q is %w", lineNo+1, col, r, ErrCharacter)
			}
			if n < 81 {
				g[n] = v
			} else if n == 81 {
				extraLine = lineNo + 1
			}
			n++
		}
	}
	switch {
	case n > 81:
		return Grid{}, fmt.Errorf("%w: found %d, want 81 (the 82nd is on line %d)", ErrCellCount, n, extraLine)
	case n < 81:
		return Grid{}, fmt.Errorf("%w: found %d, want 81", ErrCellCount, n)
	}
	if err := g.Check(); err != nil {
		return Grid{}, err
	}
	return g, nil
}

// IsRuling reports whether line is a ruling line ("---+---+---") under
// Parse's rule for '-' (a row of 9 dashes is a row of empty cells); a
// blank line counts as one.
func IsRuling(line string) bool {
	dashes, marks := 0, false
	// Simple Sudoku frames its grids in "*-----------*": a '*' at each
	// end of dashes is a corner there, not an empty cell.
	t := strings.Trim(line, " \t\r")
	if len(t) >= 3 && t[0] == '*' && t[len(t)-1] == '*' && strings.Contains(t, "-") {
		line, marks = t[1:len(t)-1], true
	}
	for _, r := range line {
		switch r {
		case '-':
			dashes++
		case '+', '=':
			marks = true
		case ' ', '\t', '|', '\r':
		default:
			return false
		}
	}
	return marks || dashes != 9 && dashes != 81
}

// Check reports the first digit repeated in a row, column or box, naming
// the digit, the unit and the two cells (rows and columns from 1), as in
// "digit repeated: 5 twice in row 3 (r3c1 and r3c7)". It also rejects a
// cell value above 9.
func (g Grid) Check() error {
	// Every dig and grade checks its grids, nearly always valid ones: a
	// pass with the digits of each unit as a mask settles that, and the
	// loops below find the first fault for the error.
	var col, box [9]uint16
	var dup, all uint16
	for r := 0; r < 9; r++ {
		var row uint16
		for c, v := range g[r*9 : r*9+9] {
			b := r/3*3 + c/3
			m := uint16(1) << (v & 15) &^ 1
			all |= uint16(v&^15) << 8
			dup |= (row | col[c] | box[b]) & m
			row |= m
			col[c] |= m
			box[b] |= m
		}
		all |= row
	}
	// A value above 15 left a bit of 12-15 in all, one of 10-15 its own.
	if dup == 0 && all&^0x3fe == 0 {
		return nil
	}
	for i, v := range g {
		if v > 9 {
			return fmt.Errorf("r%dc%d holds %d, not a digit", i/9+1, i%9+1, v)
		}
	}
	for u := 0; u < 27; u++ {
		var seen [10]int8
		for _, c := range Units[u] {
			v := g[c]
			if v == 0 {
				continue
			}
			if p := seen[v]; p != 0 {
				a := int(p) - 1
				return fmt.Errorf("%w: %d twice in %s (r%dc%d and r%dc%d)", ErrRepeated, v, UnitName(u), a/9+1, a%9+1, c/9+1, c%9+1)
			}
			seen[v] = int8(c + 1)
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

// peers lists, for each cell, the 20 other cells of its row, column and box.
var peers = func() (p [81][20]uint8) {
	for i := range p {
		n := 0
		for j := 0; j < 81; j++ {
			if j != i && (j/9 == i/9 || j%9 == i%9 || j/27 == i/27 && j%9/3 == i%9/3) {
				p[i][n] = uint8(j)
				n++
			}
		}
	}
	return p
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

// ParseLine reads the puzzle of one import line: anything Parse
// takes on one line, or such a puzzle as the first of several
// space-separated fields (rated lists put ratings after it).
func ParseLine(s string) (Grid, error) {
	g, err := Parse(s)
	if err == nil {
		return g, nil
	}
	if f := strings.Fields(s); len(f) > 1 && len(f[0]) == 81 {
		if g, err2 := Parse(f[0]); err2 == nil {
			return g, nil
		}
	}
	return g, err
}

// GridOf reads an 81-character grid string as the store keeps it ('.' or
// '0' for an empty cell) without the checks of Parse, for loading
// canonical forms fast. Other characters read as empty cells.
func GridOf(s string) Grid {
	var g Grid
	for i := 0; i < len(s) && i < 81; i++ {
		if c := s[i]; c >= '1' && c <= '9' {
			g[i] = c - '0'
		}
	}
	return g
}
