package grade

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/solve"
)

// sizedImplemented reports whether SizedGrader implements technique t.
func sizedImplemented(t Technique) bool {
	return t >= FullHouse && t <= NestedForcingChains5 && t != XYChain
}

// sizedGoldenLine writes a sized grade of a 9x9 puzzle as gradesGoldenLine
// writes a 9x9 grade, path hash included, so the two compare as strings.
func sizedGoldenLine(p solve.Grid, gr SizedGrade) string {
	h := fnv.New64a()
	for _, st := range gr.Steps {
		pl := make([]Placement, 0, len(st.Placements))
		for _, x := range st.Placements {
			pl = append(pl, Placement{uint8(x.Cell), x.Digit})
		}
		el := make([]Elimination, 0, len(st.Eliminations))
		for _, x := range st.Eliminations {
			el = append(el, Elimination{uint8(x.Cell), x.Digit})
		}
		if len(pl) == 0 {
			pl = nil
		}
		if len(el) == 0 {
			el = nil
		}
		fmt.Fprintf(h, "%d %d %v %v;", st.Technique, st.Rating, pl, el)
	}
	return fmt.Sprintf("%s %s %s %s %s %d %s %016x", p, gr.ER, gr.EP, gr.ED, gr.Level, len(gr.Steps), gr.Hardest.Slug(), h.Sum64())
}

// TestSizedAgreesWithPinned grades the pinned 9x9 sample with the sized
// grader: wherever the 9x9 grade's hardest technique is one the sized
// grader implements, the whole line (ratings, level, steps, hardest and
// the hash of every step) must be the 9x9 grader's.
func TestSizedAgreesWithPinned(t *testing.T) {
	data, err := os.ReadFile(gradesGoldenFile)
	if err != nil {
		t.Fatal(err)
	}
	var g SizedGrader
	same, cmp, unfinished := 0, 0, 0
	for _, l := range strings.Split(string(data), "\n") {
		fs := strings.Fields(l)
		if len(fs) != 8 || strings.HasPrefix(l, "#") {
			continue
		}
		p := mustSolveGrid(t, fs[0])
		gr, err := g.GradeContext(context.Background(), mustSizedGrid(t, fs[0]))
		if err != nil {
			t.Fatalf("%s: %v", fs[0], err)
		}
		if gr.Unfinished {
			unfinished++
		}
		want, _ := ParseTechnique(fs[6])
		if !sizedImplemented(want) {
			if !gr.Unfinished && gr.ER >= AlignedTripleExclusion.BaseRating() {
				t.Errorf("%s: sized grade %s %s finished a puzzle the 9x9 grader rates %s %s", fs[0], gr.ER, gr.Hardest.Slug(), fs[1], fs[6])
			}
			continue
		}
		if want >= NestedForcingChains2 && gr.Unfinished {
			// The 9x9 path may take a nested step past the sized node
			// budget (sforceBudget); the sized path then stops there.
			continue
		}
		cmp++
		if got := sizedGoldenLine(p, gr); got != l {
			t.Errorf("sized grade differs:\n got %s\nwant %s", got, l)
			continue
		}
		same++
	}
	t.Logf("%d of %d pinned grades within the sized techniques agree (whole path); %d of all unfinished", same, cmp, unfinished)
}

