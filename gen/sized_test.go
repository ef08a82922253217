package gen_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/solve"
)

// sizedShapes returns the shapes the sized tests dig: all of grid.Shapes,
// without 25x25 under -short.
func sizedShapes() []grid.Shape {
	if testing.Short() {
		return grid.Shapes[:len(grid.Shapes)-1]
	}
	return grid.Shapes[:]
}

// floorGivens returns the fewest givens the tests dig shape s down to: 0
// (no bound) up to 12x12; beyond, where counting the solutions of
// sparser grids takes the solver seconds, half the cells of 16x16 and two
// thirds of 25x25.
func floorGivens(s grid.Shape) int {
	switch {
	case s.N <= 12:
		return 0
	case s.N <= 16:
		return s.Cells() / 2
	}
	return s.Cells() * 2 / 3
}

// deepProfile returns the profile that digs shape s as deep as a test can
// afford: to a minimal puzzle, or to just above floorGivens.
func deepProfile(s grid.Shape, sym gen.Symmetry) gen.Profile {
	lo := floorGivens(s)
	if lo == 0 {
		return gen.MinimalProfile(sym)
	}
	return gen.GivensProfile(lo, lo+s.N, sym)
}

// sizedProfiles returns profiles for shape s that exercise every feature
// of a dig: each valid symmetry dug deep, a givens bound that a dig
// reaches, a bound per row and column, and each fixed sequence.
func sizedProfiles(s grid.Shape) []gen.Profile {
	var ps []gen.Profile
	for _, sym := range allSymmetries {
		if sym.ValidFor(s) {
			ps = append(ps, deepProfile(s, sym))
		}
	}
	c := s.Cells()
	lo := max(c/3, floorGivens(s))
	hi := max(c*6/10, lo+s.N)
	ps = append(ps,
		gen.GivensProfile(hi, hi, gen.NoSymmetry),
		gen.GivensProfile(hi-s.N, hi, gen.Rot180),
		gen.Profile{Name: "rowcol", Sequence: gen.JumpOne, MinGivens: lo, MaxGivens: hi, RowColMin: s.N / 3},
	)
	if s.N > 16 {
		// Digging 25x25 grids row by row leaves the top rows so sparse
		// that the counts take the solver tens of seconds.
		return ps
	}
	left := deepProfile(s, gen.Flip)
	left.Name, left.Sequence = "left-to-right", gen.LeftToRight
	return append(ps, left,
		gen.Profile{Name: "wandering", Sequence: gen.WanderingS, MinGivens: lo, MaxGivens: hi, RowColMin: 1, Symmetry: gen.Mirror})
}

// mustSizedPuzzle fails unless pz is a correct dig of profile p from
// solution.
func mustSizedPuzzle(tb fataler, pz gen.SizedPuzzle, p gen.Profile, solution grid.Grid) {
	tb.Helper()
	if !pz.Solution.Equal(solution) {
		tb.Fatalf("%s: Solution = %v, want %v", p.Name, pz.Solution, solution)
	}
	if pz.Grid.Shape != solution.Shape || len(pz.Grid.Cells) != len(solution.Cells) {
		tb.Fatalf("%s: puzzle of shape %v with %d cells, want %v", p.Name, pz.Grid.Shape, len(pz.Grid.Cells), solution.Shape)
	}
	for c, v := range pz.Grid.Cells {
		if v != 0 && v != solution.Cells[c] {
			tb.Fatalf("%s: %v: cell %d is %d, the solution has %d", p.Name, pz.Grid, c, v, solution.Cells[c])
		}
	}
	var z solve.Sized
	if n := z.Count(pz.Grid, 2); n != 1 {
		tb.Fatalf("%s: %v has %d solutions, want 1", p.Name, pz.Grid, n)
	}
	if pz.Symmetry != p.Symmetry || !p.Symmetry.HoldsSized(pz.Grid) {
		tb.Fatalf("%s: %v: Symmetry %v, holds %v, want %v holding", p.Name, pz.Grid, pz.Symmetry, p.Symmetry.HoldsSized(pz.Grid), p.Symmetry)
	}
	if !p.Minimal {
		if n := pz.Grid.Givens(); n < p.MinGivens {
			tb.Fatalf("%s: %v has %d givens, want at least %d", p.Name, pz.Grid, n, p.MinGivens)
		}
		if n := gen.MinRowColGivensSized(pz.Grid); n != minRowCol(pz.Grid) || n < p.RowColMin {
			tb.Fatalf("%s: %v has a row or column with %d givens, want at least %d", p.Name, pz.Grid, n, p.RowColMin)
		}
	}
	if got, want := pz.Minimal, refMinimalSized(pz.Grid); got != want {
		tb.Fatalf("%s: %v: Minimal = %v, want %v", p.Name, pz.Grid, got, want)
	}
	if p.Minimal && p.Symmetry == gen.NoSymmetry && !pz.Minimal {
		tb.Fatalf("%s: %v is not minimal", p.Name, pz.Grid)
	}
}

