package solve_test

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/grid"
	"sudokubank/solve"
)

var update = flag.Bool("update", false, "rewrite testdata/sized.txt and testdata/minimal.txt from their fixed seeds, and testdata/nodes.txt from the solver")

// sizedFixtures is the file of unique puzzles of the other sizes.
var sizedFixtures = filepath.Join("testdata", "sized.txt")

// MustGrid parses a grid of any shape or fails tb.
func MustGrid(tb testing.TB, line string) grid.Grid {
	tb.Helper()
	g, err := grid.Parse(line)
	if err != nil {
		tb.Fatalf("parse %q: %v", line, err)
	}
	return g
}

// nineToGrid returns the 9x9 g as a grid.Grid.
func nineToGrid(g solve.Grid) grid.Grid {
	out := grid.New(grid.Nine)
	copy(out.Cells, g[:])
	return out
}

// checkSized fails t unless sol is a full valid grid of g's shape that
// keeps g's givens.
func checkSized(t failer, g, sol grid.Grid) {
	t.Helper()
	if sol.Shape != g.Shape || len(sol.Cells) != len(g.Cells) {
		t.Fatalf("%s: solution %s has another shape", g, sol)
	}
	if err := sol.Check(); err != nil {
		t.Fatalf("%s: solution %s: %v", g, sol, err)
	}
	for c, v := range sol.Cells {
		if v == 0 {
			t.Fatalf("%s: solution %s has an empty cell", g, sol)
		}
		if g.Cells[c] != 0 && g.Cells[c] != v {
			t.Fatalf("%s: solution %s changes %s", g, sol, g.Shape.CellName(c))
		}
	}
}

// countPlain counts the solutions of g up to limit with a plain
// backtracker that shares nothing with Sized: first empty cell, values in
// order, checked against the cell's row, column and box.
func countPlain(g grid.Grid, limit int) int {
	if g.Check() != nil {
		return 0
	}
	s, cells := g.Shape, append([]uint8(nil), g.Cells...)
	count := 0
	var rec func(c int)
	rec = func(c int) {
		for c < len(cells) && cells[c] != 0 {
			c++
		}
		if c == len(cells) {
			count++
			return
		}
		r, col, b := s.Row(c), s.Col(c), s.Box(c)
	next:
		for v := uint8(1); int(v) <= s.N && count < limit; v++ {
			for d := range cells {
				if cells[d] == v && (s.Row(d) == r || s.Col(d) == col || s.Box(d) == b) {
					continue next
				}
			}
			cells[c] = v
			rec(c + 1)
			cells[c] = 0
		}
	}
	rec(0)
	return count
}

// sizedGen draws partial grids of shape s: a random solution thinned to
// a random number of givens, or random non-clashing givens, which on the
// larger shapes mostly have no solution. Above 9x9 a draw is kept only
// if counting its solutions to six ends within sizedGenNodes search
// nodes: proving that sparse givens of a 16x16 or 25x25 grid have no
// solution, or few, can take the solver minutes, and rapid draws new
// grids on every run, so without the bound a run's time has no limit.
// After a few draws over the bound the full solution is used.
func sizedGen(s grid.Shape) *rapid.Generator[grid.Grid] {
	return rapid.Custom(func(t *rapid.T) grid.Grid {
		var v solve.Sized
		sol, ok := v.RandomSolution(grid.New(s), newRand(rapid.Uint64().Draw(t, "seed")))
		if !ok {
			t.Fatalf("no random solution of the empty %s grid", s)
		}
		for range 4 {
			g := sizedDraw(t, s, sol)
			if s.N <= 9 {
				return g
			}
			if _, decided := v.CountWithin(g, 6, sizedGenNodes); decided {
				return g
			}
		}
		return sol
	})
}

// sizedGenNodes bounds the search of a grid sizedGen keeps above 9x9.
const sizedGenNodes = 20_000

