package grade

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"strings"
	"testing"

	"sudokubank/solve"
)

const gradesGoldenFile = "testdata/grades.golden"

var pinnedNested = flag.Bool("nested", false, "TestGradesPinned: also grade the pinned puzzles that need nested forcing chains (about a second each); TestChainNestedLevel4Fixtures and TestChainNestedLevel4Bounds: all the positions of testdata/chains/nested4.txt, not only the first")

// gradesGoldenLine writes the grade of p as one line: the puzzle, ER, EP,
// ED, level, step count, hardest technique and a hash of the whole path
// (every step's technique, rating, placements and eliminations), so that
// a change of any step shows even when the ratings agree.
func gradesGoldenLine(p solve.Grid, gr Grade) string {
	h := fnv.New64a()
	for _, st := range gr.Path {
		fmt.Fprintf(h, "%d %d %v %v;", st.Technique, st.Rating, st.Placements, st.Eliminations)
	}
	return fmt.Sprintf("%s %s %s %s %s %d %s %016x", p, gr.ER, gr.EP, gr.ED, gr.Level, gr.Steps, gr.Hardest.Slug(), h.Sum64())
}

// TestGradesPinned grades the committed sample (testdata/se_sample.txt)
// and compares every grade and path with testdata/grades.golden, so that
// a change meant only to make the grader faster cannot move a rating.
// Regenerate with: go test ./grade -run TestGradesPinned -update -nested
func TestGradesPinned(t *testing.T) {
	if *chainUpdate && !*pinnedNested {
		// Without -nested the nested puzzles' lines are copied from the
		// golden file, not graded: an update would pin stale lines.
		t.Fatal("-update needs -nested here")
	}
	f, err := os.Open("testdata/se_sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The golden lines by puzzle: without -nested, a puzzle whose pinned
	// grade needs nested forcing chains keeps its line ungraded, so the
	// normal suite stays fast.
	pinned := map[string]string{}
	if data, err := os.ReadFile(gradesGoldenFile); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if fs := strings.Fields(l); len(fs) == 8 && !strings.HasPrefix(l, "#") {
				pinned[fs[0]] = l
			}
		}
	}
	var got []string
	var g Grader
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		p, err := solve.Parse(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		if l, ok := pinned[p.String()]; ok && !*pinnedNested && strings.HasPrefix(strings.Fields(l)[6], "nested-") {
			got = append(got, l)
			continue
		}
		gr, err := g.Grade(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got = append(got, gradesGoldenLine(p, gr))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	want, updated := pinLines(t, gradesGoldenFile,
		"# PUZZLE ER EP ED LEVEL STEPS HARDEST PATH-HASH of testdata/se_sample.txt.\n"+
			"# Regenerate with: go test ./grade -run TestGradesPinned -update -nested\n", got)
	if updated {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%d grades, golden file has %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("grade changed:\n got %s\nwant %s", got[i], want[i])
		}
	}
}

// pinLines writes got under header to a golden file with -update, and
// says so; otherwise it returns the file's lines, less blank lines and
// comments, for the caller to compare.
func pinLines(t *testing.T, file, header string, got []string) (want []string, updated bool) {
	t.Helper()
	if *chainUpdate {
		if err := os.WriteFile(file, []byte(header+strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return nil, true
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			want = append(want, l)
		}
	}
	return want, false
}