// minRowCol returns the fewest givens of any row or column of g.
func minRowCol(g grid.Grid) int {
	n := g.Shape.N
	rows, cols := make([]int, n), make([]int, n)
	for c, v := range g.Cells {
		if v != 0 {
			rows[c/n]++
			cols[c%n]++
		}
	}
	return min(slices.Min(rows), slices.Min(cols))
}

func TestMinRowColGivensSized(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
		p := sizedPattern(grid.Nine, gen.NoSymmetry, rng)
		if got, want := gen.MinRowColGivensSized(p), gen.MinRowColGivens(toSolve(p)); got != want {
			t.Fatalf("MinRowColGivensSized(%v) = %d, MinRowColGivens = %d", p, got, want)
		}
	})
	for _, s := range grid.Shapes {
		if got := gen.MinRowColGivensSized(grid.New(s)); got != 0 {
			t.Errorf("MinRowColGivensSized(empty %v) = %d, want 0", s, got)
		}
		if got := gen.MinRowColGivensSized(gen.SizedTerminal(s, newRand(1))); got != s.N {
			t.Errorf("MinRowColGivensSized(terminal %v) = %d, want %d", s, got, s.N)
		}
	}
}

// refMinimalSized decides minimality the slow, obvious way: every given
// removed in turn leaves a second solution.
func refMinimalSized(p grid.Grid) bool {
	var z solve.Sized
	q := p.Clone()
	for c, v := range p.Cells {
		if v == 0 {
			continue
		}
		q.Cells[c] = 0
		n := z.Count(q, 2)
		q.Cells[c] = v
		if n == 1 {
			return false
		}
	}
	return true
}

func TestSizedDig(t *testing.T) {
	for _, s := range sizedShapes() {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			perProfile := 4
			if testing.Short() || s.N >= 16 {
				perProfile = 1
			}
			var d gen.SizedDigger
			rng := newRand(uint64(s.N))
			for _, p := range sizedProfiles(s) {
				start := time.Now()
				var givens []int
				for range perProfile {
					solution := gen.SizedTerminal(s, rng)
					pz, err := d.DigContext(context.Background(), solution, p, rng)
					if err != nil {
						t.Fatalf("%s: %v", p.Name, err)
					}
					mustSizedPuzzle(t, pz, p, solution)
					givens = append(givens, pz.Grid.Givens())
					if p.MinGivens == p.MaxGivens && p.MinGivens > 0 && pz.Grid.Givens() != p.MinGivens {
						t.Errorf("%s: %d givens, want %d", p.Name, pz.Grid.Givens(), p.MinGivens)
					}
				}
				t.Logf("%s: givens %v (%v)", p.Name, givens, time.Since(start))
			}
		})
	}
}

// TestSizedDigReachesBound digs with a givens range well above what
// minimal digs reach, so that every dig must stop within it (with a
// symmetry, at most one orbit short of its bound's room).
func TestSizedDigReachesBound(t *testing.T) {
	for _, s := range sizedShapes() {
		for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Mirror} {
			lo := max(s.Cells()/2, floorGivens(s))
			hi := lo + s.Cells()/5
			p := gen.GivensProfile(lo, hi, sym)
			t.Run(fmt.Sprintf("N=%d/%s", s.N, p.Name), func(t *testing.T) {
				var d gen.SizedDigger
				rng := newRand(11)
				for range 3 {
					pz, err := d.GenerateContext(context.Background(), s, p, rng)
					if err != nil {
						t.Fatal(err)
					}
					if n := pz.Grid.Givens(); n < lo || n > hi+1 {
						t.Errorf("%v has %d givens, want %d-%d", pz.Grid, n, lo, hi)
					}
				}
			})
		}
	}
}

