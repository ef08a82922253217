package grade

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"sudokubank/gen"
	"sudokubank/grid"
)

// TestSizedNestedAgreesWithGrader grades the rated 9.5-10.5 puzzles of
// the development set whose 9x9 path, with nesting up to level 2, is
// finished: the sized grader, which stops at level 2 too, must give the
// same path and ER.
func TestSizedNestedAgreesWithGrader(t *testing.T) {
	lines := ratedLines(t, 95, 105)
	rng := rand.New(rand.NewPCG(26, 95))
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	if testing.Short() {
		lines = lines[:min(4, len(lines))]
	}
	var g9 Grader
	g9.chains.maxLevel = 2
	g := SizedGrader{maxLevel: 2}
	nested := 0
	for _, l := range lines {
		p := mustSolveGrid(t, l)
		want, err := g9.Grade(p)
		if err != nil {
			t.Fatal(err)
		}
		if want.Unfinished {
			continue // needs a deeper level
		}
		if want.Uses[NestedForcingChains2] > 0 {
			nested++
		}
		gr, err := g.GradeContext(context.Background(), mustSizedGrid(t, l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if got, want := sizedGoldenLine(p, gr), gradesGoldenLine(p, want); got != want {
			t.Errorf("sized grade differs:\n got %s\nwant %s", got, want)
		}
	}
	if nested == 0 {
		t.Fatal("no puzzle compared uses nested forcing chains")
	}
	t.Logf("%d rated 9.5-10.5 puzzles; %d finished at level 2 use nested forcing chains", len(lines), nested)
}

// TestSizedNestedBounds grades puzzles that need nested forcing chains
// with and without the bounds of the inner searches (sforce.newStrong,
// sforce.chainStarts and, at level 3, sforce.staticSkips):
// they only skip searches that conclude nothing, so the grades (path
// included) are the same. The 16x16 puzzle (seed 40 of the minimal
// sample) is left out with -short.
func TestSizedNestedBounds(t *testing.T) {
	puzzles := []string{
		"1.......2.9.4...5...6...7...5.9.3.......7.......8...4.7.....6...3...9.8...2.3...1",
		"98.7..6..7..5.......4.8..7.4...3..9...8..52....3.....1.4..9..8....2....6......1..",
		// Needs nested multiple forcing chains (level 3).
		"........1....23.....24...3...3.4..5..6......78..9..1....5..4.9..7.5..8..6...9...5",
	}
	if !testing.Short() {
		s, err := grid.ShapeOf(16)
		if err != nil {
			t.Fatal(err)
		}
		var d gen.SizedDigger
		pz, err := d.GenerateContext(context.Background(), s, gen.MinimalProfile(gen.NoSymmetry), rand.New(rand.NewPCG(40, 16)))
		if err != nil {
			t.Fatal(err)
		}
		puzzles = append(puzzles, pz.Grid.String())
	}
	for _, l := range puzzles {
		p := mustSizedGrid(t, l)
		var got [2]SizedGrade
		for i, exhaustive := range []bool{false, true} {
			g := SizedGrader{nestExhaustive: exhaustive}
			gr, err := g.GradeContext(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = gr
		}
		if got[0].Uses[NestedForcingChains2] == 0 {
			t.Errorf("%s: no nested forcing chain in the path", l)
		}
		if a, b := sizedGradeSummary(got[0]), sizedGradeSummary(got[1]); a != b {
			t.Errorf("%s: bounded and exhaustive grades differ:\n bounded    %s\n exhaustive %s", l, a, b)
		}
	}
}

// sizedGradeSummary writes a sized grade's ratings and whole path.
func sizedGradeSummary(gr SizedGrade) string {
	return fmt.Sprintf("%s %s %s %v %v", gr.ER, gr.EP, gr.ED, gr.Unfinished, gr.Steps)
}

// TestSizedDeepNestedAgreesWithGrader grades rated 10.0+ puzzles of the
// development set with both graders kept to nesting level 4 (the sized
// grader's deepest): wherever the 9x9 path uses nested multiple or
// dynamic forcing chains, the sized one must be the same, whole path and
// ER included.
func TestSizedDeepNestedAgreesWithGrader(t *testing.T) {
	lines := ratedLines(t, 100, 120)
	rng := rand.New(rand.NewPCG(26, 100))
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	n := 16
	if testing.Short() {
		n = 2
	}
	lines = lines[:min(n, len(lines))]
	var g9 Grader
	g9.chains.maxLevel = 4
	g := SizedGrader{maxLevel: 4}
	deep := 0
	for _, l := range lines {
		p := mustSolveGrid(t, l)
		want, err := g9.Grade(p)
		if err != nil {
			t.Fatal(err)
		}
		if want.Uses[NestedForcingChains3]+want.Uses[NestedForcingChains4] > 0 {
			deep++
		}
		gr, err := g.GradeContext(context.Background(), mustSizedGrid(t, l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if got, want := sizedGoldenLine(p, gr), gradesGoldenLine(p, want); got != want {
			t.Errorf("sized grade differs:\n got %s\nwant %s", got, want)
		}
	}
	if deep == 0 {
		t.Fatal("no puzzle compared uses nested chains of level 3 or 4")
	}
	t.Logf("%d rated 10.0+ puzzles; %d use nested chains of level 3 or 4", len(lines), deep)
}

// TestSizedNested4AgreesWithGrader grades a puzzle whose path needs
// nested dynamic forcing chains (level 4: levels 2 and 3 find nothing
// at some step) with both graders: the whole path and ER must be the
// same. It takes some seconds, so -short skips it.
func TestSizedNested4AgreesWithGrader(t *testing.T) {
	if testing.Short() {
		t.Skip("grades a level 4 puzzle twice")
	}
	l := chainNested4Sources[0]
	p := mustSolveGrid(t, l)
	var g9 Grader
	g9.chains.maxLevel = 4
	want, err := g9.Grade(p)
	if err != nil {
		t.Fatal(err)
	}
	gr, err := (&SizedGrader{maxLevel: 4}).GradeContext(context.Background(), mustSizedGrid(t, l))
	if err != nil {
		t.Fatal(err)
	}
	if gr.Uses[NestedForcingChains4] == 0 {
		t.Errorf("%s: no nested dynamic forcing chain in the sized path", l)
	}
	if got, want := sizedGoldenLine(p, gr), gradesGoldenLine(p, want); got != want {
		t.Errorf("sized grade differs:\n got %s\nwant %s", got, want)
	}
}

// TestSizedNestedBudget grades a puzzle that needs nested forcing chains
// with node budgets too small for them: a producer call stops once its
// nodes pass the budget, the nodes of its inner searches counted as they
// are visited, so it never runs far past it (on 25x25 an inner search
// charged only when it ends could take minutes).
func TestSizedNestedBudget(t *testing.T) {
	ctx := context.Background()
	p := mustSizedGrid(t, "98.7..6..7..5.......4.8..7.4...3..9...8..52....3.....1.4..9..8....2....6......1..")
	var g SizedGrader
	if _, err := g.GradeContext(ctx, p); err != nil {
		t.Fatal(err)
	}
	f := g.force
	slack := 4 * f.nk // the inner search from one start, or two reaches
	nested := 0
	for b := 10_000; b < 200_000; b += 10_000 {
		f.budget = b
		gr, err := g.GradeContext(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if !f.over {
			continue
		}
		if f.level >= 2 {
			nested++
		}
		if !gr.Unfinished {
			t.Errorf("budget %d: over, but the grade is finished", b)
		}
		if f.spent > b+slack {
			t.Errorf("budget %d: the %s call spent %d nodes", b, f.tech.Slug(), f.spent)
		}
	}
	if nested == 0 {
		t.Fatal("no budget stopped a nested producer call")
	}
}
