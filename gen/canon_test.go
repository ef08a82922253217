package gen_test

import (
	"bufio"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"sudokubank/gen"
	"sudokubank/internal/cputime"
	"sudokubank/solve"
)

// lineMaps lists the 1,296 band-preserving permutations of nine lines.
var lineMaps = func() (out [][9]uint8) {
	p3 := [6][3]uint8{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, b := range p3 {
		for _, x := range p3 {
			for _, y := range p3 {
				for _, z := range p3 {
					in := [3][3]uint8{x, y, z}
					var m [9]uint8
					for i := range 9 {
						m[i] = b[i/3]*3 + in[i/3][i%3]
					}
					out = append(out, m)
				}
			}
		}
	}
	return out
}()

// bruteCanon is the reference canonical form: the smallest string over
// all 3,359,232 geometric transforms, each relabelled by first appearance.
func bruteCanon(p solve.Grid) solve.Grid {
	var best solve.Grid
	for i := range best {
		best[i] = 10
	}
	var src [2]solve.Grid
	src[0] = p
	for r := range 9 {
		for c := range 9 {
			src[1][c*9+r] = p[r*9+c]
		}
	}
	for tr := range 2 {
		for _, rows := range lineMaps {
			var rg solve.Grid
			for r := range 9 {
				copy(rg[r*9:r*9+9], src[tr][int(rows[r])*9:int(rows[r])*9+9])
			}
			for _, cols := range lineMaps {
				var lab [10]uint8
				next := uint8(1)
				less := false
				for i := 0; i < 81; i++ {
					v := rg[i/9*9+int(cols[i%9])]
					if v != 0 {
						if lab[v] == 0 {
							lab[v] = next
							next++
						}
						v = lab[v]
					}
					if less {
						best[i] = v
						continue
					}
					if v > best[i] {
						break
					}
					if v < best[i] {
						less = true
						best[i] = v
					}
				}
			}
		}
	}
	return best
}

// readGridFile reads one grid per line, the first 81 characters of the line.
func readGridFile(tb testing.TB, path string, max int) []solve.Grid {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("open fixture: %v", err)
	}
	defer f.Close()
	var out []solve.Grid
	sc := bufio.NewScanner(f)
	for sc.Scan() && (max <= 0 || len(out) < max) {
		line := sc.Text()
		if len(line) < 81 {
			continue
		}
		g, err := solve.Parse(line[:81])
		if err != nil {
			tb.Fatalf("%s, line %d: %v", path, len(out)+1, err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return out
}

// sharedPuzzles returns the path of a file in ../shared/data, skipping tb if
// the shared data is absent.
func sharedPuzzles(tb testing.TB, name string) string {
	tb.Helper()
	path := filepath.Join("..", "..", "shared", "data", "puzzles", name)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("shared data absent: %v", err)
	}
	return path
}

var canonBruteN = flag.Int("canon.brute", 0, "number of golden puzzles to check against the brute-force canonical form (default 12, 4 with -short)")

// TestCanonMatchesBruteForce checks Canon and CanonGrid against the
// exhaustive search on the golden fixture (17-clue, magictour and minimal
// puzzles, then full grids), and on automorphic puzzles. Each brute-force
// form takes about a tenth of a second; -canon.brute 400 checks the whole file.
func TestCanonMatchesBruteForce(t *testing.T) {
	n := *canonBruteN
	if n == 0 {
		n = 12
		if testing.Short() {
			n = 4
		}
	}
	golden := canonReadFields(t, "golden.txt")
	// Spread the sample over the four kinds of grid in the file.
	step := max(1, len(golden)/n)
	checked := 0
	for i := 0; i < len(golden) && checked < n; i += step {
		g, want := golden[i][0], golden[i][1]
		if got := bruteCanon(g); got != want {
			t.Fatalf("golden line %d: brute force gives %v, file says %v", i+1, got, want)
		}
		got, tr := gen.Canon(g)
		if got != want {
			t.Errorf("Canon(%v) = %v, want %v", g, got, want)
		}
		if tr.Apply(g) != got {
			t.Errorf("Canon(%v): transform %v gives %v", g, tr, tr.Apply(g))
		}
		if g.Givens() == 81 {
			if got, _ := gen.CanonGrid(g); got != want {
				t.Errorf("CanonGrid(%v) = %v, want %v", g, got, want)
			}
		}
		checked++
	}
	// A grid with many automorphisms whose row pairs are all pure, and a
	// turned copy of it.
	for _, g := range []solve.Grid{canonPatternGrid(), gen.Turn90().Apply(canonPatternGrid())} {
		if got, want := canonOf(g), bruteCanon(g); got != want {
			t.Errorf("symmetric grid %v: Canon = %v, want %v", g, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range max(2, n/4) {
		p := canonAutomorphicPuzzle(t, rng)
		if got, want := canonOf(p), bruteCanon(p); got != want {
			t.Errorf("automorphic puzzle %d %v: Canon = %v, want %v", i, p, got, want)
		}
	}
}

// canonOf returns the canonical form of p.
func canonOf(p solve.Grid) solve.Grid {
	c, _ := gen.Canon(p)
	return c
}

// TestCanonGolden pins the canonical forms the bank stores.
func TestCanonGolden(t *testing.T) {
	for i, line := range canonReadFields(t, "golden.txt") {
		g, want := line[0], line[1]
		if got := canonOf(g); got != want {
			t.Errorf("line %d: Canon(%v) = %v, want %v", i+1, g, got, want)
		}
		if g.Givens() == 81 {
			if got, _ := gen.CanonGrid(g); got != want {
				t.Errorf("line %d: CanonGrid(%v) = %v, want %v", i+1, g, got, want)
			}
		}
	}
}

// canonPatternGrid is a full grid with many automorphisms: each row is the
// first shifted, so turning it half round, or cycling the rows of every
// band or the stacks, only relabels it.
func canonPatternGrid() solve.Grid {
	var g solve.Grid
	for r := range 9 {
		for c := range 9 {
			g[r*9+c] = uint8((r%3*3+r/3+c)%9 + 1)
		}
	}
	return g
}

// canonAutomorphism returns a transform that maps g onto itself with the
// geometry of a, if the geometry of a maps g onto a relabelling of g.
func canonAutomorphism(g solve.Grid, a gen.Transform) (gen.Transform, bool) {
	moved := a.Apply(g)
	var back [9]uint8 // back[moved digit - 1] = original digit
	for i, v := range moved {
		if v == 0 {
			continue
		}
		if back[v-1] != 0 && back[v-1] != g[i] {
			return gen.Transform{}, false
		}
		back[v-1] = g[i]
	}
	for i := range back {
		if back[i] == 0 {
			back[i] = uint8(i + 1) // digit absent: keep it
		}
	}
	rl, err := gen.Relabel(back)
	if err != nil {
		return gen.Transform{}, false
	}
	return a.Then(rl), true
}

// canonAutomorphicPuzzle returns a puzzle with a nontrivial automorphism: a
// random set of cells of a symmetric grid closed under one of the grid's
// automorphisms, then moved by a random transform.
func canonAutomorphicPuzzle(tb testing.TB, rng *rand.Rand) solve.Grid {
	tb.Helper()
	g := canonPatternGrid()
	shiftStacks, _ := gen.ParseTransform("123456789/456789123/123456789")
	shiftRows, _ := gen.ParseTransform("231564897/123456789/123456789")
	geoms := []gen.Transform{gen.Turn180(), shiftStacks, shiftRows, shiftStacks.Then(shiftRows), gen.Turn180().Then(shiftRows)}
	a, ok := canonAutomorphism(g, geoms[rng.IntN(len(geoms))])
	if !ok {
		tb.Fatal("pattern grid lost its automorphism")
	}
	var p solve.Grid
	for range 2 + rng.IntN(6) {
		i := rng.IntN(81)
		p[i] = g[i]
	}
	for { // close p under a
		q := a.Apply(p)
		for i, v := range q {
			if v != 0 {
				p[i] = v
			}
		}
		if a.Apply(p) == p {
			break
		}
	}
	return gen.RandomTransform(rng).Apply(p)
}

// canonSets returns the puzzle fixtures by name, for property tests and
// benchmarks.
func canonSets(tb testing.TB) map[string][]solve.Grid {
	tb.Helper()
	minimal := canonReadFields(tb, "minimal.txt")
	return map[string][]solve.Grid{
		"17clue":    canonColumn(canonReadFields(tb, "17clue.txt"), 0),
		"magictour": canonColumn(canonReadFields(tb, "magictour.txt"), 0),
		"minimal":   canonColumn(minimal, 0),
		"grids":     canonColumn(minimal, 1),
	}
}

// TestCanonInvariant checks, on every fixture puzzle and on automorphic
// puzzles, that the canonical form ignores any transform of the input,
// that the returned transform maps the input onto it, and that the form
// is its own canonical form.
func TestCanonInvariant(t *testing.T) {
	sets := canonSets(t)
	rng := rand.New(rand.NewPCG(4, 4))
	var auto []solve.Grid
	for range 500 {
		auto = append(auto, canonAutomorphicPuzzle(t, rng))
	}
	sets["automorphic"] = auto
	sets["special"] = []solve.Grid{{}, {40: 5}, {0: 1, 80: 1}, canonPatternGrid()}
	for _, name := range []string{"17clue", "magictour", "minimal", "grids", "automorphic", "special"} {
		t.Run(name, func(t *testing.T) {
			ps := sets[name]
			if testing.Short() && len(ps) > 300 {
				ps = ps[:300]
			}
			for _, p := range ps {
				c, tr := gen.Canon(p)
				if got := tr.Apply(p); got != c {
					t.Fatalf("Canon(%v): transform %v gives %v, not the form %v", p, tr, got, c)
				}
				if got := canonOf(c); got != c {
					t.Fatalf("Canon not idempotent on %v: %v then %v", p, c, got)
				}
				for range 3 {
					u := gen.RandomTransform(rng)
					q := u.Apply(p)
					got, tq := gen.Canon(q)
					if got != c {
						t.Fatalf("Canon(%v) = %v but Canon of its transform %v by %v = %v", p, c, q, u, got)
					}
					if tq.Apply(q) != got {
						t.Fatalf("Canon(%v): transform %v does not give the form", q, tq)
					}
					if p.Givens() == 81 {
						if g, tg := gen.CanonGrid(q); g != c || tg.Apply(q) != g {
							t.Fatalf("CanonGrid(%v) = %v by %v, want %v", q, g, tg, c)
						}
					}
				}
			}
		})
	}
}

// TestCanonSeparates checks that puzzles known to be pairwise
// non-isomorphic get pairwise different forms: the 17-clue fixture, and
// the whole 17-clue list when ../shared/data is present.
func TestCanonSeparates(t *testing.T) {
	check := func(t *testing.T, ps []solve.Grid) {
		seen := make(map[solve.Grid]int, len(ps))
		for i, p := range ps {
			c := canonOf(p)
			if j, ok := seen[c]; ok {
				t.Fatalf("puzzles %d and %d share the form %v", j, i, c)
			}
			seen[c] = i
		}
	}
	t.Run("Fixture", func(t *testing.T) { check(t, canonSets(t)["17clue"]) })
	t.Run("Shared", func(t *testing.T) {
		if testing.Short() {
			t.Skip("short")
		}
		check(t, readGridFile(t, sharedPuzzles(t, "puzzles2_17_clue.txt"), 0))
	})
}

// TestCanonConcurrent runs Canon from several goroutines (run with -race).
func TestCanonConcurrent(t *testing.T) {
	ps := canonSets(t)["magictour"][:100]
	want := make([]solve.Grid, len(ps))
	for i, p := range ps {
		want[i] = canonOf(p)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var z gen.Canonicalizer
			for i, p := range ps {
				var got solve.Grid
				if w%2 == 0 {
					got = canonOf(p)
				} else {
					got, _ = z.Canon(p)
				}
				if got != want[i] {
					t.Errorf("goroutine %d, puzzle %d: %v, want %v", w, i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestCanonicalizerAllocs checks that a warmed-up Canonicalizer does not
// allocate.
func TestCanonicalizerAllocs(t *testing.T) {
	sets := canonSets(t)
	var z gen.Canonicalizer
	for _, name := range []string{"17clue", "minimal", "grids"} {
		ps := sets[name]
		for _, p := range ps { // warm up the scratch space
			z.Canon(p)
		}
		i := 0
		allocs := testing.AllocsPerRun(200, func() {
			z.Canon(ps[i%len(ps)])
			i++
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Canon, want 0", name, allocs)
		}
	}
}

// benchCanonSet reports the rate at which f handles the puzzles ps, per
// second of wall-clock time and, run with -cpu 1, per second of CPU time
// (steadier on a shared machine).
func benchCanonSet(b *testing.B, ps []solve.Grid, f func(solve.Grid)) {
	b.ReportAllocs()
	i := 0
	cpu := cputime.Process()
	for b.Loop() {
		f(ps[i])
		i++
		if i == len(ps) {
			i = 0
		}
	}
	cpu = cputime.Process() - cpu
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "puzzles/cpu-s")
	}
}

// BenchmarkCanon measures Canon on the fixtures. Nearly all 17-clue
// fixtures are already in canonical form, which the search finds first
// (the identity's rows are the best at every level), so 17clue-moved
// measures the same puzzles, each under a random transform as a bank
// would meet them.
func BenchmarkCanon(b *testing.B) {
	sets := canonSets(b)
	rng := rand.New(rand.NewPCG(30, 7))
	for _, p := range sets["17clue"] {
		sets["17clue-moved"] = append(sets["17clue-moved"], gen.RandomTransform(rng).Apply(p))
	}
	for _, name := range []string{"17clue", "17clue-moved", "magictour", "minimal"} {
		b.Run(name, func(b *testing.B) {
			var z gen.Canonicalizer
			benchCanonSet(b, sets[name], func(p solve.Grid) { z.Canon(p) })
		})
	}
}

// BenchmarkCanonParallel measures the package-level Canon, which takes a
// Canonicalizer from a pool, from GOMAXPROCS goroutines as the pipeline
// calls it.
func BenchmarkCanonParallel(b *testing.B) {
	ps := canonSets(b)["minimal"]
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			gen.Canon(ps[i%len(ps)])
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
}

func BenchmarkCanonGrid(b *testing.B) {
	var z gen.Canonicalizer
	benchCanonSet(b, canonSets(b)["grids"], func(g solve.Grid) { z.CanonGrid(g) })
}

func TestCanonInvalidGrid(t *testing.T) {
	g := mustGrid(t, tfPuzzle)
	g[1] = g[0] // the same digit twice in row 1
	got, tr := gen.Canon(g)
	if got != g || tr != gen.Identity() {
		t.Errorf("Canon of an invalid grid = %v, %v; want it unchanged with the identity", got, tr)
	}
	g[2] = 12 // not a digit either
	if got, tr := gen.CanonGrid(g); tr.Apply(g) != got {
		t.Errorf("CanonGrid of an invalid grid: transform %v does not give %v", tr, got)
	}
}

// TestCanonFullGrid checks that Canon gives a full valid grid exactly
// what CanonGrid gives it (form and transform), and a full grid with a
// repeated digit or a value above 9 what it gives any such grid.
func TestCanonFullGrid(t *testing.T) {
	grids := canonSets(t)["grids"]
	if testing.Short() {
		grids = grids[:50]
	}
	rng := rand.New(rand.NewPCG(13, 30))
	for _, g := range grids {
		g = gen.RandomTransform(rng).Apply(g)
		got, tr := gen.Canon(g)
		if want, wantT := gen.CanonGrid(g); got != want || tr != wantT {
			t.Fatalf("Canon(%v) = %v by %v, want CanonGrid's %v by %v", g, got, tr, want, wantT)
		}
	}
	g := mustGrid(t, tfSolution)
	g[0], g[1] = g[1], g[0] // each of the two digits twice in its column
	if got, tr := gen.Canon(g); got != g || tr != gen.Identity() {
		t.Errorf("Canon of a full grid with repeated digits = %v, %v; want it unchanged with the identity", got, tr)
	}
	g = mustGrid(t, tfSolution)
	g[40] = 12 // not a digit: the grid is a puzzle with one empty cell
	p := g
	p[40] = 0
	got, tr := gen.Canon(g)
	if want, _ := gen.Canon(p); got != want || tr.Apply(p) != got {
		t.Errorf("Canon(%v) = %v by %v, want %v as for the puzzle with that cell empty", g, got, tr, want)
	}
}

// TestCanonRepeatedDigit checks that Canon tells a digit repeated in a
// row, a column or a box alone (it returns the grid and the identity) from
// digits that only look alike (the same digit in other houses).
func TestCanonRepeatedDigit(t *testing.T) {
	tests := []struct {
		name  string
		cells map[int]uint8 // cell (0..80) -> value
		valid bool
	}{
		{"row", map[int]uint8{0: 3, 8: 3}, false},
		{"column", map[int]uint8{0: 3, 72: 3}, false},
		{"box", map[int]uint8{0: 3, 10: 3}, false},
		{"one digit in four houses", map[int]uint8{0: 3, 13: 3, 26: 3, 30: 3}, true},
		{"a fifth in a row", map[int]uint8{0: 3, 13: 3, 26: 3, 30: 3, 35: 3}, false},
		{"three in a column", map[int]uint8{4: 9, 40: 9, 76: 9}, false},
		{"repeat among valid digits", map[int]uint8{0: 1, 1: 2, 2: 3, 9: 4, 10: 5, 11: 6, 18: 7, 19: 8, 20: 9, 60: 5, 70: 5}, false},
		{"every digit once a row", map[int]uint8{0: 1, 12: 2, 24: 3, 28: 4, 40: 5, 52: 6, 56: 7, 68: 8, 80: 9}, true},
		{"value above 9 beside a digit", map[int]uint8{0: 12, 1: 5, 9: 12}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g solve.Grid
			for i, v := range tt.cells {
				g[i] = v
			}
			got, tr := gen.Canon(g)
			if tr.Apply(g) != got {
				t.Fatalf("transform %v does not give %v", tr, got)
			}
			if unchanged := got == g && tr == gen.Identity(); unchanged == tt.valid {
				t.Errorf("Canon(%v) = %v by %v; valid %v", g, got, tr, tt.valid)
			}
		})
	}
}

// FuzzCanon checks, on grids built from arbitrary bytes, that Canon does
// not panic, that its transform gives its form, and that the form ignores
// a transform of the input.
func FuzzCanon(f *testing.F) {
	f.Add([]byte("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."), uint64(1))
	f.Add([]byte{}, uint64(2))
	f.Add([]byte("123456789"), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		// Place each byte's digit unless it clashes with one placed before.
		var g solve.Grid
		var rows, cols, boxes [9]uint16
		for i := 0; i < 81 && i < len(data); i++ {
			v := data[i] % 10
			r, c := i/9, i%9
			b := r/3*3 + c/3
			bit := uint16(1) << v
			if v == 0 || (rows[r]|cols[c]|boxes[b])&bit != 0 {
				continue
			}
			rows[r] |= bit
			cols[c] |= bit
			boxes[b] |= bit
			g[i] = v
		}
		var raw solve.Grid
		copy(raw[:], data)
		if c, tr := gen.Canon(raw); tr.Apply(raw) != c {
			t.Fatalf("Canon(%v): transform %v does not give %v", raw, tr, c)
		}
		c, tr := gen.Canon(g)
		if tr.Apply(g) != c {
			t.Fatalf("Canon(%v): transform %v does not give %v", g, tr, c)
		}
		u := gen.RandomTransform(rand.New(rand.NewPCG(seed, seed)))
		if got := canonOf(u.Apply(g)); got != c {
			t.Fatalf("Canon(%v) = %v, but of its transform by %v = %v", g, c, u, got)
		}
		if got := canonOf(c); got != c {
			t.Fatalf("Canon not idempotent on %v", g)
		}
	})
}