func TestSizedDigDeterministic(t *testing.T) {
	var shared gen.SizedDigger // reused across shapes: no state may leak
	for _, s := range sizedShapes() {
		for _, p := range []gen.Profile{deepProfile(s, gen.Rot180), deepProfile(s, gen.NoSymmetry)} {
			t.Run(fmt.Sprintf("N=%d/%s", s.N, p.Name), func(t *testing.T) {
				var fresh gen.SizedDigger
				a, err := fresh.GenerateContext(context.Background(), s, p, newRand(5))
				if err != nil {
					t.Fatal(err)
				}
				b, err := shared.GenerateContext(context.Background(), s, p, newRand(5))
				if err != nil {
					t.Fatal(err)
				}
				if !a.Grid.Equal(b.Grid) || !a.Solution.Equal(b.Solution) || a.Minimal != b.Minimal {
					t.Errorf("seed 5 gave %v and %v", a.Grid, b.Grid)
				}
				c, err := fresh.GenerateContext(context.Background(), s, p, newRand(6))
				if err != nil {
					t.Fatal(err)
				}
				if c.Solution.Equal(a.Solution) {
					t.Errorf("seeds 5 and 6 gave the same solution %v", a.Solution)
				}
			})
		}
	}
}

func TestSizedDigContext(t *testing.T) {
	for _, s := range sizedShapes() {
		p := deepProfile(s, gen.NoSymmetry)
		tests := []struct {
			name string
			ctx  context.Context
			err  error
		}{
			{"Live", context.Background(), nil},
			{"CancelledBefore", &stopAfter{Context: context.Background(), n: 1}, context.Canceled},
			{"CancelledMidway", &stopAfter{Context: context.Background(), n: 2}, context.Canceled},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("N=%d/%s", s.N, tt.name), func(t *testing.T) {
				var d gen.SizedDigger
				got, err := d.GenerateContext(tt.ctx, s, p, newRand(7))
				if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
					t.Fatalf("GenerateContext error = %v, want %v", err, tt.err)
				}
				if tt.err != nil {
					return
				}
				want, err := new(gen.SizedDigger).GenerateContext(context.Background(), s, p, newRand(7))
				if err != nil || !got.Grid.Equal(want.Grid) {
					t.Errorf("GenerateContext = %v, want %v (%v)", got.Grid, want.Grid, err)
				}
			})
		}
	}
}

func TestSizedDigErrors(t *testing.T) {
	six := grid.Shapes[1]
	sol := gen.SizedTerminal(six, newRand(1))
	incomplete := sol.Clone()
	incomplete.Cells[7] = 0
	repeated := sol.Clone()
	repeated.Cells[0], repeated.Cells[1] = repeated.Cells[1], repeated.Cells[0]
	tests := []struct {
		name     string
		solution grid.Grid
		p        gen.Profile
		want     string
	}{
		{"Rot90On6x6", sol, gen.MinimalProfile(gen.Rot90), "needs square boxes"},
		{"DiagonalOn6x6", sol, gen.MinimalProfile(gen.Diagonal), "needs square boxes"},
		{"TooManyGivens", sol, gen.GivensProfile(10, 37, gen.NoSymmetry), "not within 0-36"},
		{"RowColTooHigh", sol, gen.Profile{Name: "x", MaxGivens: 36, RowColMin: 7}, "not within 0-6"},
		{"UnknownSymmetry", sol, gen.Profile{Name: "x", Symmetry: 99, Minimal: true}, "unknown symmetry"},
		{"Incomplete", incomplete, gen.MinimalProfile(gen.NoSymmetry), "not a complete grid"},
		{"Repeated", repeated, gen.MinimalProfile(gen.NoSymmetry), "not valid"},
		{"NoShape", grid.Grid{Shape: grid.Shape{N: 5, BoxRows: 1, BoxCols: 5}, Cells: make([]uint8, 25)}, gen.MinimalProfile(gen.NoSymmetry), "no such grid size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d gen.SizedDigger
			_, err := d.DigContext(context.Background(), tt.solution, tt.p, newRand(1))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DigContext error = %v, want one saying %q", err, tt.want)
			}
		})
	}
	var d gen.SizedDigger
	if _, err := d.GenerateContext(context.Background(), six, gen.MinimalProfile(gen.Antidiagonal), newRand(1)); err == nil {
		t.Error("GenerateContext of an antidiagonal 6x6 succeeded, want an error")
	}
}

