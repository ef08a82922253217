// Package grid holds Sudoku grids of every size the bank stores: their
// shapes (N x N cells in boxes of BoxRows x BoxCols), their one-line text
// and the transforms of each shape's validity-preserving group.
//
// The 9x9 hot paths keep their own fixed-size type (solve.Grid); this
// package is the common currency of the other sizes and of any code that
// handles every size alike (import detection, exports, the store).
package grid

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Shape is a grid size: N rows, N columns, N values and N boxes of BoxRows
// rows by BoxCols columns. Rows come in N/BoxRows bands of BoxRows rows,
// columns in N/BoxCols stacks of BoxCols columns.
type Shape struct {
	N, BoxRows, BoxCols int
}

// Shapes are the sizes the bank stores, smallest first.
var Shapes = [...]Shape{{4, 2, 2}, {6, 2, 3}, {8, 2, 4}, {9, 3, 3}, {12, 3, 4}, {16, 4, 4}, {25, 5, 5}}

// Nine is the classic 9x9 shape, the default of every command.
var Nine = Shape{9, 3, 3}

// MaxN is the largest N of Shapes: values fit a uint8 and candidate sets
// a uint32.
const MaxN = 25

// ErrSize is wrapped by every error about a size no shape has.
var ErrSize = errors.New("no such grid size")

// ShapeOf returns the shape of N x N grids.
func ShapeOf(n int) (Shape, error) {
	for _, s := range Shapes {
		if s.N == n {
			return s, nil
		}
	}
	return Shape{}, fmt.Errorf("%w: %d (sizes: %s)", ErrSize, n, SizeList())
}

// ShapeOfCells returns the shape whose grids have cells cells.
func ShapeOfCells(cells int) (Shape, bool) {
	for _, s := range Shapes {
		if s.N*s.N == cells {
			return s, true
		}
	}
	return Shape{}, false
}

// ParseShape reads a size as flags and query parameters give it: "16" or
// "16x16".
func ParseShape(text string) (Shape, error) {
	t := strings.TrimSpace(text)
	if a, b, ok := strings.Cut(t, "x"); ok && a == b {
		t = a
	}
	n, err := strconv.Atoi(t)
	if err != nil {
		return Shape{}, fmt.Errorf("%w: %q (sizes: %s)", ErrSize, text, SizeList())
	}
	return ShapeOf(n)
}

// SizeList returns the sizes of Shapes as a comma-separated list, for
// messages.
func SizeList() string {
	var b strings.Builder
	for i, s := range Shapes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(s.N))
	}
	return b.String()
}

// Valid reports whether s is one of Shapes.
func (s Shape) Valid() bool { return slices.Contains(Shapes[:], s) }

// String returns the shape as "NxN".
func (s Shape) String() string { return fmt.Sprintf("%dx%d", s.N, s.N) }

// Cells returns the number of cells, N*N.
func (s Shape) Cells() int { return s.N * s.N }

// Square reports whether the boxes are square, so that transposing a grid
// keeps its shape (and rotations by 90 degrees are in its group).
func (s Shape) Square() bool { return s.BoxRows == s.BoxCols }

// Bands returns the number of bands (groups of BoxRows rows).
func (s Shape) Bands() int { return s.N / s.BoxRows }

// Stacks returns the number of stacks (groups of BoxCols columns).
func (s Shape) Stacks() int { return s.N / s.BoxCols }

// Row returns the row of cell c, from 0.
func (s Shape) Row(c int) int { return c / s.N }

// Col returns the column of cell c, from 0.
func (s Shape) Col(c int) int { return c % s.N }

// Box returns the box of cell c, from 0, boxes numbered row by row.
func (s Shape) Box(c int) int {
	return s.Row(c)/s.BoxRows*s.Stacks() + s.Col(c)/s.BoxCols
}

// Cell returns the cell at row r and column c, from 0.
func (s Shape) Cell(r, c int) int { return r*s.N + c }

// tables are a shape's units and peers, built once per shape.
type tables struct {
	units [][]int // rows 0..N-1, columns N..2N-1, boxes 2N..3N-1
	peers [][]int
}

var tableCache sync.Map // Shape -> *tables

func (s Shape) tables() *tables {
	if t, ok := tableCache.Load(s); ok {
		return t.(*tables)
	}
	n := s.N
	t := &tables{units: make([][]int, 3*n), peers: make([][]int, n*n)}
	for c := range n * n {
		for _, u := range [3]int{s.Row(c), n + s.Col(c), 2*n + s.Box(c)} {
			t.units[u] = append(t.units[u], c)
		}
	}
	for c := range n * n {
		seen := map[int]bool{c: true}
		for _, u := range [3]int{s.Row(c), n + s.Col(c), 2*n + s.Box(c)} {
			for _, p := range t.units[u] {
				if !seen[p] {
					seen[p] = true
					t.peers[c] = append(t.peers[c], p)
				}
			}
		}
		slices.Sort(t.peers[c])
	}
	got, _ := tableCache.LoadOrStore(s, t)
	return got.(*tables)
}

// Units returns the 3N units of the shape, each the N cells in order:
// rows first, then columns, then boxes. The slices are shared: do not
// modify them.
func (s Shape) Units() [][]int { return s.tables().units }

// Peers returns the cells that share a row, column or box with c, in
// increasing order. The slice is shared: do not modify it.
func (s Shape) Peers(c int) []int { return s.tables().peers[c] }

