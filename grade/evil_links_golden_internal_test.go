package grade

import (
	"fmt"
	"hash/fnv"
	"os"
	"strings"
	"testing"

	"sudokubank/solve"
)

const evilLinksGoldenFile = "testdata/evil_links.golden"

// evilLinksLine writes the path of p with the chain of each step, as a
// hint draws it, hashed: the puzzle, the step count and a hash of every
// step (cells, digits, conclusions) and of its links.
func evilLinksLine(p solve.Grid, gr *Grade) string {
	h := fnv.New64a()
	for i, st := range gr.Path {
		fmt.Fprintf(h, "%s %v|", st, gr.Links[i])
	}
	return fmt.Sprintf("%s %d %016x", p, len(gr.Path), h.Sum64())
}

// TestEvilLinksPinned grades the evil digs of testdata/evil_digs.txt
// and the hard digs of testdata/hard_digs.txt with links recorded and
// compares each path, links included, with the golden file of each: the
// chain searches that rate evil puzzles, and the forcing chains that rate
// the hard ones (8.5 and more), may get faster, but each search's first
// path decides a hint's cells and links, so none may change. With
// -short, the first 50 of each.
// Regenerate with: go test ./grade -run TestEvilLinksPinned -update
func TestEvilLinksPinned(t *testing.T) {
	for _, tc := range []struct{ digs, golden string }{
		{"testdata/evil_digs.txt", evilLinksGoldenFile},
		{"testdata/hard_digs.txt", "testdata/hard_links.golden"},
	} {
		t.Run(tc.digs, func(t *testing.T) {
			testLinksPinned(t, tc.digs, tc.golden)
		})
	}
}

// testLinksPinned is TestEvilLinksPinned for one file of puzzles and
// its golden file.
func testLinksPinned(t *testing.T, digsFile, goldenFile string) {
	data, err := os.ReadFile(digsFile)
	if err != nil {
		t.Fatal(err)
	}
	var ps []solve.Grid
	for _, l := range strings.Split(string(data), "\n") {
		fs := strings.Fields(l)
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		p, err := solve.Parse(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if testing.Short() && !*chainUpdate {
		ps = ps[:50]
	}
	var g Grader
	g.RecordLinks(true)
	var gr Grade
	got := make([]string, len(ps))
	for i, p := range ps {
		if err := g.GradeInto(p, &gr); err != nil {
			t.Fatal(err)
		}
		got[i] = evilLinksLine(p, &gr)
	}
	want, updated := pinLines(t, goldenFile,
		"# PUZZLE STEPS PATH-AND-LINKS-HASH of "+digsFile+".\n"+
			"# Regenerate with: go test ./grade -run TestEvilLinksPinned -update\n", got)
	if updated {
		return
	}
	if len(want) < len(got) {
		t.Fatalf("%d paths graded, golden file has %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("path %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}
