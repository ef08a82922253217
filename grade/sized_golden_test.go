package grade_test

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
)

// sizedGoldenPath pins the full grade of minimal 12x12 and 16x16 puzzles,
// the ones whose solves reach the forcing chains, so that work on the
// speed of the sized grader cannot move a grade.
const sizedGoldenPath = "testdata/sized/grades.golden"

// sizedGoldenSets are the shapes and counts of the pinned puzzles: each
// is dug minimal, without symmetry, from rand.NewPCG(seed, N).
var sizedGoldenSets = []struct{ n, count int }{{12, 60}, {16, 6}}

// sizedGradeLine renders every field of a grade that a change of speed
// must keep: the ratings, the hardest technique, the path and a digest
// of every step (technique, rating, cells, digits, placements and
// eliminations).
func sizedGradeLine(p grid.Grid, gr grade.SizedGrade) string {
	h := fnv.New64a()
	for _, st := range gr.Steps {
		fmt.Fprintf(h, "%d %d %v %d %v %v;", st.Technique, st.Rating, st.Cells, st.Digits, st.Placements, st.Eliminations)
	}
	return fmt.Sprintf("%s %v %v %v %s %s %016x", p, gr.ER, gr.EP, gr.ED, gr.Hardest.Slug(),
		strings.Join(gr.Slugs(), ","), h.Sum64())
}

// TestSizedGradesPinned grades the pinned puzzles and compares each
// full grade with the golden file. Regenerate (digging the puzzles anew)
// with: go test ./grade -run TestSizedGradesPinned -update
func TestSizedGradesPinned(t *testing.T) {
	ctx := context.Background()
	g := grade.NewSized()
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		var b strings.Builder
		b.WriteString("# Full grades (puzzle ER EP ED hardest path step-digest) of minimal puzzles\n" +
			"# dug without symmetry from rand.NewPCG(seed, N), seed 1, 2, ...\n" +
			"# Regenerate with: go test ./grade -run TestSizedGradesPinned -update\n")
		for _, set := range sizedGoldenSets {
			s, err := grid.ShapeOf(set.n)
			if err != nil {
				t.Fatal(err)
			}
			var d gen.SizedDigger
			for seed := uint64(1); seed <= uint64(set.count); seed++ {
				pz, err := d.GenerateContext(ctx, s, gen.MinimalProfile(gen.NoSymmetry), rand.New(rand.NewPCG(seed, uint64(set.n))))
				if err != nil {
					t.Fatal(err)
				}
				gr, err := g.GradeContext(ctx, pz.Grid)
				if err != nil {
					t.Fatal(err)
				}
				b.WriteString(sizedGradeLine(pz.Grid, gr) + "\n")
			}
		}
		if err := os.WriteFile(sizedGoldenPath, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(sizedGoldenPath)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, want := range strings.Split(string(data), "\n") {
		if want == "" || strings.HasPrefix(want, "#") {
			continue
		}
		p, err := grid.Parse(strings.Fields(want)[0])
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && p.Shape.N > 12 {
			continue
		}
		gr, err := g.GradeContext(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if got := sizedGradeLine(p, gr); got != want {
			t.Errorf("grade changed:\n got %s\nwant %s", got, want)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no pinned puzzles")
	}
}
