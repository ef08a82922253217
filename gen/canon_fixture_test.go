package gen_test

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/solve"
)

var update = flag.Bool("update", false, "rewrite the fixtures in testdata/canon (needs ../shared/data)")

const fixtureDir = "testdata/canon"

// minimalPuzzle draws a full grid from rng and removes givens in a random
// order while the puzzle keeps a unique solution, so the result is minimal.
func minimalPuzzle(rng *rand.Rand) (puzzle, solution solve.Grid) {
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

// writeLines writes lines to testdata/canon/name.
func writeLines(tb testing.TB, name string, lines []string) {
	tb.Helper()
	if err := os.MkdirAll(fixtureDir, 0o755); err != nil {
		tb.Fatal(err)
	}
	data := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(fixtureDir, name), []byte(data), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// readFields reads the space-separated grids of each line of
// testdata/canon/name.
func readFields(tb testing.TB, name string) [][]solve.Grid {
	tb.Helper()
	f, err := os.Open(filepath.Join(fixtureDir, name))
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

// column returns field i of every line.
func column(rows [][]solve.Grid, i int) []solve.Grid {
	out := make([]solve.Grid, len(rows))
	for j, r := range rows {
		out[j] = r[i]
	}
	return out
}

// TestUpdateFixtures rewrites the fixtures when run with -update: samples
// of the shared sets, seeded minimal puzzles with their solutions, and the
// golden canonical forms. The golden file pins the canonical form, which
// the bank stores, so a change to it must be deliberate.
func TestUpdateFixtures(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite the fixtures")
	}
	sample := func(name string, every int) []string {
		var lines []string
		for i, g := range readGrids(t, sharedData(t, name), 0) {
			if i%every == 0 {
				lines = append(lines, g.String())
			}
		}
		return lines
	}
	writeLines(t, "17clue.txt", sample("puzzles2_17_clue.txt", 20))
	writeLines(t, "magictour.txt", sample("puzzles3_magictour_top1465.txt", 5))
	rng := rand.New(rand.NewPCG(2026, 11))
	var minimal []string
	for range 300 {
		p, sol := minimalPuzzle(rng)
		minimal = append(minimal, p.String()+" "+sol.String())
	}
	writeLines(t, "minimal.txt", minimal)

	var golden []string
	add := func(gs []solve.Grid, n int) {
		for _, g := range gs[:n] {
			c, _ := gen.Canon(g)
			golden = append(golden, fmt.Sprintf("%v %v", g, c))
		}
	}
	add(column(readFields(t, "17clue.txt"), 0), 100)
	add(column(readFields(t, "magictour.txt"), 0), 100)
	m := readFields(t, "minimal.txt")
	add(column(m, 0), 100)
	add(column(m, 1), 100)
	writeLines(t, "golden.txt", golden)
}
