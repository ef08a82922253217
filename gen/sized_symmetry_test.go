package gen_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/solve"
)

func TestValidFor(t *testing.T) {
	for _, s := range grid.Shapes {
		for _, sym := range allSymmetries {
			want := s.Square() || sym == gen.NoSymmetry || sym == gen.Rot180 || sym == gen.Mirror || sym == gen.Flip
			if got := sym.ValidFor(s); got != want {
				t.Errorf("%v.ValidFor(%v) = %v, want %v", sym, s, got, want)
			}
		}
	}
	if gen.Symmetry(99).ValidFor(grid.Nine) {
		t.Error("Symmetry(99).ValidFor(9x9) = true")
	}
	if gen.Rot180.ValidFor(grid.Shape{N: 10, BoxRows: 2, BoxCols: 5}) {
		t.Error("Rot180.ValidFor(10x10) = true for a shape not in grid.Shapes")
	}
}

func TestOrbitsSized(t *testing.T) {
	// With n cells on a side, c = n*n: the quarter turn's orbits are 4
	// cells but the centre, the reflections fix a line (mirror, flip: of
	// the middle, present only when n is odd; the diagonals: n cells).
	for _, s := range grid.Shapes {
		n, c, odd := s.N, s.Cells(), s.N%2
		want := map[gen.Symmetry]int{
			gen.NoSymmetry: c,
			gen.Rot180:     (c + odd) / 2,
			gen.Mirror:     (c + odd*n) / 2,
			gen.Flip:       (c + odd*n) / 2,
		}
		if s.Square() {
			want[gen.Rot90] = (c + 3*odd) / 4
			want[gen.Diagonal] = (c + n) / 2
			want[gen.Antidiagonal] = (c + n) / 2
		}
		for _, sym := range allSymmetries {
			if got := sym.OrbitsSized(s); got != want[sym] {
				t.Errorf("%v.OrbitsSized(%v) = %d, want %d", sym, s, got, want[sym])
			}
		}
	}
	for _, sym := range allSymmetries {
		if got, want := sym.OrbitsSized(grid.Nine), sym.Orbits(); got != want {
			t.Errorf("%v.OrbitsSized(9x9) = %d, Orbits() = %d", sym, got, want)
		}
	}
}

// sizedPattern returns a grid of shape s whose givens (all 1s) are a
// random union of orbits of sym: the images of each cell under sym's
// group, found by closing under the geometric map of the symmetry.
func sizedPattern(s grid.Shape, sym gen.Symmetry, rng *rand.Rand) grid.Grid {
	g := grid.New(s)
	for c := range g.Cells {
		if g.Cells[c] != 0 || rng.IntN(2) == 0 {
			continue
		}
		for x := c; g.Cells[x] == 0; x = sizedImage(s, sym, x) {
			g.Cells[x] = 1
		}
	}
	return g
}

// sizedImage returns the image of cell x under the geometric map of sym, by
// its definition in symmetry.go with 8 read as N-1.
func sizedImage(s grid.Shape, sym gen.Symmetry, x int) int {
	n, m := s.N, s.N-1
	r, c := x/n, x%n
	switch sym {
	case gen.Rot180:
		return (m-r)*n + m - c
	case gen.Rot90:
		return c*n + m - r
	case gen.Mirror:
		return r*n + m - c
	case gen.Flip:
		return (m-r)*n + c
	case gen.Diagonal:
		return c*n + r
	case gen.Antidiagonal:
		return (m-c)*n + m - r
	}
	return x
}

func TestHoldsSized(t *testing.T) {
	rng := newRand(1)
	for _, s := range grid.Shapes {
		for _, sym := range allSymmetries {
			if !sym.ValidFor(s) {
				if sym.HoldsSized(grid.New(s)) {
					t.Errorf("%v.HoldsSized(empty %v) = true for a symmetry not valid there", sym, s)
				}
				continue
			}
			for range 20 {
				p := sizedPattern(s, sym, rng)
				if !sym.HoldsSized(p) {
					t.Fatalf("%v.HoldsSized(%v) = false", sym, p)
				}
				if sym == gen.NoSymmetry {
					continue
				}
				// Moving one given to a cell whose image is empty breaks it.
				for c, v := range p.Cells {
					if v == 0 && sizedImage(s, sym, c) != c && p.Cells[sizedImage(s, sym, c)] == 0 {
						q := p.Clone()
						q.Cells[c] = 1
						if sym.HoldsSized(q) {
							t.Fatalf("%v.HoldsSized(%v) = true", sym, q)
						}
						break
					}
				}
			}
		}
	}
}

