package grid_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"sudokubank/grid"
)

// pattern returns a filled valid grid of shape s: the classic shifted rows.
func pattern(s grid.Shape) grid.Grid {
	g := grid.New(s)
	for r := range s.N {
		for c := range s.N {
			g.Cells[r*s.N+c] = uint8((s.BoxCols*(r%s.BoxRows)+r/s.BoxRows+c)%s.N + 1)
		}
	}
	return g
}

func TestShapes(t *testing.T) {
	for _, s := range grid.Shapes {
		if s.BoxRows*s.BoxCols != s.N {
			t.Errorf("%v: boxes %dx%d do not hold %d cells", s, s.BoxRows, s.BoxCols, s.N)
		}
		got, err := grid.ShapeOf(s.N)
		if err != nil || got != s {
			t.Errorf("ShapeOf(%d) = %v, %v", s.N, got, err)
		}
		if got, err := grid.ParseShape(s.String()); err != nil || got != s {
			t.Errorf("ParseShape(%q) = %v, %v", s.String(), got, err)
		}
		units := s.Units()
		if len(units) != 3*s.N {
			t.Fatalf("%v: %d units", s, len(units))
		}
		count := make([]int, s.Cells())
		for _, u := range units {
			if len(u) != s.N {
				t.Fatalf("%v: a unit of %d cells", s, len(u))
			}
			for _, c := range u {
				count[c]++
			}
		}
		for c, n := range count {
			if n != 3 {
				t.Fatalf("%v: cell %d in %d units", s, c, n)
			}
		}
		if want := 3*(s.N-1) - (s.BoxRows - 1) - (s.BoxCols - 1); len(s.Peers(0)) != want {
			t.Errorf("%v: %d peers, want %d", s, len(s.Peers(0)), want)
		}
		if err := pattern(s).Check(); err != nil {
			t.Errorf("%v: pattern: %v", s, err)
		}
	}
	for _, bad := range []string{"5", "10", "x", "9x8", ""} {
		if _, err := grid.ParseShape(bad); !errors.Is(err, grid.ErrSize) {
			t.Errorf("ParseShape(%q) = %v, want ErrSize", bad, err)
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range grid.Shapes {
		g := pattern(s)
		for i := range g.Cells {
			if rng.IntN(2) == 0 {
				g.Cells[i] = 0
			}
		}
		text := g.String()
		got, err := grid.Parse(text)
		if err != nil {
			t.Fatalf("%v: Parse(%s): %v", s, text, err)
		}
		if !got.Equal(g) {
			t.Fatalf("%v: round trip %s -> %s", s, text, got)
		}
		if lower, err := grid.Parse(strings.ToLower(text)); err != nil || !lower.Equal(g) {
			t.Errorf("%v: lower case not read alike: %v", s, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	sixteen := pattern(grid.Shapes[5]).String()
	for _, tc := range []struct {
		line string
		want error
		in   string
	}{
		{strings.Repeat(".", 80), grid.ErrLength, "80 characters"},
		{"0" + sixteen[1:], grid.ErrCharacter, "r1c1"},
		{"H" + sixteen[1:], grid.ErrCharacter, "r1c1"},
		{"11" + strings.Repeat(".", 14), grid.ErrRepeated, "row 1"},
		{"1...1" + strings.Repeat(".", 11), grid.ErrRepeated, "column 1"},
		{"1....1" + strings.Repeat(".", 10), grid.ErrRepeated, "box 1"},
		{"5" + strings.Repeat(".", 15), grid.ErrCharacter, "r1c1"},
	} {
		_, err := grid.Parse(tc.line)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.in) {
			t.Errorf("Parse(%.20s...) = %v, want %v naming %q", tc.line, err, tc.want, tc.in)
		}
	}
	if g, err := grid.Parse("0" + strings.Repeat(".", 80)); err != nil || g.Givens() != 0 {
		t.Errorf("9x9 '0' is not an empty cell: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range grid.Shapes {
		f.Add(pattern(s).String())
	}
	f.Add(strings.Repeat(".", 36))
	f.Fuzz(func(t *testing.T, line string) {
		g, err := grid.Parse(line)
		if err != nil {
			return
		}
		if err := g.Check(); err != nil {
			t.Fatalf("Parse accepted %q: %v", line, err)
		}
		again, err := grid.Parse(g.String())
		if err != nil || !again.Equal(g) {
			t.Fatalf("round trip of %q: %v", line, err)
		}
	})
}

func TestTransformGroup(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range grid.Shapes {
		g := pattern(s)
		for i := range g.Cells {
			if rng.IntN(3) == 0 {
				g.Cells[i] = 0
			}
		}
		for range 50 {
			a, b := grid.RandomTransform(s, rng), grid.RandomTransform(s, rng)
			for _, x := range []grid.Transform{a, b} {
				if err := x.Check(); err != nil {
					t.Fatalf("%v: RandomTransform %v: %v", s, x, err)
				}
				if err := x.Apply(pattern(s)).Check(); err != nil {
					t.Fatalf("%v: %v breaks a valid grid: %v", s, x, err)
				}
			}
			if got, want := a.Then(b).Apply(g), b.Apply(a.Apply(g)); !got.Equal(want) {
				t.Fatalf("%v: (%v).Then(%v) is not one after the other", s, a, b)
			}
			if got := a.Inverse().Apply(a.Apply(g)); !got.Equal(g) {
				t.Fatalf("%v: Inverse of %v does not undo it", s, a)
			}
			if !a.Then(a.Inverse()).Equal(grid.Identity(s)) {
				t.Fatalf("%v: %v then its inverse is not the identity", s, a)
			}
			back, err := grid.ParseTransform(s, a.String())
			if err != nil || !back.Equal(a) {
				t.Fatalf("%v: ParseTransform(%q) = %v, %v", s, a.String(), back, err)
			}
		}
	}
}

func TestTransformCheck(t *testing.T) {
	six := grid.Shapes[1]
	tr := grid.Identity(six)
	tr.Transpose = true
	if err := tr.Check(); !errors.Is(err, grid.ErrTransform) {
		t.Errorf("transposing 2x3 boxes allowed: %v", err)
	}
	tr = grid.Identity(six)
	tr.Rows[1], tr.Rows[2] = tr.Rows[2], tr.Rows[1]
	if err := tr.Check(); err == nil || !strings.Contains(err.Error(), "band") {
		t.Errorf("rows leaving their band allowed: %v", err)
	}
	for _, text := range []string{"", "123456/123456", "132456/123456/123456", "123456/124356/123456", "123456/123456/123455", "T123456/123456/123456", "1234567/123456/123456"} {
		if _, err := grid.ParseTransform(six, text); !errors.Is(err, grid.ErrTransform) {
			t.Errorf("ParseTransform(%q) = %v, want ErrTransform", text, err)
		}
	}
}
