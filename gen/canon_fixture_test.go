package gen_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/solve"
)

const canonFixtureDir = "testdata/canon"

// canonMinimalPuzzle draws a full grid from rng and removes givens in a random
// order while the puzzle keeps a unique solution, so the result is minimal.
func canonMinimalPuzzle(rng *rand.Rand) (puzzle, solution solve.Grid) {
	var v solve.Solver
	sol, ok := v.SolveRandom(solve.Grid{}, rng, 0)
	if !ok {
		panic("no random grid")
	}
	p := sol
	order := rng.Perm(81)
	for _, i := range order {
		d := p[i]
		p[i] = 0
		if v.Count(p, 2) != 1 {
			p[i] = d
		}
	}
	return p, sol
}

// canonWriteLines writes lines to testdata/canon/name.
func canonWriteLines(tb testing.TB, name string, lines []string) {
	tb.Helper()
	if err := os.MkdirAll(canonFixtureDir, 0o755); err != nil {
		tb.Fatal(err)
	}
	data := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(canonFixtureDir, name), []byte(data), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// canonReadFields reads the space-separated grids of each line of
// testdata/canon/name.
func canonReadFields(tb testing.TB, name string) [][]solve.Grid {
	tb.Helper()
	f, err := os.Open(filepath.Join(canonFixtureDir, name))
	if err != nil {
		tb.Fatalf("open fixture (regenerate with -update): %v", err)
	}
	defer f.Close()
	var out [][]solve.Grid
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var row []solve.Grid
		for _, field := range strings.Fields(sc.Text()) {
			g, err := solve.Parse(field)
			if err != nil {
				tb.Fatalf("%s, line %d: %v", name, n, err)
			}
			row = append(row, g)
		}
		out = append(out, row)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// canonColumn returns field i of every line.
func canonColumn(rows [][]solve.Grid, i int) []solve.Grid {
	out := make([]solve.Grid, len(rows))
	for j, r := range rows {
		out[j] = r[i]
	}
	return out
}

// TestCanonUpdateFixtures rewrites the fixtures when run with -update: samples
// of the shared sets, seeded minimal puzzles with their solutions, and the
// golden canonical forms. The golden file pins the canonical form, which
// the bank stores, so a change to it must be deliberate.
func TestCanonUpdateFixtures(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite the fixtures")
	}
	sample := func(name string, every int) []string {
		var lines []string
		for i, g := range readGridFile(t, sharedPuzzles(t, name), 0) {
			if i%every == 0 {
				lines = append(lines, g.String())
			}
		}
		return lines
	}
	canonWriteLines(t, "17clue.txt", sample("puzzles2_17_clue.txt", 20))
	canonWriteLines(t, "magictour.txt", sample("puzzles3_magictour_top1465.txt", 5))
	rng := rand.New(rand.NewPCG(2026, 11))
	var minimal []string
	for range 300 {
		p, sol := canonMinimalPuzzle(rng)
		minimal = append(minimal, p.String()+" "+sol.String())
	}
	canonWriteLines(t, "minimal.txt", minimal)

	var golden []string
	add := func(gs []solve.Grid, n int) {
		for _, g := range gs[:n] {
			c, _ := gen.Canon(g)
			golden = append(golden, fmt.Sprintf("%v %v", g, c))
		}
	}
	add(canonColumn(canonReadFields(t, "17clue.txt"), 0), 100)
	add(canonColumn(canonReadFields(t, "magictour.txt"), 0), 100)
	m := canonReadFields(t, "minimal.txt")
	add(canonColumn(m, 0), 100)
	add(canonColumn(m, 1), 100)
	canonWriteLines(t, "golden.txt", golden)
}