// UnitName names unit u of Units as people do: "row 3", "column 10",
// "box 12", counted from 1.
func (s Shape) UnitName(u int) string {
	switch u / s.N {
	case 0:
		return "row " + strconv.Itoa(u%s.N+1)
	case 1:
		return "column " + strconv.Itoa(u%s.N+1)
	}
	return "box " + strconv.Itoa(u%s.N+1)
}

// CellName names cell c as "r3c10", rows and columns from 1.
func (s Shape) CellName(c int) string {
	return "r" + strconv.Itoa(s.Row(c)+1) + "c" + strconv.Itoa(s.Col(c)+1)
}

// Grid is a grid of any shape in row-major order: 0 is an empty cell and
// 1..N a value.
type Grid struct {
	Shape Shape
	Cells []uint8
}

// New returns an empty grid of shape s.
func New(s Shape) Grid { return Grid{Shape: s, Cells: make([]uint8, s.Cells())} }

// Clone returns a copy of g that shares no memory with it.
func (g Grid) Clone() Grid { return Grid{Shape: g.Shape, Cells: slices.Clone(g.Cells)} }

// Equal reports whether g and h have one shape and the same cells.
func (g Grid) Equal(h Grid) bool { return g.Shape == h.Shape && slices.Equal(g.Cells, h.Cells) }

// Givens returns the number of filled cells.
func (g Grid) Givens() int {
	n := 0
	for _, v := range g.Cells {
		if v != 0 {
			n++
		}
	}
	return n
}

// Symbol returns the character of value v in a grid's text: '.' for 0,
// '1'-'9', then 'A' for 10 up to 'P' for 25.
func Symbol(v uint8) byte {
	switch {
	case v == 0:
		return '.'
	case v <= 9:
		return '0' + v
	}
	return 'A' + v - 10
}

// Value returns the value of character b in the text of an n x n grid, and
// whether b is a cell at all: '.' is empty, and so is '0' where n <= 9;
// letters are case-insensitive.
func Value(b byte, n int) (uint8, bool) {
	var v int
	switch {
	case b == '.':
		return 0, true
	case b == '0':
		return 0, n <= 9
	case b >= '1' && b <= '9':
		v = int(b - '0')
	case b >= 'A' && b <= 'Z':
		v = int(b-'A') + 10
	case b >= 'a' && b <= 'z':
		v = int(b-'a') + 10
	default:
		return 0, false
	}
	return uint8(v), v <= n
}

// String returns the grid as one line of N*N characters (Symbol).
func (g Grid) String() string { return string(g.AppendString(nil)) }

// AppendString appends the grid's String form to b.
func (g Grid) AppendString(b []byte) []byte {
	for _, v := range g.Cells {
		b = append(b, Symbol(v))
	}
	return b
}

// Values returns the cells as ints, for JSON arrays (0 for empty).
func (g Grid) Values() []int {
	out := make([]int, len(g.Cells))
	for i, v := range g.Cells {
		out[i] = int(v)
	}
	return out
}

// Errors that Parse and Check wrap.
var (
	// ErrLength: the line's length is N*N for no shape.
	ErrLength = errors.New("not the length of a grid")
	// ErrCharacter: a character is not a value of the grid's size.
	ErrCharacter = errors.New("not a value or an empty cell")
	// ErrRepeated: a value appears twice in a row, column or box.
	ErrRepeated = errors.New("value repeated")
)

// Parse reads a grid from one line of N*N characters, detecting the shape
// from the length: '.' is an empty cell (and '0' for N <= 9), 1-9 and
// then letters (A=10, case-insensitive) are values. It checks that no
// value repeats in a unit; it does not check for solutions.
func Parse(line string) (Grid, error) {
	s, ok := ShapeOfCells(len(line))
	if !ok {
		return Grid{}, fmt.Errorf("%w: %d characters (a grid of size N has N*N, for N in %s)", ErrLength, len(line), SizeList())
	}
	return ParseIn(s, line)
}

// ParseIn reads a line of s.Cells() characters as a grid of shape s,
// as Parse does.
func ParseIn(s Shape, line string) (Grid, error) {
	if len(line) != s.Cells() {
		return Grid{}, fmt.Errorf("%w: %d characters, a %s grid has %d", ErrLength, len(line), s, s.Cells())
	}
	g := New(s)
	for i := range len(line) {
		v, ok := Value(line[i], s.N)
		if !ok {
			return Grid{}, fmt.Errorf("%s: %q is %w of a %s grid", s.CellName(i), line[i], ErrCharacter, s)
		}
		g.Cells[i] = v
	}
	if err := g.Check(); err != nil {
		return Grid{}, err
	}
	return g, nil
}

// Check returns an error naming the first value repeated in a unit, or
// nil.
func (g Grid) Check() error {
	s := g.Shape
	if len(g.Cells) != s.Cells() {
		return fmt.Errorf("%w: %d cells, a %s grid has %d", ErrLength, len(g.Cells), s, s.Cells())
	}
	for u, unit := range s.Units() {
		var seen uint32
		for _, c := range unit {
			v := g.Cells[c]
			if v == 0 {
				continue
			}
			if v > uint8(s.N) {
				return fmt.Errorf("%s: %d is %w of a %s grid", s.CellName(c), v, ErrCharacter, s)
			}
			if seen&(1<<v) != 0 {
				return fmt.Errorf("%w: %c twice in %s", ErrRepeated, Symbol(v), s.UnitName(u))
			}
			seen |= 1 << v
		}
	}
	return nil
}
