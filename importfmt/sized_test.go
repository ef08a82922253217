package importfmt_test

import (
	"errors"
	"strings"
	"testing"

	"sudokubank/grid"
	"sudokubank/importfmt"
	"sudokubank/solve"
)

// MustPattern returns a valid grid of shape s, the pattern solution
// (BoxCols*(r%BoxRows) + r/BoxRows + c) % N + 1 with every third cell
// blank, as text.
func MustPattern(tb testing.TB, s grid.Shape) string {
	tb.Helper()
	g := grid.New(s)
	for r := range s.N {
		for c := range s.N {
			if (r+c)%3 != 0 {
				g.Cells[s.Cell(r, c)] = uint8((s.BoxCols*(r%s.BoxRows)+r/s.BoxRows+c)%s.N + 1)
			}
		}
	}
	if err := g.Check(); err != nil {
		tb.Fatal(err)
	}
	return g.String()
}

const nine = "..4...2.7.85.24...2.6..3..851.........8.7.........14.6.7..........65......1.4.6.3"

func TestShapeOf(t *testing.T) {
	shape := func(n int) grid.Shape { s, _ := grid.ShapeOf(n); return s }
	four, sixteen := MustPattern(t, shape(4)), MustPattern(t, shape(16))
	tests := []struct {
		name, text string
		want       int
	}{
		{"Nine", nine, 9},
		{"NineZeros", strings.ReplaceAll(nine, ".", "0"), 9},
		{"NineRuled", "..4 ...|2.7 .85 .24 ...2.6..3..851.........8.7.........14.6.7..........65......1.4.6.3", 9},
		{"NineComment", nine + " from the forum", 9},
		{"Four", four, 4},
		{"FourComment", four + "\tfrom a book", 4},
		{"FourSpaces", "  " + four + "  ", 4},
		{"Sixteen", sixteen, 16},
		{"SixteenLower", strings.ToLower(sixteen), 16},
		{"AllShapes36", MustPattern(t, shape(6)), 6},
		{"Eight", MustPattern(t, shape(8)), 8},
		{"Twelve", MustPattern(t, shape(12)), 12},
		{"TwentyFive", MustPattern(t, shape(25)), 25},
		// Lengths no shape has, or characters no cell is, stay with 9x9
		// and its messages.
		{"Seventeen", four + "1", 9},
		{"Dashes", strings.ReplaceAll(four, ".", "-"), 9},
		{"Empty", "", 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := importfmt.ShapeOf(tt.text); got.N != tt.want {
				t.Errorf("ShapeOf(%q) = %v, want %dx%d", tt.text, got, tt.want, tt.want)
			}
		})
	}
}

func TestParseGrid(t *testing.T) {
	s16, _ := grid.ShapeOf(16)
	sixteen := MustPattern(t, s16)
	tests := []struct {
		name, text string
		want       string // the grid's text, or "" for an error
		err        string // what the error says
	}{
		{"Nine", nine, nine, ""},
		{"NineAsSolveParses", "..4 ...|2.7 .85 .24 ...2.6..3..851.........8.7.........14.6.7..........65......1.4.6.3", nine, ""},
		{"Sixteen", sixteen + " # a comment", sixteen, ""},
		{"SixteenLower", strings.ToLower(sixteen), sixteen, ""},
		{"SixteenRepeated", "11" + sixteen[2:], "", "value repeated"},
		{"SixteenTooLarge", "H" + sixteen[1:], "", `r1c1: 'H' is not a value or an empty cell of a 16x16 grid`},
		{"FourZeroEmpty", strings.ReplaceAll(MustPattern(t, grid.Shapes[0]), ".", "0"), strings.ReplaceAll(MustPattern(t, grid.Shapes[0]), ".", "."), ""},
		{"WrongLength", nine[:80], "", "80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := importfmt.ParseGrid(tt.text)
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, %v; want an error saying %q", g, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.String() != tt.want {
				t.Errorf("got %s, want %s", g, tt.want)
			}
		})
	}
	// 9x9 reads exactly as solve.ParseLine reads it, errors included.
	for _, text := range []string{nine, nine[:80], nine + "x", strings.Replace(nine, ".", "4", 1)} {
		_, want := solve.ParseLine(text)
		_, got := importfmt.ParseGrid(text)
		if (got == nil) != (want == nil) || (got != nil && got.Error() != want.Error()) {
			t.Errorf("ParseGrid(%q): %v; solve.ParseLine: %v", text, got, want)
		}
	}
}

// TestReadMixedSizes reads a file of one puzzle a line in several sizes:
// each record has its own size, and a line of no size's length is 9x9's
// error at its line.
func TestReadMixedSizes(t *testing.T) {
	var lines []string
	var want []int
	for _, s := range grid.Shapes {
		text := MustPattern(t, s)
		if s == grid.Nine {
			text = nine
		}
		lines = append(lines, text)
		want = append(want, s.N)
	}
	lines = append(lines, "# a comment", MustPattern(t, grid.Shapes[0])+"1")
	_, recs := MustRead(t, strings.NewReader(strings.Join(lines, "\n")+"\n"))
	if len(recs) != len(want)+1 {
		t.Fatalf("got %d records, want %d", len(recs), len(want)+1)
	}
	for i, n := range want {
		if recs[i].Shape.N != n || recs[i].Line != i+1 {
			t.Errorf("record %d: line %d, %v, want line %d, %dx%d", i, recs[i].Line, recs[i].Shape, i+1, n, n)
		}
		g, err := importfmt.ParseGrid(recs[i].Text)
		if err != nil || g.Shape.N != n {
			t.Errorf("record %d: %v, %v", i, g.Shape, err)
		}
	}
	bad := recs[len(recs)-1]
	if bad.Shape != grid.Nine || bad.Line != len(lines) {
		t.Errorf("bad line: %+v, want 9x9 at line %d", bad, len(lines))
	}
	if _, err := importfmt.ParseGrid(bad.Text); err == nil {
		t.Error("a line of 17 cells parses")
	}
}

func FuzzParseGrid(f *testing.F) {
	for _, s := range grid.Shapes {
		f.Add(MustPattern(f, s))
	}
	f.Add(nine)
	f.Add(nine + " comment")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		s := importfmt.ShapeOf(text)
		if !s.Valid() {
			t.Fatalf("ShapeOf(%q) = %v, not a shape", text, s)
		}
		g, err := importfmt.ParseGrid(text)
		if err != nil {
			return
		}
		if g.Shape != s || g.Check() != nil {
			t.Fatalf("ParseGrid(%q) = %v (%v), ShapeOf says %v", text, g, g.Check(), s)
		}
		// A grid read reads back the same from its own text.
		again, err := importfmt.ParseGrid(g.String())
		if err != nil || !again.Equal(g) {
			t.Fatalf("ParseGrid(%q) = %v; its text reads as %v, %v", text, g, again, err)
		}
		if errors.Is(err, grid.ErrSize) {
			t.Fatal("unreachable")
		}
	})
}
