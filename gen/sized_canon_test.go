package gen_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/internal/cputime"
	"sudokubank/solve"
)

// patternGrid returns the full grid of shape s whose cell (r, c) holds
// (BoxCols*(r%BoxRows) + r/BoxRows + c) % N + 1.
func patternGrid(s grid.Shape) grid.Grid {
	g := grid.New(s)
	for r := range s.N {
		for c := range s.N {
			g.Cells[r*s.N+c] = uint8((s.BoxCols*(r%s.BoxRows)+r/s.BoxRows+c)%s.N + 1)
		}
	}
	return g
}

// randomFull returns a random transform of the pattern grid.
func randomFull(s grid.Shape, rng *rand.Rand) grid.Grid {
	return grid.RandomTransform(s, rng).Apply(patternGrid(s))
}

// fillRandom returns a full grid of shape s found by backtracking with a
// random value order, fewest candidates first: unlike randomFull's grids
// it is not a transform of one grid, so most have no automorphism.
func fillRandom(s grid.Shape, rng *rand.Rand) grid.Grid {
	n := s.N
	for {
		g := grid.New(s)
		var rows, cols, boxes [grid.MaxN]uint32
		nodes := 0
		var fill func(left int) bool
		fill = func(left int) bool {
			if left == 0 {
				return true
			}
			if nodes++; nodes > 100_000 {
				return false
			}
			cell, least, cands := -1, n+1, uint32(0)
			for c := range n * n {
				if g.Cells[c] != 0 {
					continue
				}
				m := ^(rows[c/n] | cols[c%n] | boxes[s.Box(c)]) & (1<<(n+1) - 2)
				if k := bits.OnesCount32(m); k < least {
					cell, least, cands = c, k, m
				}
			}
			vals := make([]uint8, 0, least)
			for v := 1; v <= n; v++ {
				if cands&(1<<v) != 0 {
					vals = append(vals, uint8(v))
				}
			}
			rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
			r, c, b := cell/n, cell%n, s.Box(cell)
			for _, v := range vals {
				bit := uint32(1) << v
				g.Cells[cell] = v
				rows[r], cols[c], boxes[b] = rows[r]|bit, cols[c]|bit, boxes[b]|bit
				if fill(left - 1) {
					return true
				}
				rows[r], cols[c], boxes[b] = rows[r]&^bit, cols[c]&^bit, boxes[b]&^bit
			}
			g.Cells[cell] = 0
			return false
		}
		if fill(n * n) {
			return g
		}
	}
}

// randomPuzzle returns a random full grid of shape s with each cell kept
// with probability keep; half of them come from fillRandom (up to 16x16).
func randomPuzzle(s grid.Shape, keep float64, rng *rand.Rand) grid.Grid {
	g := randomFull(s, rng)
	if s.N <= 16 && rng.IntN(2) == 0 {
		g = fillRandom(s, rng)
	}
	for i := range g.Cells {
		if rng.Float64() >= keep {
			g.Cells[i] = 0
		}
	}
	return g
}

// mustSizedCanon returns p's form after checking that its transform is in
// the group and maps p onto the form.
func mustSizedCanon(tb rapid.TB, p grid.Grid) grid.Grid {
	tb.Helper()
	form, tr := gen.SizedCanon(p)
	if err := tr.Check(); err != nil {
		tb.Fatalf("SizedCanon(%s): transform %s: %v", p, tr, err)
	}
	if got := tr.Apply(p); !got.Equal(form) {
		tb.Fatalf("SizedCanon(%s): transform %s gives %s, form is %s", p, tr, got, form)
	}
	return form
}

func TestSizedCanonInvariantProperty(t *testing.T) {
	for _, s := range sizedShapes() {
		t.Run(fmt.Sprint(s.N), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 0))
				keep := rapid.SampledFrom([]float64{0, 0.05, 0.3, 0.45, 0.55, 0.8, 0.95, 1}).Draw(rt, "keep")
				p := randomPuzzle(s, keep, rng)
				form := mustSizedCanon(rt, p)
				if form.Givens() != p.Givens() {
					rt.Fatalf("form %s has %d givens, puzzle %d", form, form.Givens(), p.Givens())
				}
				again := mustSizedCanon(rt, form)
				if !again.Equal(form) {
					rt.Fatalf("the form of form %s is %s", form, again)
				}
				for range 3 {
					q := grid.RandomTransform(s, rng).Apply(p)
					if got := mustSizedCanon(rt, q); !got.Equal(form) {
						rt.Fatalf("form of %s is %s, of its transform %s is %s", p, form, q, got)
					}
				}
			})
		})
	}
}