// sizedDraw draws one grid of sizedGen: sol thinned, or random givens.
func sizedDraw(t *rapid.T, s grid.Shape, sol grid.Grid) grid.Grid {
	cells := s.Cells()
	if rapid.Bool().Draw(t, "fromSolution") {
		g := sol.Clone()
		for _, c := range rapid.SliceOfNDistinct(rapid.IntRange(0, cells-1), 0, cells, rapid.ID[int]).Draw(t, "holes") {
			g.Cells[c] = 0
		}
		return g
	}
	g := grid.New(s)
	n := rapid.IntRange(0, cells/2).Draw(t, "givens")
	for range n {
		c := rapid.IntRange(0, cells-1).Draw(t, "cell")
		g.Cells[c] = uint8(rapid.IntRange(1, s.N).Draw(t, "value"))
		if g.Check() != nil {
			g.Cells[c] = 0
		}
	}
	return g
}

// TestSizedAgreesOnCases: on the 9x9 fixtures Sized counts what the 9x9
// solver counts, and its solutions are solutions.
func TestSizedAgreesOnCases(t *testing.T) {
	var v solve.Sized
	pairs := solve.NewSizedPairs(grid.Nine, true)
	for _, c := range readCases(t) {
		g := nineToGrid(c.g)
		if got := v.Count(g, 2); got != c.want {
			t.Errorf("cases.txt:%d: Sized.Count = %d, want %d", c.line, got, c.want)
		}
		if got := pairs.Count(g, 2); got != c.want {
			t.Errorf("cases.txt:%d: Sized.Count with pairs = %d, want %d", c.line, got, c.want)
		}
		sol, ok := v.Solution(g)
		if ok != (c.want > 0) {
			t.Errorf("cases.txt:%d: Sized.Solution ok = %v, want %v", c.line, ok, c.want > 0)
		} else if ok {
			checkSized(t, g, sol)
		}
	}
}

// TestSizedAgreesWithNineProperty: on random 9x9 partial grids Sized,
// with and without the pair rules, and the 9x9 solver count the same at
// every limit.
func TestSizedAgreesWithNineProperty(t *testing.T) {
	var v solve.Sized
	pairs := solve.NewSizedPairs(grid.Nine, true)
	rapid.Check(t, func(t *rapid.T) {
		g := gridGen().Draw(t, "grid")
		limit := rapid.IntRange(1, 12).Draw(t, "limit")
		want := solve.Count(g, limit)
		if got := v.Count(nineToGrid(g), limit); got != want {
			t.Fatalf("%s: Sized.Count(%d) = %d, Count = %d", g, limit, got, want)
		}
		if got := pairs.Count(nineToGrid(g), limit); got != want {
			t.Fatalf("%s: Sized.Count(%d) with pairs = %d, Count = %d", g, limit, got, want)
		}
	})
}

// TestSizedAgreesWithPlainProperty: on random partial 4x4 and 6x6 grids
// Sized, with and without the pair rules, and a plain backtracker count
// the same.
func TestSizedAgreesWithPlainProperty(t *testing.T) {
	for _, s := range []grid.Shape{{N: 4, BoxRows: 2, BoxCols: 2}, {N: 6, BoxRows: 2, BoxCols: 3}} {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var v solve.Sized
			pairs := solve.NewSizedPairs(s, true)
			rapid.Check(t, func(t *rapid.T) {
				g := sizedGen(s).Draw(t, "grid")
				limit := rapid.IntRange(1, 30).Draw(t, "limit")
				want := countPlain(g, limit)
				if got := v.Count(g, limit); got != want {
					t.Fatalf("%s: Sized.Count(%d) = %d, backtracker = %d", g, limit, got, want)
				}
				if got := pairs.Count(g, limit); got != want {
					t.Fatalf("%s: Sized.Count(%d) with pairs = %d, backtracker = %d", g, limit, got, want)
				}
			})
		})
	}
}

// TestSizedPairsProperty: on every shape, looking for naked and hidden
// pairs changes no count (Sized looks for them from 16x16 up only).
func TestSizedPairsProperty(t *testing.T) {
	for _, s := range grid.Shapes {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			with, without := solve.NewSizedPairs(s, true), solve.NewSizedPairs(s, false)
			rapid.Check(t, func(t *rapid.T) {
				g := sizedGen(s).Draw(t, "grid")
				limit := rapid.IntRange(1, 5).Draw(t, "limit")
				if got, want := with.Count(g, limit), without.Count(g, limit); got != want {
					t.Fatalf("%s: Count(%d) with pairs = %d, without = %d", g, limit, got, want)
				}
			})
		})
	}
}

