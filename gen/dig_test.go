package gen_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"sudokubank/gen"
	"sudokubank/internal/cputime"
	"sudokubank/solve"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// allProfiles returns every paper level with every symmetry, and the
// minimal profile with every symmetry.
func allProfiles() []gen.Profile {
	var ps []gen.Profile
	for _, sym := range allSymmetries {
		for _, p := range gen.PaperLevels {
			p.Symmetry = sym
			if sym != gen.NoSymmetry {
				p.Name += "-" + sym.String()
			}
			ps = append(ps, p)
		}
		ps = append(ps, gen.MinimalProfile(sym))
	}
	return ps
}

// fataler is what mustPuzzle needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// mustPuzzle fails unless pz is a correct dig of profile p from solution.
func mustPuzzle(tb fataler, pz gen.Puzzle, p gen.Profile, solution solve.Grid) {
	tb.Helper()
	if pz.Solution != solution {
		tb.Fatalf("%s: Solution = %v, want %v", p.Name, pz.Solution, solution)
	}
	for c, v := range pz.Grid {
		if v != 0 && v != solution[c] {
			tb.Fatalf("%s: %v: cell %d is %d, the solution has %d", p.Name, pz.Grid, c, v, solution[c])
		}
	}
	if n := solve.Count(pz.Grid, 2); n != 1 {
		tb.Fatalf("%s: %v has %d solutions, want 1", p.Name, pz.Grid, n)
	}
	if pz.Symmetry != p.Symmetry || !p.Symmetry.Holds(pz.Grid) {
		tb.Fatalf("%s: %v: Symmetry %v, holds %v, want %v holding", p.Name, pz.Grid, pz.Symmetry, p.Symmetry.Holds(pz.Grid), p.Symmetry)
	}
	if !p.Minimal {
		if n := pz.Grid.Givens(); n < p.MinGivens {
			tb.Fatalf("%s: %v has %d givens, want at least %d", p.Name, pz.Grid, n, p.MinGivens)
		}
		if n := gen.MinRowColGivens(pz.Grid); n < p.RowColMin {
			tb.Fatalf("%s: %v has a row or column with %d givens, want at least %d", p.Name, pz.Grid, n, p.RowColMin)
		}
	}
	if got, want := pz.Minimal, refMinimal(pz.Grid); got != want {
		tb.Fatalf("%s: %v: Minimal = %v, want %v", p.Name, pz.Grid, got, want)
	}
	if p.Minimal && p.Symmetry == gen.NoSymmetry && !pz.Minimal {
		tb.Fatalf("%s: %v is not minimal", p.Name, pz.Grid)
	}
}

func TestDig(t *testing.T) {
	perProfile := 6
	if testing.Short() {
		perProfile = 2
	}
	var d gen.Digger
	rng := newRand(1)
	for _, p := range allProfiles() {
		t.Run(p.Name, func(t *testing.T) {
			var s gen.Survey
			for i := 0; i < perProfile; i++ {
				solution := gen.Terminal(rng)
				pz := d.Dig(solution, p, rng)
				mustPuzzle(t, pz, p, solution)
				s.Add(pz, 0)
			}
			t.Logf("givens %s, %d minimal", s.GivensSummary(), s.Minimal)
		})
	}
}

// TestDigSharedSolutions digs the solutions of outside puzzles: grids the
// generator did not make.
func TestDigSharedSolutions(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "puzzles", "puzzles3_magictour_top1465.txt")
	lines := readLines(t, path, 40)
	var d gen.Digger
	rng := newRand(2)
	ps := allProfiles()
	for i, line := range lines {
		g, err := solve.Parse(strings.Fields(line)[0])
		if err != nil {
			t.Fatalf("%s, line %d: %v", path, i+1, err)
		}
		solution, ok := solve.Solve(g)
		if !ok {
			t.Fatalf("%s, line %d: no solution", path, i+1)
		}
		p := ps[i%len(ps)]
		mustPuzzle(t, d.Dig(solution, p, rng), p, solution)
	}
}