// symmetricGrids lists grids of shape s with many automorphisms.
func symmetricGrids(s grid.Shape) map[string]grid.Grid {
	one := grid.New(s)
	one.Cells[s.N+1] = 1
	row := grid.New(s)
	diag := grid.New(s)
	for i := range s.N {
		row.Cells[i] = uint8(i + 1)
		diag.Cells[i*s.N+i] = 0
	}
	pat := patternGrid(s)
	band := pat.Clone()
	clear(band.Cells[s.BoxRows*s.N:])
	boxes := pat.Clone()
	for i := range boxes.Cells {
		if s.Box(i)%(s.Stacks()+1) != 0 {
			boxes.Cells[i] = 0
		}
	}
	return map[string]grid.Grid{"Empty": grid.New(s), "OneGiven": one, "FullRow": row,
		"Pattern": pat, "PatternBand": band, "PatternDiagonalBoxes": boxes}
}

func TestSizedCanonSymmetric(t *testing.T) {
	for _, s := range sizedShapes() {
		for name, g := range symmetricGrids(s) {
			t.Run(fmt.Sprintf("%d/%s", s.N, name), func(t *testing.T) {
				form := mustSizedCanon(t, g)
				rng := rand.New(rand.NewPCG(uint64(s.N), 7))
				for range 3 {
					q := grid.RandomTransform(s, rng).Apply(g)
					if got := mustSizedCanon(t, q); !got.Equal(form) {
						t.Fatalf("form %s, of a transform %s", form, got)
					}
				}
			})
		}
	}
}

// bruteSizedCanon is the reference form: the smallest relabelled string
// over every element of the shape's group, enumerated.
func bruteSizedCanon(p grid.Grid) grid.Grid {
	s := p.Shape
	n := s.N
	rowMaps := lineMapsOf(n, s.BoxRows)
	colMaps := lineMapsOf(n, s.BoxCols)
	best := slices.Repeat([]uint8{0xff}, n*n)
	cand := make([]uint8, n*n)
	trs := 1
	if s.Square() {
		trs = 2
	}
	for tr := range trs {
		for _, rows := range rowMaps {
			for _, cols := range colMaps {
				var lab [grid.MaxN + 1]uint8
				next := uint8(1)
				for r := range n {
					for c := range n {
						v := p.Cells[rows[r]*n+cols[c]]
						if tr == 1 {
							v = p.Cells[cols[c]*n+rows[r]]
						}
						if v != 0 {
							if lab[v] == 0 {
								lab[v] = next
								next++
							}
							v = lab[v]
						}
						cand[r*n+c] = v
					}
				}
				if slices.Compare(cand, best) < 0 {
					copy(best, cand)
				}
			}
		}
	}
	return grid.Grid{Shape: s, Cells: best}
}

// lineMapsOf lists the permutations of n lines that keep groups of g
// together.
func lineMapsOf(n, g int) [][]int {
	groups := perms(n / g)
	within := perms(g)
	var out [][]int
	for _, order := range groups {
		// Every choice of the order within each group.
		idx := make([]int, n/g)
		for {
			m := make([]int, n)
			for i, grp := range order {
				for j := range g {
					m[i*g+j] = grp*g + within[idx[i]][j]
				}
			}
			out = append(out, m)
			k := 0
			for k < len(idx) {
				idx[k]++
				if idx[k] < len(within) {
					break
				}
				idx[k] = 0
				k++
			}
			if k == len(idx) {
				break
			}
		}
	}
	return out
}

// perms lists the permutations of 0..n-1.
func perms(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range perms(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := slices.Insert(slices.Clone(p), i, n-1)
			out = append(out, q)
		}
	}
	return out
}

func TestSizedCanonMatchesBruteForce(t *testing.T) {
	tests := []struct {
		n, puzzles int
	}{
		{4, 300},
		{6, 150},
		{8, 2},
	}
	for _, tc := range tests {
		s, _ := grid.ShapeOf(tc.n)
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			puzzles := tc.puzzles
			if testing.Short() && tc.n == 8 {
				puzzles = 1
			}
			rng := rand.New(rand.NewPCG(uint64(tc.n), 26))
			var gs []grid.Grid
			for name, g := range symmetricGrids(s) {
				if tc.n < 8 || name == "PatternBand" {
					gs = append(gs, g)
				}
			}
			for i := range puzzles {
				gs = append(gs, randomPuzzle(s, float64(i%11)/10, rng))
			}
			for _, g := range gs {
				want := bruteSizedCanon(g)
				if got := mustSizedCanon(t, g); !got.Equal(want) {
					t.Fatalf("SizedCanon(%s) = %s, brute force %s", g, got, want)
				}
			}
		})
	}
}

// TestSizedCanonShidoku checks the known count: the 288 full 4x4 grids
// fall into exactly 2 classes under the 4x4 group.
func TestSizedCanonShidoku(t *testing.T) {
	s := grid.Shapes[0]
	var all []grid.Grid
	g := grid.New(s)
	var fill func(c int)
	fill = func(c int) {
		if c == len(g.Cells) {
			all = append(all, g.Clone())
			return
		}
		for v := uint8(1); v <= 4; v++ {
			g.Cells[c] = v
			if g.Check() == nil {
				fill(c + 1)
			}
		}
		g.Cells[c] = 0
	}
	fill(0)
	forms := map[string]int{}
	for _, g := range all {
		forms[mustSizedCanon(t, g).String()]++
	}
	if len(all) != 288 || len(forms) != 2 {
		t.Errorf("%d grids in %d classes %v, want 288 in 2", len(all), len(forms), forms)
	}
}