// TestSizedSolutionProperty: on every shape, a solution Sized finds is a
// full valid grid that keeps the givens, and Solution finds one exactly
// when Count does.
func TestSizedSolutionProperty(t *testing.T) {
	for _, s := range grid.Shapes {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var v solve.Sized
			rapid.Check(t, func(t *rapid.T) {
				g := sizedGen(s).Draw(t, "grid")
				n := v.Count(g, 2)
				sol, ok := v.Solution(g)
				if ok != (n > 0) {
					t.Fatalf("%s: Solution ok = %v, Count = %d", g, ok, n)
				}
				if ok {
					checkSized(t, g, sol)
				}
				seed := rapid.Uint64().Draw(t, "seed")
				sol, ok = v.RandomSolution(g, newRand(seed))
				if ok != (n > 0) {
					t.Fatalf("%s: RandomSolution ok = %v, Count = %d", g, ok, n)
				}
				if ok {
					checkSized(t, g, sol)
				}
			})
		})
	}
}

// TestSizedHasOtherSolutionProperty: HasOtherSolution finds another
// solution exactly when one of the other values at the cell leaves a
// solution, on every shape, and leaves its puzzle as it was.
func TestSizedHasOtherSolutionProperty(t *testing.T) {
	for _, s := range grid.Shapes {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var v, w solve.Sized
			rapid.Check(t, func(t *rapid.T) {
				sol, g := drawHoled(t, &v, s)
				if s.N >= 16 && g.Givens() < s.Cells()/2 {
					return // the oracle's counts get slow
				}
				c := rapid.IntRange(0, s.Cells()-1).Draw(t, "cell")
				want := false
				h := g.Clone()
				for x := uint8(1); int(x) <= s.N && !want; x++ {
					if x != sol.Cells[c] {
						h.Cells[c] = x
						want = w.Count(h, 1) > 0
					}
				}
				before := g.Clone()
				if got := v.HasOtherSolution(g, c, sol); got != want {
					t.Fatalf("%s, %s, solution %s: HasOtherSolution = %v, want %v", g, s.CellName(c), sol, got, want)
				}
				if !g.Equal(before) {
					t.Fatalf("HasOtherSolution changed its puzzle %s to %s", before, g)
				}
			})
		})
	}
}

// TestSizedRandomSolution: from the empty grid of every shape,
// RandomSolution makes a full valid grid, the same one and with the same
// node count for the same seed, and other grids for other seeds.
func TestSizedRandomSolution(t *testing.T) {
	for _, s := range grid.Shapes {
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var v, w solve.Sized
			empty := grid.New(s)
			seen := map[string]bool{}
			for seed := range uint64(8) {
				a, ok := v.RandomSolution(empty, newRand(seed))
				if !ok {
					t.Fatalf("seed %d: no solution", seed)
				}
				checkSized(t, empty, a)
				b, _ := w.RandomSolution(empty, newRand(seed))
				if !a.Equal(b) || v.Nodes() != w.Nodes() {
					t.Fatalf("seed %d: %s (%d nodes), then %s (%d nodes)", seed, a, v.Nodes(), b, w.Nodes())
				}
				seen[a.String()] = true
			}
			if s.N > 4 && len(seen) < 8 {
				t.Errorf("8 seeds gave %d grids", len(seen))
			}
		})
	}
}