// readLines returns up to n non-empty trimmed lines of a file under ../shared,
// skipping the test when the file is absent (a fresh clone).
func readLines(tb testing.TB, path string, n int) []string {
	tb.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		tb.Skipf("%s is absent", path)
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(lines) < n {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return lines
}

func TestDigDeterministic(t *testing.T) {
	for _, p := range allProfiles() {
		var d1, d2 gen.Digger
		d2.Generate(gen.PaperLevels[1], newRand(99)) // a used Digger gives the same result
		a := d1.Generate(p, newRand(7))
		b := d2.Generate(p, newRand(7))
		if a != b {
			t.Errorf("%s: seed 7 gave %v then %v", p.Name, a.Grid, b.Grid)
		}
	}
}

// TestDigDeferMinimal checks that a dig with DeferMinimal gives the same
// puzzle, and LastMinimal the Minimal flag, that a dig without gives, on
// profiles that dig to a minimal puzzle and ones that stop at a givens
// bound (most of those are not minimal).
func TestDigDeferMinimal(t *testing.T) {
	profiles := append(allProfiles(), gen.GivensProfile(22, 28, gen.NoSymmetry), gen.GivensProfile(30, 36, gen.Rot180))
	var plain, lazy gen.Digger
	lazy.DeferMinimal = true
	counts := [2]int{}
	for i, p := range profiles {
		for j := 0; j < 8; j++ {
			seed := uint64(i*8 + j)
			want := plain.Generate(p, newRand(seed))
			got := lazy.Generate(p, newRand(seed))
			if got.Minimal {
				t.Errorf("%s seed %d: Minimal set despite DeferMinimal", p.Name, seed)
			}
			got.Minimal = lazy.LastMinimal()
			if got != want {
				t.Errorf("%s seed %d: deferred dig %v minimal %v, want %v minimal %v", p.Name, seed, got.Grid, got.Minimal, want.Grid, want.Minimal)
			}
			if want.Minimal {
				counts[1]++
			} else {
				counts[0]++
			}
		}
	}
	if counts[0] == 0 || counts[1] == 0 {
		t.Errorf("digs minimal and not: %v, want some of each", counts)
	}
	// A Digger that has checked a puzzle since has lost the dig.
	lazy.IsMinimal(plain.Generate(gen.PaperLevels[0], newRand(1)).Grid)
	defer func() {
		if recover() == nil {
			t.Error("LastMinimal after IsMinimal did not panic")
		}
	}()
	lazy.LastMinimal()
}

// TestDigCheckModesAgree checks that counting to 2 and reduction to
// absurdity take the same decisions.
func TestDigCheckModesAgree(t *testing.T) {
	var red, cnt gen.Digger
	gen.SetCountCheck(&cnt, true)
	for i, p := range allProfiles() {
		a := red.Generate(p, newRand(uint64(i)))
		b := cnt.Generate(p, newRand(uint64(i)))
		if a != b {
			t.Errorf("%s: reduction dug %v, counting %v", p.Name, a.Grid, b.Grid)
		}
	}
}

func TestDigPanics(t *testing.T) {
	full := gen.Terminal(newRand(1))
	partial := full
	partial[40] = 0
	clash := full
	clash[0] = clash[1] // a digit twice in row 1
	tests := []struct {
		name     string
		solution solve.Grid
		p        gen.Profile
	}{
		{"InvalidProfile", full, gen.Profile{MinGivens: 40, MaxGivens: 30}},
		{"IncompleteSolution", partial, gen.MinimalProfile(gen.NoSymmetry)},
		{"InvalidSolution", clash, gen.MinimalProfile(gen.NoSymmetry)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("Dig did not panic")
				}
			}()
			var d gen.Digger
			d.Dig(tt.solution, tt.p, newRand(1))
		})
	}
}

// TestDigAllocs checks that digging does not allocate. Digs that need no
// search show gen's own part; full digs include package solve's searches
// and are checked only when a solver search does not allocate.
func TestDigAllocs(t *testing.T) {
	var d gen.Digger
	rng := newRand(1)
	shallow := gen.Profile{Name: "shallow", MinGivens: 70, MaxGivens: 70}
	if got := testing.AllocsPerRun(20, func() { d.Generate(shallow, rng) }); got != 0 {
		t.Errorf("%s: Generate allocates %.1f times per puzzle, want 0", shallow.Name, got)
	}
	if _, _, searched := gen.DiggerChecks(&d); searched != 0 {
		t.Fatalf("%s: %d searches, want none", shallow.Name, searched)
	}

	var s solve.Solver
	p := mustParse(t, readFixture(t, "minimal.txt")[0])
	if n := testing.AllocsPerRun(5, func() { s.Count(p, 2); s.HasOtherSolution(p, 0, p[0]) }); n != 0 {
		t.Skipf("solve.Solver allocates %.0f times per search: cannot check full digs", n)
	}
	for _, count := range []bool{false, true} {
		gen.SetCountCheck(&d, count)
		for _, p := range []gen.Profile{gen.MinimalProfile(gen.NoSymmetry), gen.MinimalProfile(gen.Rot90), gen.PaperLevels[2]} {
			if got := testing.AllocsPerRun(20, func() { d.Generate(p, rng) }); got != 0 {
				t.Errorf("%s, counting %v: Generate allocates %.1f times per puzzle, want 0", p.Name, count, got)
			}
		}
	}
}