// toSolve converts a 9x9 grid.Grid to a solve.Grid.
func toSolve(g grid.Grid) solve.Grid {
	var out solve.Grid
	copy(out[:], g.Cells)
	return out
}

// TestDetectSymmetrySizedAgrees checks the sized detection against the
// 9x9 one on random patterns, half of them built symmetric.
func TestDetectSymmetrySizedAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		sym := rapid.SampledFrom(allSymmetries).Draw(t, "symmetry")
		p := sizedPattern(grid.Nine, sym, rng)
		if rapid.Bool().Draw(t, "break") {
			p.Cells[rng.IntN(81)] ^= 1
		}
		q := toSolve(p)
		if got, want := gen.DetectSymmetrySized(p), gen.DetectSymmetry(q); got != want {
			t.Fatalf("DetectSymmetrySized(%v) = %v, DetectSymmetry = %v", p, got, want)
		}
		for _, s := range allSymmetries {
			if got, want := s.HoldsSized(p), s.Holds(q); got != want {
				t.Fatalf("%v.HoldsSized(%v) = %v, Holds = %v", s, p, got, want)
			}
		}
	})
}

func TestDetectSymmetrySized(t *testing.T) {
	rng := newRand(2)
	for _, s := range grid.Shapes {
		for _, sym := range allSymmetries {
			if !sym.ValidFor(s) {
				continue
			}
			t.Run(fmt.Sprintf("N=%d/%v", s.N, sym), func(t *testing.T) {
				for range 20 {
					p := sizedPattern(s, sym, rng)
					got := gen.DetectSymmetrySized(p)
					if !got.HoldsSized(p) {
						t.Fatalf("DetectSymmetrySized(%v) = %v, which does not hold", p, got)
					}
					if sym != gen.NoSymmetry && got == gen.NoSymmetry {
						t.Fatalf("DetectSymmetrySized(%v) = none, want %v or stronger", p, sym)
					}
				}
			})
		}
	}
}

func TestRandomSizedTransform(t *testing.T) {
	for _, s := range grid.Shapes {
		for _, sym := range allSymmetries {
			if !sym.ValidFor(s) {
				continue
			}
			t.Run(fmt.Sprintf("N=%d/%v", s.N, sym), func(t *testing.T) {
				rng, prng := newRand(3), newRand(4)
				for range 100 {
					tr := sym.RandomSizedTransform(s, rng)
					if err := tr.Check(); err != nil {
						t.Fatalf("%v: %v", tr, err)
					}
					if !sym.KeepsSized(tr) {
						t.Fatalf("%v does not keep %v", tr, sym)
					}
					p := sizedPattern(s, sym, prng)
					if q := tr.Apply(p); !sym.HoldsSized(q) {
						t.Fatalf("%v took %v to %v, which is not %v", tr, p, q, sym)
					}
				}
			})
		}
	}
	for _, s := range grid.Shapes {
		got := gen.NoSymmetry.RandomSizedTransform(s, newRand(9))
		if want := grid.RandomTransform(s, newRand(9)); !got.Equal(want) {
			t.Errorf("none: RandomSizedTransform(%v) = %v, want grid.RandomTransform's %v", s, got, want)
		}
	}
}

// geometricGroup lists every transform of shape s without relabelling.
func geometricGroup(s grid.Shape) []grid.Transform {
	rows, cols := linePerms(s.N, s.BoxRows), linePerms(s.N, s.BoxCols)
	var out []grid.Transform
	for _, tp := range []bool{false, true} {
		if tp && !s.Square() {
			continue
		}
		for _, r := range rows {
			for _, c := range cols {
				t := grid.Identity(s)
				t.Transpose, t.Rows, t.Cols = tp, r, c
				out = append(out, t)
			}
		}
	}
	return out
}

// linePerms lists the permutations of n lines that keep groups of g
// together.
func linePerms(n, g int) [][]int {
	var out [][]int
	p := make([]int, n)
	used := make([]bool, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			out = append(out, append([]int(nil), p...))
			return
		}
		for x := range n {
			if used[x] || (i%g != 0 && x/g != p[i-i%g]/g) {
				continue
			}
			used[x], p[i] = true, x
			rec(i + 1)
			used[x] = false
		}
	}
	rec(0)
	return out
}

