package gen_test

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/gen"
	"sudokubank/solve"
)

// symmetricPattern draws a grid whose pattern of givens has s: a random
// set of whole orbits, each cell holding a random digit.
func symmetricPattern(t *rapid.T, s gen.Symmetry) solve.Grid {
	var g solve.Grid
	var seen [81]bool
	for c := range 81 {
		if seen[c] {
			continue
		}
		keep := rapid.Bool().Draw(t, "keep")
		for x := c; !seen[x]; x = image(s, x) {
			seen[x] = true
			if keep {
				g[x] = uint8(rapid.IntRange(1, 9).Draw(t, "digit"))
			}
		}
	}
	return g
}

func TestRandomTransformKeepsSymmetryProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := allSymmetries[rapid.IntRange(0, len(allSymmetries)-1).Draw(t, "symmetry")]
		p := symmetricPattern(t, s)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		tr := s.RandomTransform(rng)
		if !s.Keeps(tr) {
			t.Fatalf("%v.RandomTransform gave %v, which %v does not keep", s, tr, s)
		}
		if q := tr.Apply(p); !s.Holds(q) {
			t.Fatalf("%v.RandomTransform gave %v; it takes %v, which has %v, to %v, which has not", s, tr, p, s, q)
		}
	})
}

// geometric returns t without its relabelling, as its text's first part.
func geometric(t gen.Transform) string {
	s := t.String()
	return s[:len(s)-10]
}

func TestRandomTransformReach(t *testing.T) {
	// The geometric maps each symmetry's table lists, and how many draws
	// find them all (or, for the large sets, how many distinct of them
	// a sample of draws must reach).
	tests := []struct {
		s            gen.Symmetry
		draws, least int
	}{
		{gen.Rot180, 30000, 2 * 24 * 24},
		{gen.Rot90, 3000, 2 * 2 * 24},
		{gen.Diagonal, 60000, 2 * 1296},
		{gen.Antidiagonal, 60000, 2 * 1296},
		{gen.Mirror, 20000, 14000}, // 31,104 maps: about 14,750 expected
		{gen.Flip, 20000, 14000},
		{gen.NoSymmetry, 20000, 19900},
	}
	for _, tt := range tests {
		t.Run(tt.s.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.s), 5))
			geo := map[string]bool{}
			labels := map[string]bool{}
			for range tt.draws {
				tr := tt.s.RandomTransform(rng)
				if !tt.s.Keeps(tr) {
					t.Fatalf("%v does not keep %v", tr, tt.s)
				}
				geo[geometric(tr)] = true
				labels[tr.String()[len(tr.String())-9:]] = true
			}
			if len(geo) < tt.least {
				t.Errorf("%d draws reached %d geometric maps, want %d or more", tt.draws, len(geo), tt.least)
			}
			if len(labels) < tt.draws/2 {
				t.Errorf("%d draws reached %d relabellings, want %d or more", tt.draws, len(labels), tt.draws/2)
			}
		})
	}
}

func TestKeeps(t *testing.T) {
	tests := []struct {
		name string
		t    gen.Transform
		keep []gen.Symmetry // the symmetries t keeps; it keeps no other
	}{
		{"Identity", gen.Identity(), allSymmetries},
		{"Turn90", gen.Turn90(), []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Rot90}},
		{"Turn180", gen.Turn180(), allSymmetries},
		{"MirrorLR", gen.MirrorLR(), []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Rot90, gen.Mirror, gen.Flip}},
		{"Transpose", gen.Transpose(), []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Rot90, gen.Diagonal, gen.Antidiagonal}},
		{"SwapRows01", mustTransform(t, "213456789/123456789/123456789"), []gen.Symmetry{gen.NoSymmetry, gen.Mirror}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range allSymmetries {
				want := false
				for _, k := range tt.keep {
					want = want || k == s
				}
				if got := s.Keeps(tt.t); got != want {
					t.Errorf("%v.Keeps(%v) = %v, want %v", s, tt.t, got, want)
				}
			}
		})
	}
}

// mustTransform parses a transform's text or stops the test.
func mustTransform(tb testing.TB, s string) gen.Transform {
	tb.Helper()
	t, err := gen.ParseTransform(s)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}
