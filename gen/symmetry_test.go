package gen_test

import (
	"math/rand/v2"
	"testing"

	"sudokubank/gen"
	"sudokubank/solve"
)

// allSymmetries lists every symmetry, NoSymmetry first.
var allSymmetries = []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Rot90, gen.Mirror, gen.Flip, gen.Diagonal, gen.Antidiagonal}

func TestParseSymmetry(t *testing.T) {
	names := []string{"none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal"}
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			got, err := gen.ParseSymmetry(name)
			if err != nil {
				t.Fatal(err)
			}
			if want := allSymmetries[i]; got != want {
				t.Errorf("ParseSymmetry(%q) = %v, want %v", name, got, want)
			}
			if got := got.String(); got != name {
				t.Errorf("String() = %q, want %q", got, name)
			}
		})
	}
	for _, bad := range []string{"", "Rot180", "rot 180", "horizontal"} {
		if _, err := gen.ParseSymmetry(bad); err == nil {
			t.Errorf("ParseSymmetry(%q) succeeded, want an error", bad)
		}
	}
}

func TestOrbits(t *testing.T) {
	want := []int{81, 41, 21, 45, 45, 45, 45}
	for i, s := range allSymmetries {
		if got := s.Orbits(); got != want[i] {
			t.Errorf("%v.Orbits() = %d, want %d", s, got, want[i])
		}
	}
}

// pattern returns a grid with a 1 in each listed cell (r, c) and nothing
// else: enough for the symmetry of a pattern, which ignores digits.
func pattern(cells ...[2]int) solve.Grid {
	var g solve.Grid
	for _, rc := range cells {
		g[rc[0]*9+rc[1]] = 1
	}
	return g
}

func TestDetectSymmetry(t *testing.T) {
	tests := []struct {
		name string
		p    solve.Grid
		want gen.Symmetry
	}{
		{"Empty", pattern(), gen.Rot90},
		{"Centre", pattern([2]int{4, 4}), gen.Rot90},
		{"FourCorners", pattern([2]int{0, 0}, [2]int{0, 8}, [2]int{8, 0}, [2]int{8, 8}), gen.Rot90},
		{"Pinwheel", pattern([2]int{0, 1}, [2]int{1, 8}, [2]int{8, 7}, [2]int{7, 0}), gen.Rot90},
		{"Rot180", pattern([2]int{0, 1}, [2]int{8, 7}), gen.Rot180},
		{"MirrorAndFlip", pattern([2]int{0, 1}, [2]int{0, 7}, [2]int{8, 1}, [2]int{8, 7}), gen.Rot180},
		{"Mirror", pattern([2]int{0, 1}, [2]int{0, 7}), gen.Mirror},
		{"Flip", pattern([2]int{0, 1}, [2]int{8, 1}), gen.Flip},
		{"Diagonal", pattern([2]int{0, 1}, [2]int{1, 0}), gen.Diagonal},
		{"Antidiagonal", pattern([2]int{0, 1}, [2]int{7, 8}), gen.Antidiagonal},
		{"None", pattern([2]int{0, 1}), gen.NoSymmetry},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gen.DetectSymmetry(tt.p); got != tt.want {
				t.Errorf("DetectSymmetry = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHoldsOnClosedPatterns checks that a random pattern closed under a
// symmetry's images has that symmetry, and one cell less breaks it unless
// the cell is its own image.
func TestHoldsOnClosedPatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, s := range allSymmetries {
		for trial := 0; trial < 50; trial++ {
			var g solve.Grid
			for k := 0; k < 10; k++ {
				c := rng.IntN(81)
				// Close the orbit of c by applying s until it repeats.
				for x := c; g[x] == 0; x = image(s, x) {
					g[x] = 1
				}
			}
			if !s.Holds(g) {
				t.Fatalf("%v.Holds(%v) = false, want true", s, g)
			}
			if got := gen.DetectSymmetry(g); !got.Holds(g) {
				t.Fatalf("DetectSymmetry(%v) = %v, which does not hold", g, got)
			}
			for c := 0; c < 81; c++ {
				if g[c] != 0 && image(s, c) != c {
					h := g
					h[c] = 0
					if s.Holds(h) {
						t.Fatalf("%v.Holds(%v) = true after removing cell %d", s, h, c)
					}
					break
				}
			}
		}
	}
}

// image maps cell c by symmetry s, written independently of package gen.
func image(s gen.Symmetry, c int) int {
	r, col := c/9, c%9
	switch s {
	case gen.Rot180:
		return (8-r)*9 + 8 - col
	case gen.Rot90:
		return col*9 + 8 - r
	case gen.Mirror:
		return r*9 + 8 - col
	case gen.Flip:
		return (8-r)*9 + col
	case gen.Diagonal:
		return col*9 + r
	case gen.Antidiagonal:
		return (8-col)*9 + 8 - r
	}
	return c
}