// TestSizedInvalid: grids whose givens repeat, whose values are out of
// range or whose shape or length is wrong have no solution.
func TestSizedInvalid(t *testing.T) {
	sixteen, _ := grid.ShapeOf(16)
	repeat := grid.New(sixteen)
	repeat.Cells[0], repeat.Cells[192] = 5, 5 // column 1
	box := grid.New(sixteen)
	box.Cells[0], box.Cells[17] = 9, 9
	high := grid.New(sixteen)
	high.Cells[3] = 17
	short := grid.Grid{Shape: sixteen, Cells: make([]uint8, 255)}
	odd := grid.Grid{Shape: grid.Shape{N: 10, BoxRows: 2, BoxCols: 5}, Cells: make([]uint8, 100)}
	tests := []struct {
		name string
		g    grid.Grid
	}{
		{"RepeatInColumn", repeat},
		{"RepeatInBox", box},
		{"ValueAboveN", high},
		{"ShortCells", short},
		{"UnknownShape", odd},
		{"ZeroGrid", grid.Grid{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v solve.Sized
			if n := v.Count(tt.g, 2); n != 0 {
				t.Errorf("Count = %d, want 0", n)
			}
			if _, ok := v.Solution(tt.g); ok {
				t.Error("Solution found one")
			}
			if _, ok := v.RandomSolution(tt.g, newRand(1)); ok {
				t.Error("RandomSolution found one")
			}
		})
	}
	var v solve.Sized
	if n := v.Count(grid.New(sixteen), 0); n != 0 {
		t.Errorf("Count with limit 0 = %d", n)
	}
}

// TestSizedReuse: one Sized switching between shapes counts as fresh
// ones do.
func TestSizedReuse(t *testing.T) {
	var shared solve.Sized
	for round := range 2 {
		for _, p := range readSized(t) {
			var fresh solve.Sized
			if got, want := shared.Count(p, 2), fresh.Count(p, 2); got != want || shared.Nodes() != fresh.Nodes() {
				t.Fatalf("round %d, %s: shared %d (%d nodes), fresh %d (%d nodes)", round, p, got, shared.Nodes(), want, fresh.Nodes())
			}
		}
	}
}

// TestSizedFixtures: every puzzle of testdata/sized.txt has one
// solution, with or without the pair rules, and those up to 16x16 are
// minimal: without any one of their givens they have more.
func TestSizedFixtures(t *testing.T) {
	if *update {
		writeSized(t)
	}
	var v solve.Sized
	for _, p := range readSized(t) {
		if n := v.Count(p, 2); n != 1 {
			t.Fatalf("%s: Count = %d, want 1", p, n)
		}
		for _, on := range []bool{false, true} {
			if n := solve.NewSizedPairs(p.Shape, on).Count(p, 2); n != 1 {
				t.Fatalf("%s: Count with pairs %v = %d, want 1", p, on, n)
			}
		}
		sol, _ := v.Solution(p)
		checkSized(t, p, sol)
		if p.Shape.N > 16 {
			continue
		}
		for c, x := range p.Cells {
			if x == 0 {
				continue
			}
			if !v.HasOtherSolution(p, c, sol) {
				t.Fatalf("%s without %s: HasOtherSolution = false", p, p.Shape.CellName(c))
			}
			p.Cells[c] = 0
			if n := v.Count(p, 2); n != 2 {
				t.Fatalf("%s without %s: Count = %d, want 2", p, p.Shape.CellName(c), n)
			}
			p.Cells[c] = x
		}
	}
}

// digSized empties the cells of a copy of sol in a random order, each
// while the puzzle keeps one solution (HasOtherSolution, the dig-hole
// check) and has more than floor givens.
func digSized(v *solve.Sized, sol grid.Grid, floor int, rng *rand.Rand) grid.Grid {
	p, givens := sol.Clone(), sol.Givens()
	for _, c := range rng.Perm(len(p.Cells)) {
		if givens <= floor {
			break
		}
		x := p.Cells[c]
		p.Cells[c] = 0
		if v.HasOtherSolution(p, c, sol) {
			p.Cells[c] = x
		} else {
			givens--
		}
	}
	return p
}

