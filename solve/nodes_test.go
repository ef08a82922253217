package solve_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/solve"
)

// nodesGolden holds Count's search effort, Stats after a count to 2, for
// every puzzle of testdata/cases.txt and then of testdata/minimal.txt.
var nodesGolden = filepath.Join("testdata", "nodes.txt")

// TestSearchNodesPinned holds Count's search tree to testdata/nodes.txt
// and rewrites it with -update. The grader stores Count's node count as a
// puzzle's search nodes, part of its score, so a solver change that moves
// a single count changes the scores of every bank built before it: the
// file must change only by a decision to rescore.
func TestSearchNodesPinned(t *testing.T) {
	var gs []solve.Grid
	for _, c := range readCases(t) {
		gs = append(gs, c.g)
	}
	gs = append(gs, readPuzzles(t, minimalFixture)...)
	// Both versions of the search's hot functions, Go and assembly, must
	// give the same counts and the same tree; the Go one writes the file.
	got, counts := searchNodes(gs, false)
	if solve.V3Supported() {
		v3, v3Counts := searchNodes(gs, true)
		gl, vl := strings.Split(got, "\n"), strings.Split(v3, "\n")
		for i, g := range gs {
			if gl[i+1] != vl[i+1] || counts[i] != v3Counts[i] {
				t.Fatalf("puzzle %s: the assembly search gives stats %q and count %d, the Go one %q and %d",
					g, vl[i+1], v3Counts[i], gl[i+1], counts[i])
			}
		}
	}
	if *update {
		if err := os.WriteFile(nodesGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(nodesGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	// Name the first puzzle whose count moved.
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] && i == 0 {
			t.Fatalf("%s: header %q, want %q", nodesGolden, gl[i], wl[i])
		}
		if gl[i] != wl[i] {
			t.Fatalf("%s line %d (puzzle %s): stats %q, want %q", nodesGolden, i+1, gs[i-1], gl[i], wl[i])
		}
	}
	t.Fatalf("%s: %d lines, want %d", nodesGolden, len(gl), len(wl))
}

// searchNodes returns the lines of nodes.txt for gs and the count of
// each puzzle, with the assembly versions of the search's hot functions
// (v3) or the Go ones.
func searchNodes(gs []solve.Grid, v3 bool) (string, []int) {
	defer solve.UseV3(v3)()
	var b strings.Builder
	b.WriteString("# NODES GUESSES: Count(g, 2)'s Stats for each puzzle of cases.txt, then of minimal.txt, in order.\n")
	var v solve.Solver
	counts := make([]int, len(gs))
	for i, g := range gs {
		counts[i] = v.Count(g, 2)
		st := v.Stats()
		fmt.Fprintf(&b, "%d %d\n", st.Nodes, st.Guesses)
	}
	return b.String(), counts
}