// TestSizedCanonDistinguishes checks that puzzles that differ a little get
// different forms unless brute force finds them isomorphic.
func TestSizedCanonDistinguishes(t *testing.T) {
	for _, n := range []int{4, 6} {
		s, _ := grid.ShapeOf(n)
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		for range 200 {
			p := randomPuzzle(s, 0.5, rng)
			q := p.Clone()
			// Swap two cells: mostly a given moves to another cell.
			from := rng.IntN(len(q.Cells))
			to := rng.IntN(len(q.Cells))
			q.Cells[to], q.Cells[from] = q.Cells[from], q.Cells[to]
			if q.Check() != nil {
				continue
			}
			same := bruteSizedCanon(p).Equal(bruteSizedCanon(q))
			if got := mustSizedCanon(t, p).Equal(mustSizedCanon(t, q)); got != same {
				t.Fatalf("%s and %s: same form %v, isomorphic %v", p, q, got, same)
			}
		}
	}
}

// TestSizedCanonAgreesWithCanon checks that on 9x9 grids SizedCanon gives
// the very form Canon gives (so the two partition any set alike): on the
// fixtures (17-clue, magictour, minimal puzzles and their grids), on
// automorphic puzzles and on random puzzles, each also transformed.
func TestSizedCanonAgreesWithCanon(t *testing.T) {
	sets := canonSets(t)
	rng := rand.New(rand.NewPCG(9, 9))
	for range 200 {
		sets["automorphic"] = append(sets["automorphic"], canonAutomorphicPuzzle(t, rng))
		var sp solve.Grid
		copy(sp[:], randomPuzzle(grid.Nine, rng.Float64(), rng).Cells)
		sets["random"] = append(sets["random"], sp)
	}
	for name, ps := range sets {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && len(ps) > 300 {
				ps = ps[:300]
			}
			for _, sp := range ps {
				p := grid.Grid{Shape: grid.Nine, Cells: slices.Clone(sp[:])}
				want, _ := gen.Canon(sp)
				for range 2 {
					if got := mustSizedCanon(t, p); !slices.Equal(got.Cells, want[:]) {
						t.Fatalf("SizedCanon(%s) = %s, Canon %v", p, got, want)
					}
					p = grid.RandomTransform(grid.Nine, rng).Apply(p)
				}
			}
		})
	}
}

// TestSizedCanonSeparates checks that the 17-clue fixture, pairwise
// non-isomorphic puzzles, gets pairwise different forms.
func TestSizedCanonSeparates(t *testing.T) {
	seen := map[string]int{}
	for i, sp := range canonSets(t)["17clue"] {
		form := mustSizedCanon(t, grid.Grid{Shape: grid.Nine, Cells: slices.Clone(sp[:])}).String()
		if j, ok := seen[form]; ok {
			t.Fatalf("puzzles %d and %d share the form %s", j, i, form)
		}
		seen[form] = i
	}
}

// TestSizedCanonConcurrent runs SizedCanon from several goroutines on
// every shape (run with -race).
func TestSizedCanonConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	var ps, want []grid.Grid
	for _, s := range grid.Shapes[:6] {
		for range 5 {
			p := randomPuzzle(s, 0.5, rng)
			ps = append(ps, p)
			want = append(want, mustSizedCanon(t, p))
		}
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range ps {
				j := (i + w) % len(ps)
				if got, _ := gen.SizedCanon(ps[j]); !got.Equal(want[j]) {
					t.Errorf("goroutine %d: SizedCanon(%s) = %s, want %s", w, ps[j], got, want[j])
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestSizedCanonInvalid(t *testing.T) {
	g := grid.New(grid.Shapes[0])
	g.Cells[0], g.Cells[1] = 1, 1
	form, tr := gen.SizedCanon(g)
	if !form.Equal(g) || !tr.Equal(grid.Identity(g.Shape)) {
		t.Errorf("SizedCanon(%s) = %s, %s; want the grid and the identity", g, form, tr)
	}
}

// BenchmarkSizedCanon measures SizedCanon on puzzles of 40-55% givens of
// every shape; run with -cpu 1 for the steadier puzzles/cpu-s.
func BenchmarkSizedCanon(b *testing.B) {
	for _, s := range grid.Shapes {
		b.Run(fmt.Sprintf("N=%d", s.N), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(s.N), 1))
			ps := make([]grid.Grid, 64)
			for i := range ps {
				ps[i] = randomPuzzle(s, 0.40+0.15*rng.Float64(), rng)
			}
			var z gen.SizedCanonicalizer
			b.ReportAllocs()
			i := 0
			cpu := cputime.Process()
			for b.Loop() {
				z.Canon(ps[i%len(ps)])
				i++
			}
			cpu = cputime.Process() - cpu
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
			if cpu > 0 {
				b.ReportMetric(float64(b.N)/cpu.Seconds(), "puzzles/cpu-s")
			}
		})
	}
}