// readSized reads testdata/sized.txt: one puzzle a line, '#' comments.
func readSized(tb testing.TB) []grid.Grid {
	tb.Helper()
	f, err := os.Open(sizedFixtures)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var gs []grid.Grid
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<16)
	for sc.Scan() {
		if s := sc.Text(); s != "" && s[0] != '#' {
			gs = append(gs, MustGrid(tb, s))
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return gs
}

// sizedFixtureSizes are the shapes of testdata/sized.txt, how many
// puzzles each has and the fewest givens a dig stops at: digging 25x25
// grids down to minimal puzzles takes too long for a fixture.
var sizedFixtureSizes = []struct{ n, count, floor int }{{6, 3, 0}, {8, 3, 0}, {12, 3, 0}, {16, 3, 0}, {25, 1, 400}}

// writeSized rewrites testdata/sized.txt: for each size, minimal unique
// puzzles dug greedily from random solutions of fixed seeds.
func writeSized(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Unique puzzles of the other sizes, dug greedily from Sized.RandomSolution: minimal up to\n# 16x16, down to 400 givens at 25x25")
	b.WriteString(" (go test ./solve -run TestSizedFixtures -update\n# rewrites this file).\n")
	var v solve.Sized
	for _, fs := range sizedFixtureSizes {
		s, err := grid.ShapeOf(fs.n)
		if err != nil {
			t.Fatal(err)
		}
		for i := range fs.count {
			rng := newRand(uint64(100*fs.n + i))
			sol, ok := v.RandomSolution(grid.New(s), rng)
			if !ok {
				t.Fatalf("%s: no random solution", s)
			}
			b.WriteString(digSized(&v, sol, fs.floor, rng).String())
			b.WriteByte('\n')
		}
	}
	if err := os.WriteFile(sizedFixtures, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sizedBenchShapes are the shapes the Sized benchmarks measure.
var sizedBenchShapes = []int{6, 8, 12, 16, 25}

// BenchmarkSizedCount counts to 2 the unique fixtures of each size
// ("unique") and the same puzzles each without one given ("less1"),
// which have more solutions: the uniqueness check of a dig's rejected
// removal.
func BenchmarkSizedCount(b *testing.B) {
	all := readSized(b)
	for _, n := range sizedBenchShapes {
		var unique, less1 []grid.Grid
		for _, p := range all {
			if p.Shape.N != n {
				continue
			}
			unique = append(unique, p)
			for c, x := range p.Cells {
				if x != 0 {
					q := p.Clone()
					q.Cells[c] = 0
					less1 = append(less1, q)
				}
			}
		}
		for _, set := range []struct {
			name string
			gs   []grid.Grid
		}{{"unique", unique}, {"less1", less1}} {
			b.Run(fmt.Sprintf("N=%d/%s", n, set.name), func(b *testing.B) {
				var v solve.Sized
				b.ReportAllocs()
				cpu := startCPU(b)
				for i := 0; i < b.N; i++ {
					v.Count(set.gs[i%len(set.gs)], 2)
				}
				cpu.report(b, "puzzles")
			})
		}
	}
}

// BenchmarkSizedRandomSolution fills the empty grid of each size.
func BenchmarkSizedRandomSolution(b *testing.B) {
	for _, n := range sizedBenchShapes {
		s, _ := grid.ShapeOf(n)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var v solve.Sized
			empty := grid.New(s)
			rng := newRand(1)
			b.ReportAllocs()
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				v.RandomSolution(empty, rng)
			}
			cpu.report(b, "grids")
		})
	}
}

// BenchmarkSizedDig digs a random solution of each size greedily down
// to a minimal puzzle (25x25 stops at 400 givens), one HasOtherSolution
// per cell: the solver's share of a dig.
func BenchmarkSizedDig(b *testing.B) {
	for _, fs := range sizedFixtureSizes {
		s, _ := grid.ShapeOf(fs.n)
		b.Run(fmt.Sprintf("N=%d", fs.n), func(b *testing.B) {
			var v solve.Sized
			rng := newRand(2)
			b.ReportAllocs()
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				sol, _ := v.RandomSolution(grid.New(s), rng)
				digSized(&v, sol, fs.floor, rng)
			}
			cpu.report(b, "digs")
		})
	}
}