func TestIsMinimal(t *testing.T) {
	lines := readFixture(t, "minimal.txt")
	var d gen.Digger
	for i, line := range lines {
		p := mustParse(t, line)
		if !gen.IsMinimal(p) || !d.IsMinimal(p) || !refMinimal(p) {
			t.Errorf("minimal.txt line %d: IsMinimal = false, want true", i+1)
		}
		// One more given from the solution keeps it unique but makes it
		// not minimal.
		sol, _ := solve.Solve(p)
		for c := range p {
			if p[c] == 0 {
				q := p
				q[c] = sol[c]
				if d.IsMinimal(q) {
					t.Errorf("minimal.txt line %d plus cell %d: IsMinimal = true, want false", i+1, c)
				}
				break
			}
		}
		// One given less has several solutions.
		for c := range p {
			if p[c] != 0 {
				q := p
				q[c] = 0
				if d.IsMinimal(q) {
					t.Errorf("minimal.txt line %d less cell %d: IsMinimal = true, want false", i+1, c)
				}
				break
			}
		}
	}
	full := gen.Terminal(newRand(1))
	tests := []struct {
		name string
		p    solve.Grid
	}{{"Empty", solve.Grid{}}, {"Full", full}}
	for _, tt := range tests {
		if d.IsMinimal(tt.p) {
			t.Errorf("%s: IsMinimal = true, want false", tt.name)
		}
	}
}

// TestIsMinimalShared compares IsMinimal with plain counting on outside
// puzzles, minimal (source gen) or not (source qq); the sparse and hard
// sources are left out to keep the test short.
func TestIsMinimalShared(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "data", "rated", "dev_se.txt")
	var lines []string
	for _, line := range readLines(t, path, 3500) {
		if line := strings.Fields(line); line[len(line)-1] == "gen" || line[len(line)-1] == "qq" {
			lines = append(lines, line[0])
		}
	}
	var d gen.Digger
	rng := newRand(3)
	minimal := 0
	for i := 0; i < 60; i++ {
		p := mustParse(t, lines[rng.IntN(len(lines))])
		got, want := d.IsMinimal(p), refMinimal(p)
		if got != want {
			t.Errorf("%v: IsMinimal = %v, want %v", p, got, want)
		}
		if got {
			minimal++
		}
	}
	t.Logf("%d of 60 minimal", minimal)
}

// refMinimal is IsMinimal by plain counting, independent of gen.
func refMinimal(p solve.Grid) bool {
	if solve.Count(p, 2) != 1 {
		return false
	}
	for c := range p {
		if p[c] != 0 {
			q := p
			q[c] = 0
			if solve.Count(q, 2) == 1 {
				return false
			}
		}
	}
	return true
}

func readFixture(tb testing.TB, name string) []string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "dig", name))
	if err != nil {
		tb.Fatal(err)
	}
	return strings.Fields(string(b))
}

func mustParse(tb testing.TB, s string) solve.Grid {
	tb.Helper()
	g, err := solve.Parse(s)
	if err != nil {
		tb.Fatalf("parse %q: %v", s, err)
	}
	return g
}

// TestGolden pins the grids and puzzles of fixed seeds, so that a change
// of the stream of random numbers or of a digging decision shows. Run
// with -run TestGolden -update (the package's flag, declared in
// flags_test.go) to rewrite testdata/dig/golden.txt after a
// deliberate change.
func TestGolden(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "terminal %v\n", gen.Terminal(newRand(2026)))
	lv, ok := gen.LasVegas(newRand(2026), gen.LasVegasGivens, gen.LasVegasNodes)
	fmt.Fprintf(&b, "lasvegas %v %v\n", lv, ok)
	var d gen.Digger
	for _, p := range allProfiles() {
		pz := d.Generate(p, newRand(2026))
		fmt.Fprintf(&b, "%s %v %v\n", p.Name, pz.Grid, pz.Minimal)
	}
	path := filepath.Join("testdata", "dig", "golden.txt")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	for i, w := range strings.Split(string(want), "\n") {
		if i >= len(got) || got[i] != w {
			t.Errorf("line %d:\ngot  %q\nwant %q", i+1, got[min(i, len(got)-1)], w)
		}
	}
}

// benchGrids returns n terminal grids made before a benchmark's timer.
func benchGrids(n int) []solve.Grid {
	rng := newRand(11)
	gs := make([]solve.Grid, n)
	for i := range gs {
		gs[i] = gen.Terminal(rng)
	}
	return gs
}