// TestSizedAgreesWithGrader grades a seeded sample of the rated set with
// both graders and compares ER, hardest technique and level wherever the
// 9x9 grade's hardest technique is implemented by the sized grader.
func TestSizedAgreesWithGrader(t *testing.T) {
	// The 9x9 grader takes seconds on the hardest puzzles;
	// TestSizedForcingAgreesWithGrader covers 7.5 to 9.0.
	lines := ratedLines(t, 0, 75)
	rng := rand.New(rand.NewPCG(26, 1))
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	n := 400
	if testing.Short() {
		n = 60
	}
	lines = lines[:min(n, len(lines))]
	var g9 Grader
	var g SizedGrader
	cmp, same := 0, 0
	for _, l := range lines {
		want, err := g9.Grade(mustSolveGrid(t, l))
		if err != nil {
			t.Fatal(err)
		}
		gr, err := g.GradeContext(context.Background(), mustSizedGrid(t, l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if !sizedImplemented(want.Hardest) {
			continue
		}
		cmp++
		if gr.ER != want.ER || gr.Hardest != want.Hardest || gr.Level != want.Level || gr.EP != want.EP || gr.ED != want.ED {
			t.Errorf("%s: sized %s/%s/%s %s, 9x9 %s/%s/%s %s", l, gr.ER, gr.EP, gr.ED, gr.Hardest.Slug(), want.ER, want.EP, want.ED, want.Hardest.Slug())
			continue
		}
		same++
	}
	t.Logf("%d of %d puzzles within the sized techniques agree on ER, EP, ED, hardest and level", same, cmp)
}

func mustSolveGrid(tb testing.TB, s string) solve.Grid {
	tb.Helper()
	p, err := solve.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func mustSizedGrid(tb testing.TB, s string) grid.Grid {
	tb.Helper()
	p, err := grid.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestSizedAgreesOnGenerated digs 9x9 puzzles with the 9x9 generator
// (minimal, and 24-30 givens, with and without symmetry) and compares
// both graders as TestSizedAgreesWithGrader does. A puzzle the sized
// grader leaves unfinished must need a technique it lacks: the 9x9
// grader, kept to nesting level 2 (the sized grader's deepest),
// either rates it with such a technique or leaves it unfinished too.
func TestSizedAgreesOnGenerated(t *testing.T) {
	n := 240
	if testing.Short() {
		n = 40
	}
	profiles := []gen.Profile{gen.MinimalProfile(gen.NoSymmetry), gen.MinimalProfile(gen.Rot180), gen.GivensProfile(24, 30, gen.NoSymmetry)}
	rng := rand.New(rand.NewPCG(26, 9))
	var d gen.Digger
	var g9 Grader
	g9.chains.maxLevel = 2 // as the sized grader's below
	g := SizedGrader{maxLevel: 2}
	cmp, same, unfinished := 0, 0, 0
	for i := 0; i < n; i++ {
		pz := d.Generate(profiles[i%len(profiles)], rng)
		gr, err := g.GradeContext(context.Background(), mustSizedGrid(t, pz.Grid.String()))
		if err != nil {
			t.Fatalf("%s: %v", pz.Grid, err)
		}
		want, err := g9.Grade(pz.Grid)
		if err != nil {
			t.Fatal(err)
		}
		if gr.Unfinished {
			unfinished++
		}
		if !sizedImplemented(want.Hardest) {
			if !gr.Unfinished {
				t.Errorf("%s: sized grade %s %s, 9x9 %s %s", pz.Grid, gr.ER, gr.Hardest.Slug(), want.ER, want.Hardest.Slug())
			}
			continue
		}
		cmp++
		if gr.ER != want.ER || gr.Hardest != want.Hardest || gr.Level != want.Level || gr.EP != want.EP || gr.ED != want.ED || len(gr.Steps) != want.Steps {
			t.Errorf("%s: sized %s/%s/%s %s, 9x9 %s/%s/%s %s", pz.Grid, gr.ER, gr.EP, gr.ED, gr.Hardest.Slug(), want.ER, want.EP, want.ED, want.Hardest.Slug())
			continue
		}
		same++
	}
	t.Logf("%d of %d generated puzzles within the sized techniques agree; %d of %d unfinished", same, cmp, unfinished, n)
}

// ratedLines returns, in file order, the puzzles of the development set
// (../shared/data/rated/dev_se.txt) whose SE rating is lo to hi, or
// skips the test when the shared data is absent.
func ratedLines(t *testing.T, lo, hi Rating) []string {
	t.Helper()
	var lines []string
	for _, l := range chainTestData(t) {
		if l.er >= lo && l.er <= hi {
			lines = append(lines, l.g.String())
		}
	}
	if len(lines) == 0 {
		t.Fatalf("no puzzle of the development set rated %s to %s", lo, hi)
	}
	return lines
}