// FuzzSizedCount: on 4x4 and 6x6 grids of any bytes, repeated givens and
// values above N included, Sized counts what the plain backtracker
// counts, and never panics.
func FuzzSizedCount(f *testing.F) {
	f.Add([]byte("1..2.3..4..1...."), uint8(2), false)
	f.Add([]byte("123456"), uint8(5), true)
	f.Add([]byte{1, 1, 9, 200}, uint8(3), true)
	f.Fuzz(func(t *testing.T, b []byte, limit uint8, six bool) {
		s := grid.Shape{N: 4, BoxRows: 2, BoxCols: 2}
		if six {
			s = grid.Shape{N: 6, BoxRows: 2, BoxCols: 3}
		}
		g := grid.New(s)
		for i := 0; i < len(b) && i < len(g.Cells); i++ {
			g.Cells[i] = b[i] % 8
		}
		lim := int(limit % 20)
		var v solve.Sized
		got, want := v.Count(g, lim), 0
		if g.Check() == nil && lim > 0 {
			want = countPlain(g, lim)
		}
		if got != want {
			t.Fatalf("%v: Count(%d) = %d, backtracker = %d", g.Cells, lim, got, want)
		}
	})
}

// TestSizedHasOtherSolutionWithin: a budgeted check that is decided says
// what HasOtherSolution says, one with no budget is always decided, and
// the search never runs past its budget.
func TestSizedHasOtherSolutionWithin(t *testing.T) {
	for _, s := range grid.Shapes {
		if s.N < 6 || s.N > 12 {
			continue
		}
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var v, w solve.Sized
			rapid.Check(t, func(t *rapid.T) {
				sol, g := drawHoled(t, &v, s)
				c := rapid.IntRange(0, s.Cells()-1).Draw(t, "cell")
				budget := rapid.IntRange(-1, 50).Draw(t, "budget")
				want := w.HasOtherSolution(g, c, sol)
				got, decided := v.HasOtherSolutionWithin(g, c, sol, budget)
				if decided && got != want {
					t.Fatalf("%s, %s, budget %d: HasOtherSolutionWithin = %v, decided; HasOtherSolution = %v", g, s.CellName(c), budget, got, want)
				}
				if !decided && (budget < 0 || got) {
					t.Fatalf("%s, %s, budget %d: undecided, other %v", g, s.CellName(c), budget, got)
				}
				if budget >= 0 && v.Nodes() > budget+1 {
					t.Fatalf("%s, %s: %d nodes, budget %d", g, s.CellName(c), v.Nodes(), budget)
				}
			})
		})
	}
}

// TestSizedCountWithin: a budgeted count that is decided is Count's, one
// with no budget is always decided, an undecided one found fewer than
// limit solutions, and the search never runs past its budget.
func TestSizedCountWithin(t *testing.T) {
	for _, s := range grid.Shapes {
		if s.N < 6 || s.N > 12 {
			continue
		}
		t.Run(fmt.Sprintf("N=%d", s.N), func(t *testing.T) {
			var v, w solve.Sized
			rapid.Check(t, func(t *rapid.T) {
				_, g := drawHoled(t, &v, s)
				limit := rapid.IntRange(1, 3).Draw(t, "limit")
				budget := rapid.IntRange(-1, 50).Draw(t, "budget")
				want := w.Count(g, limit)
				got, decided := v.CountWithin(g, limit, budget)
				if decided && got != want {
					t.Fatalf("%s, budget %d: CountWithin(%d) = %d, decided; Count = %d", g, budget, limit, got, want)
				}
				if !decided && (budget < 0 || got >= limit) {
					t.Fatalf("%s, budget %d: undecided after %d solutions of %d", g, budget, got, limit)
				}
				if budget >= 0 && v.Nodes() > budget+1 {
					t.Fatalf("%s: %d nodes, budget %d", g, v.Nodes(), budget)
				}
			})
		})
	}
}

// drawHoled draws a random solution of shape s and a puzzle made of it by
// emptying any set of cells: the puzzle may have any number of solutions.
func drawHoled(t *rapid.T, v *solve.Sized, s grid.Shape) (sol, g grid.Grid) {
	sol, _ = v.RandomSolution(grid.New(s), newRand(rapid.Uint64().Draw(t, "seed")))
	g = sol.Clone()
	for _, c := range rapid.SliceOfNDistinct(rapid.IntRange(0, s.Cells()-1), 0, s.Cells(), rapid.ID[int]).Draw(t, "holes") {
		g.Cells[c] = 0
	}
	return sol, g
}