// reportDig reports the rate and how the digger settled its checks. The
// benchmark takes cpu0 = cputime.Process() just before its b.Loop loop.
func reportDig(b *testing.B, d *gen.Digger, cpu0 time.Duration) {
	reportRate(b, "puzzles", cpu0)
	forced, swaps, searched := gen.DiggerChecks(d)
	b.ReportMetric(float64(swaps)/float64(b.N), "swaps/puzzle")
	b.ReportMetric(float64(searched)/float64(b.N), "searches/puzzle")
	b.ReportMetric(float64(forced)/float64(b.N), "forced/puzzle")
}

// reportRate reports b.N items per wall-clock second ("puzzles/s") and
// per second of the process's CPU time since cpu0 ("puzzles/cpu-s"), the
// figure to trust when other processes share the machine.
func reportRate(b *testing.B, items string, cpu0 time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), items+"/s")
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), items+"/cpu-s")
	}
}

// BenchmarkDigMinimal digs minimal puzzles from ready terminal grids: 81
// tries each, the figure to compare with a C++ dig-hole.
func BenchmarkDigMinimal(b *testing.B) { benchDig(b, false) }

// BenchmarkDigCheck compares the two uniqueness checks on the minimal dig.
func BenchmarkDigCheck(b *testing.B) {
	b.Run("Reduction", func(b *testing.B) { benchDig(b, false) })
	b.Run("Count", func(b *testing.B) { benchDig(b, true) })
}

// benchDig digs minimal puzzles from ready terminal grids, checking
// uniqueness by counting solutions when count is set and by reduction
// to absurdity (the default) otherwise.
func benchDig(b *testing.B, count bool) {
	grids := benchGrids(256)
	var d gen.Digger
	gen.SetCountCheck(&d, count)
	rng := newRand(12)
	p := gen.MinimalProfile(gen.NoSymmetry)
	i := 0
	cpu0 := cputime.Process()
	for b.Loop() {
		d.Dig(grids[i%len(grids)], p, rng)
		i++
	}
	reportDig(b, &d, cpu0)
}

// classify is the measurement hook of BenchmarkProfiles: the class each
// generated puzzle is counted in. Until package grade can rate puzzles it
// puts every puzzle in class 0; then it should return the grader's level
// (1-5), so that the log shows each profile's yield of each level.
var classify = func(gen.Puzzle) int { return 0 }

// BenchmarkProfiles generates puzzles (terminal grid and dig) with the
// paper's levels and the minimal profile, each without symmetry and with
// rot180, and logs the givens histogram and the classes of each.
func BenchmarkProfiles(b *testing.B) {
	var ps []gen.Profile
	for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot180} {
		for _, p := range gen.PaperLevels {
			if sym != gen.NoSymmetry {
				p.Name += "-" + sym.String()
				p.Symmetry = sym
			}
			ps = append(ps, p)
		}
		ps = append(ps, gen.MinimalProfile(sym))
	}
	for _, p := range ps {
		b.Run(p.Name, func(b *testing.B) {
			var d gen.Digger
			var s gen.Survey
			rng := newRand(13)
			cpu0 := cputime.Process()
			for b.Loop() {
				pz := d.Generate(p, rng)
				s.Add(pz, classify(pz))
			}
			reportDig(b, &d, cpu0)
			b.ReportMetric(float64(s.Minimal)/float64(s.Puzzles), "minimal/puzzle")
			b.Logf("%s: %d puzzles, givens %s, classes %v", p.Name, s.Puzzles, s.GivensSummary(), s.Classes[:6])
		})
	}
}

// profileGen draws any valid profile, restrictions and all.
var profileGen = rapid.Custom(func(t *rapid.T) gen.Profile {
	lo := rapid.IntRange(0, 81).Draw(t, "minGivens")
	return gen.Profile{
		Name:      "drawn",
		Sequence:  gen.Sequence(rapid.IntRange(0, 3).Draw(t, "sequence")),
		MinGivens: lo,
		MaxGivens: rapid.IntRange(lo, 81).Draw(t, "maxGivens"),
		RowColMin: rapid.IntRange(0, 9).Draw(t, "rowColMin"),
		Symmetry:  allSymmetries[rapid.IntRange(0, len(allSymmetries)-1).Draw(t, "symmetry")],
		Minimal:   rapid.Bool().Draw(t, "minimal"),
	}
})

// TestDigAnyProfile digs with drawn profiles and seeds: every puzzle is
// unique, agrees with its solution, keeps its symmetry and restrictions,
// and is flagged minimal exactly when it is.
func TestDigAnyProfile(t *testing.T) {
	var d gen.Digger
	rapid.Check(t, func(rt *rapid.T) {
		p := profileGen.Draw(rt, "profile")
		rng := newRand(rapid.Uint64().Draw(rt, "seed"))
		solution := gen.Terminal(rng)
		mustPuzzle(rt, d.Dig(solution, p, rng), p, solution)
	})
}
