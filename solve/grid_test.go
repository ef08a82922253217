package solve_test

import (
	"errors"
	"strings"
	"testing"

	"sudokubank/solve"
)

const (
	// top95First is the first puzzle of Norvig's top95 list.
	top95First = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	// terminal is a valid full grid.
	terminal = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
)

func TestParseFormats(t *testing.T) {
	want := MustParse(t, top95First)
	tests := []struct {
		name, in string
	}{
		{"OneLine", top95First},
		{"OneLineZeros", strings.ReplaceAll(top95First, ".", "0")},
		{"OneLineDashes", strings.ReplaceAll(top95First, ".", "-")},
		{"OneLineStars", strings.ReplaceAll(top95First, ".", "*")},
		{"OneLineUnderscores", strings.ReplaceAll(top95First, ".", "_")},
		{"TrailingNewline", top95First + "\n"},
		{"CRLF", top95First + "\r\n"},
		{"NineLines", `4.....8.5
.3.......
...7.....
.2.....6.
....8.4..
....1....
...6.3.7.
5..2.....
1.4......`},
		{"SpacedWithRulings", `4 . . | . . . | 8 . 5
. 3 . | . . . | . . .
. . . | 7 . . | . . .
------+-------+------
. 2 . | . . . | . 6 .
. . . | . 8 . | 4 . .
. . . | . 1 . | . . .
------+-------+------
. . . | 6 . 3 | . 7 .
5 . . | 2 . . | . . .
1 . 4 | . . . | . . .
`},
		{"DashCellsWithRulings", `
+-------+-------+-------+
| 4 - - | - - - | 8 - 5 |
| - 3 - | - - - | - - - |
| - - - | 7 - - | - - - |
+=======+=======+=======+
| - 2 - | - - - | - 6 - |
| - - - | - 8 - | 4 - - |
| - - - | - 1 - | - - - |
-------------------------
| - - - | 6 - 3 | - 7 - |
| 5 - - | 2 - - | - - - |
| 1 - 4 | - - - | - - - |
+-------+-------+-------+
`},
		{"SimpleSudokuFrame", `*-----------*
|4..|...|8.5|
|.3.|...|...|
|...|7..|...|
|---+---+---|
|.2.|...|.6.|
|...|.8.|4..|
|...|.1.|...|
|---+---+---|
|...|6.3|.7.|
|5..|2..|...|
|1.4|...|...|
*-----------*
`},
		{"EmptyRowOfDashes", strings.Join([]string{
			"4.....8.5", ".3.......", "...7.....", ".2.....6.", "....8.4..", "....1....", "...6.3.7.", "5..2.....", "1.4......"}, "\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := solve.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
	// A row of nine dashes is a row of empty cells, not a ruling.
	g, err := solve.Parse("---------\n" + terminal[9:])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.String(), "........."+terminal[9:]; got != want {
		t.Errorf("dash row: got %s, want %s", got, want)
	}
	if g, err := solve.Parse(strings.Repeat("-", 81)); err != nil || g != (solve.Grid{}) {
		t.Errorf("81 dashes: got %s, %v; want the empty grid", g, err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     error
		msg      string
	}{
		{"Short", top95First[:80], solve.ErrCellCount, "wrong number of cells: found 80, want 81"},
		{"Long", top95First + "\n1", solve.ErrCellCount, "wrong number of cells: found 82, want 81 (the 82nd is on line 2)"},
		{"Empty", "", solve.ErrCellCount, "wrong number of cells: found 0, want 81"},
		{"BadChar", "4.....8.5\n.3.......\n...7..x..", solve.ErrCharacter, `line 3, column 7: 'x' is not a digit or an empty cell`},
		{"BadRune", "4.....8.5é", solve.ErrCharacter, `line 1, column 10: 'é' is not a digit or an empty cell`},
		{"BadByte", "4.....8.5\n.3.\x89", solve.ErrCharacter, `line 2, column 4: byte 0x89 (not UTF-8) is not a digit or an empty cell`},
		{"RepeatRow", "44" + top95First[2:], solve.ErrRepeated, "digit repeated: 4 twice in row 1 (r1c1 and r1c2)"},
		{"RepeatColumn", top95First[:9] + "4" + top95First[10:], solve.ErrRepeated, "digit repeated: 4 twice in column 1 (r1c1 and r2c1)"},
		{"RepeatBox", top95First[:20] + "3" + top95First[21:], solve.ErrRepeated, "digit repeated: 3 twice in box 1 (r2c2 and r3c3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := solve.Parse(tt.in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if got := err.Error(); got != tt.msg {
				t.Errorf("got %q, want %q", got, tt.msg)
			}
		})
	}
}

func TestStringRoundTrip(t *testing.T) {
	g := MustParse(t, top95First)
	if got := g.String(); got != top95First {
		t.Errorf("got %s, want %s", got, top95First)
	}
	if got, want := g.Givens(), 17; got != want {
		t.Errorf("Givens = %d, want %d", got, want)
	}
}

func TestAppendString(t *testing.T) {
	g := MustParse(t, top95First)
	if got, want := string(g.AppendString([]byte("x"))), "x"+top95First; got != want {
		t.Errorf("AppendString = %s, want %s", got, want)
	}
}

// FuzzParse checks that Parse never panics and that a parsed grid
// survives String and Parse again.
func FuzzParse(f *testing.F) {
	f.Add(top95First)
	f.Add(terminal)
	f.Add("4 . . | . . . | 8 . 5\n------+-------+------\n")
	f.Add(strings.Repeat("-", 81))
	f.Fuzz(func(t *testing.T, s string) {
		g, err := solve.Parse(s)
		if err != nil {
			return
		}
		if err := g.Check(); err != nil {
			t.Fatalf("Parse(%q) returned an invalid grid: %v", s, err)
		}
		h, err := solve.Parse(g.String())
		if err != nil || h != g {
			t.Fatalf("Parse(%q) = %s, then %s, %v", s, g, h, err)
		}
	})
}

// FuzzCount checks the fast solver against Algorithm X and the plain
// backtracker on grids made from the fuzzer's bytes: byte i, modulo 10,
// is cell i, and a clashing given is dropped.
func FuzzCount(f *testing.F) {
	f.Add([]byte(top95First), uint8(2))
	f.Add([]byte(terminal[:40]), uint8(5))
	f.Add([]byte{}, uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, limit uint8) {
		var g solve.Grid
		for i := 0; i < len(b) && i < 81; i++ {
			if b[i] >= '0' && b[i] <= '9' {
				g[i] = b[i] - '0'
			} else {
				g[i] = b[i] % 10
			}
			if g.Check() != nil {
				g[i] = 0
			}
		}
		crossCheck(t, g, int(limit%20))
	})
}