// TestRandomSizedTransformUniform enumerates the geometric group of the
// small shapes: the transforms that keep a symmetry, found by applying
// each to each orbit, are exactly those KeepsSized accepts and those
// RandomSizedTransform draws, each about equally often.
func TestRandomSizedTransformUniform(t *testing.T) {
	for _, s := range grid.Shapes[:2] {
		group := geometricGroup(s)
		for _, sym := range allSymmetries {
			if !sym.ValidFor(s) || sym == gen.NoSymmetry {
				continue
			}
			t.Run(fmt.Sprintf("N=%d/%v", s.N, sym), func(t *testing.T) {
				// Each orbit as a pattern of its own.
				var orbits []grid.Grid
				done := make([]bool, s.Cells())
				for c := range done {
					if done[c] {
						continue
					}
					g := grid.New(s)
					for x := c; !done[x]; x = sizedImage(s, sym, x) {
						done[x], g.Cells[x] = true, 1
					}
					orbits = append(orbits, g)
				}
				keepers := map[string]bool{}
				for _, tr := range group {
					keeps := true
					for _, o := range orbits {
						if !sym.HoldsSized(tr.Apply(o)) {
							keeps = false
							break
						}
					}
					if got := sym.KeepsSized(tr); got != keeps {
						t.Fatalf("KeepsSized(%v) = %v, want %v", tr, got, keeps)
					}
					if keeps {
						keepers[tr.String()] = true
					}
				}
				draws := 60 * len(keepers)
				counts := map[string]int{}
				rng := newRand(5)
				for range draws {
					tr := sym.RandomSizedTransform(s, rng)
					tr.Values = grid.Identity(s).Values
					if !keepers[tr.String()] {
						t.Fatalf("drew %v, which does not keep %v", tr, sym)
					}
					counts[tr.String()]++
				}
				if len(counts) != len(keepers) {
					t.Fatalf("%d draws hit %d of the %d transforms that keep %v", draws, len(counts), len(keepers), sym)
				}
				for k, n := range counts {
					if n < 20 || n > 110 { // mean 60, sd under 8
						t.Errorf("%v drawn %d times in %d, want about 60", k, n, draws)
					}
				}
				t.Logf("%d of %d transforms keep %v", len(keepers), len(group), sym)
			})
		}
	}
}

// TestKeepsSizedAgrees checks KeepsSized against the 9x9 Keeps on random
// transforms of the whole group and on those drawn to keep a symmetry.
func TestKeepsSizedAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2))
		drawn := rapid.SampledFrom(allSymmetries).Draw(t, "drawn")
		tr := drawn.RandomSizedTransform(grid.Nine, rng)
		old, err := gen.ParseTransform(tr.String())
		if err != nil {
			t.Fatal(err)
		}
		for _, sym := range allSymmetries {
			if got, want := sym.KeepsSized(tr), sym.Keeps(old); got != want {
				t.Fatalf("%v.KeepsSized(%v) = %v, Keeps = %v", sym, tr, got, want)
			}
		}
	})
}

// TestReversalLines enumerates, for each line grouping of the shapes up
// to 12x12, the permutations that keep the groups and commute with the
// reversal, and checks that the sampler draws all of them and no other.
func TestReversalLines(t *testing.T) {
	type lines struct{ n, g int }
	seen := map[lines]bool{}
	for _, s := range grid.Shapes[:5] {
		for _, l := range []lines{{s.N, s.BoxRows}, {s.N, s.BoxCols}} {
			if seen[l] {
				continue
			}
			seen[l] = true
			t.Run(fmt.Sprintf("%d/%d", l.n, l.g), func(t *testing.T) {
				want := map[string]bool{}
				for _, p := range linePerms(l.n, l.g) {
					commutes := true
					for i, x := range p {
						if p[l.n-1-i] != l.n-1-x {
							commutes = false
						}
					}
					if commutes {
						want[fmt.Sprint(p)] = true
					}
				}
				rng := newRand(6)
				got := map[string]int{}
				draws := 40 * len(want)
				for range draws {
					p := gen.ReversalLines(l.n, l.g, rng)
					if !want[fmt.Sprint(p)] {
						t.Fatalf("drew %v, which breaks a group or does not commute with the reversal", p)
					}
					got[fmt.Sprint(p)]++
				}
				if len(got) != len(want) {
					t.Fatalf("%d draws hit %d of %d permutations", draws, len(got), len(want))
				}
				for p, k := range got {
					if k < 10 || k > 80 {
						t.Errorf("%s drawn %d times, want about 40", p, k)
					}
				}
			})
		}
	}
}