// TestSizedIsMinimal digs minimal puzzles up to 12x12, and 16x16 outside
// -short, where a minimal dig takes the solver a fraction of a second to
// seconds.
func TestSizedIsMinimal(t *testing.T) {
	for _, s := range sizedShapes() {
		if s.N > 16 || (s.N > 12 && testing.Short()) {
			continue
		}
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var d gen.SizedDigger
			pz, err := d.GenerateContext(context.Background(), s, gen.MinimalProfile(gen.NoSymmetry), newRand(3))
			if err != nil {
				t.Fatal(err)
			}
			if !d.IsMinimal(pz.Grid) || !pz.Minimal || !refMinimalSized(pz.Grid) {
				t.Fatalf("%v: IsMinimal %v, Minimal %v, counted minimal %v; want all true", pz.Grid, d.IsMinimal(pz.Grid), pz.Minimal, refMinimalSized(pz.Grid))
			}
			// One more given from the solution: unique, not minimal.
			more := pz.Grid.Clone()
			for c, v := range more.Cells {
				if v == 0 {
					more.Cells[c] = pz.Solution.Cells[c]
					break
				}
			}
			if d.IsMinimal(more) {
				t.Errorf("IsMinimal(%v) = true with an extra given", more)
			}
			// One given fewer: two solutions.
			fewer := pz.Grid.Clone()
			for c, v := range fewer.Cells {
				if v != 0 {
					fewer.Cells[c] = 0
					break
				}
			}
			if d.IsMinimal(fewer) {
				t.Errorf("IsMinimal(%v) = true with two solutions", fewer)
			}
			if d.IsMinimal(grid.New(s)) {
				t.Error("IsMinimal(empty grid) = true")
			}
		})
	}
}

func TestSizedTerminal(t *testing.T) {
	for _, s := range grid.Shapes {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			seen := map[string]bool{}
			for seed := range uint64(4) {
				g := gen.SizedTerminal(s, newRand(seed))
				if g.Shape != s || g.Givens() != s.Cells() || g.Check() != nil {
					t.Fatalf("seed %d: %v is not a terminal %v grid (%v)", seed, g, s, g.Check())
				}
				if again := gen.SizedTerminal(s, newRand(seed)); !again.Equal(g) {
					t.Errorf("seed %d gave %v, then %v", seed, g, again)
				}
				seen[g.String()] = true
			}
			if len(seen) < 3 {
				t.Errorf("4 seeds gave %d different grids", len(seen))
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("SizedTerminal of no shape did not panic")
		}
	}()
	gen.SizedTerminal(grid.Shape{N: 10, BoxRows: 2, BoxCols: 5}, newRand(1))
}

// BenchmarkSizedDig digs one puzzle in a random order from a terminal grid
// made outside the timing: down to a minimal puzzle up to 12x12, to half
// the cells of 16x16 (deepProfile).
func BenchmarkSizedDig(b *testing.B) {
	for _, s := range grid.Shapes {
		if s.N == 9 || s.N == 25 {
			continue
		}
		b.Run(fmt.Sprintf("N=%d", s.N), func(b *testing.B) {
			rng := newRand(1)
			sols := make([]grid.Grid, 16)
			for i := range sols {
				sols[i] = gen.SizedTerminal(s, rng)
			}
			var d gen.SizedDigger
			p := deepProfile(s, gen.NoSymmetry)
			for i := 0; b.Loop(); i++ {
				if _, err := d.DigContext(context.Background(), sols[i%len(sols)], p, rng); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
		})
	}
}

// BenchmarkSizedTerminal makes terminal grids of each shape.
func BenchmarkSizedTerminal(b *testing.B) {
	for _, s := range grid.Shapes {
		b.Run(fmt.Sprintf("N=%d", s.N), func(b *testing.B) {
			rng := newRand(1)
			for b.Loop() {
				gen.SizedTerminal(s, rng)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "grids/s")
		})
	}
}

// TestSizedDigShortcuts checks that digs settle checks all three ways: by
// the givens forcing the dug value, by an emptied swap set, and by a
// search; the other tests check that the puzzles are right.
func TestSizedDigShortcuts(t *testing.T) {
	for _, s := range sizedShapes() {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var d gen.SizedDigger
			rng := newRand(8)
			for range 3 {
				if _, err := d.GenerateContext(context.Background(), s, deepProfile(s, gen.NoSymmetry), rng); err != nil {
					t.Fatal(err)
				}
			}
			forced, swaps, searched := gen.SizedDiggerChecks(&d)
			if forced == 0 || swaps == 0 || searched == 0 {
				t.Errorf("checks: %d forced, %d by swap sets, %d searched; want each above 0", forced, swaps, searched)
			}
		})
	}
}
