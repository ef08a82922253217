package pipeline_test

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/solve"
)

// TestSizedLevelGivensFall checks the per-level ranges of every size:
// a level the size reaches has a range of possible givens, and both ends
// fall (or stay) as the levels rise, so that Build's moves of a dig to
// its level's givens go one way.
func TestSizedLevelGivensFall(t *testing.T) {
	for _, s := range grid.Shapes {
		if s.N == 9 {
			continue
		}
		prevLo, prevHi := s.Cells(), s.Cells()
		for _, l := range pipeline.SizedLevels(s) {
			lo, hi := pipeline.SizedLevelGivens(s, l)
			if lo < 1 || hi < lo || hi >= s.Cells() {
				t.Errorf("%v %s: givens %d-%d, want 1 <= lo <= hi < %d", s, l, lo, hi, s.Cells())
			}
			if lo > prevLo || hi > prevHi {
				t.Errorf("%v %s: givens %d-%d, above the level before's %d-%d", s, l, lo, hi, prevLo, prevHi)
			}
			if dlo, dhi := pipeline.SizedGivens(s, l); dlo > 0 && (dlo != lo || dhi != hi) {
				t.Errorf("%v %s: dug to %d-%d, printed with %d-%d", s, l, dlo, dhi, lo, hi)
			}
			prevLo, prevHi = lo, hi
		}
	}
}

// A run of a size other than 9x9 without a givens range prints each
// level with its own givens (SizedLevelGivens), whatever level its dig
// aimed at, as TestBuildLevelGivens checks of 9x9: a dig graded at
// another level is given more givens or dug further and graded again,
// and its row stays true (one solution, the grade of its canonical form,
// its symmetry, minimal only if it is).
func TestSizedBuildLevelGivens(t *testing.T) {
	cases := []struct {
		n, items int
		levels   []grade.Level
	}{
		{n: 4, items: 20},
		{n: 6, items: 150},
		{n: 8, items: 150},
		{n: 12, items: 60},
		// 16x16 evil takes seconds a grade.
		{n: 16, items: 16, levels: []grade.Level{grade.ExtremelyEasy, grade.Easy, grade.Medium, grade.Difficult}},
	}
	ctx := context.Background()
	for _, c := range cases {
		s, err := grid.ShapeOf(c.n)
		if err != nil {
			t.Fatal(err)
		}
		for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Rot90} {
			if !sym.ValidFor(s) || testing.Short() && (c.n > 8 || sym != gen.NoSymmetry) {
				continue
			}
			t.Run(s.String()+"/"+sym.String(), func(t *testing.T) {
				b := pipeline.NewSizedBuilder(pipeline.BuildOptions{Shape: s, Symmetry: sym, Levels: c.levels})
				var v solve.Sized
				var d gen.SizedDigger
				var m gen.SizedMover
				g := grade.NewSized()
				kept, off := map[grade.Level]int{}, 0
				givens := map[grade.Level][]int{}
				for i := range uint64(c.items) {
					r := b.Build(ctx, pipeline.Item{Seed: 11, Index: i})
					if r.Reason == pipeline.OffLevel && c.levels != nil {
						continue
					}
					if r.Reason != pipeline.Kept {
						t.Fatalf("item %d: %v %v", i, r.Reason, r.Err)
					}
					nf := r.Value
					p, err := grid.Parse(nf.Puzzles[0].Puzzle)
					if err != nil {
						t.Fatal(err)
					}
					l := grade.Level(nf.Level)
					kept[l]++
					givens[l] = append(givens[l], nf.Givens)
					if p.Givens() != nf.Givens {
						t.Errorf("item %d: %s has %d givens, the row %d", i, p, p.Givens(), nf.Givens)
					}
					// A dig above its level's range that no orbit of its
					// symmetry can leave keeps its givens; no other.
					if lo, hi := pipeline.SizedLevelGivens(s, l); nf.Givens < lo || nf.Givens > hi {
						off++
						sol, err := grid.Parse(nf.Puzzles[0].Solution)
						if err != nil {
							t.Fatal(err)
						}
						again := m.Redig(gen.SizedPuzzle{Grid: p, Solution: sol, Symmetry: sym}, 0, 0, rand.New(rand.NewPCG(1, 2)))
						if nf.Givens < lo || !again.Grid.Equal(p) {
							t.Errorf("item %d: %s %s has %d givens, outside %d-%d, and could be dug further", i, l, p, nf.Givens, lo, hi)
						}
					}
					if v.Count(p, 2) != 1 {
						t.Errorf("item %d: %s has other than one solution", i, p)
					}
					canon, err := grid.Parse(nf.Canon)
					if err != nil {
						t.Fatal(err)
					}
					gr, err := g.GradeContext(ctx, canon)
					if err != nil {
						t.Fatal(err)
					}
					if gr.Level != l || int(gr.ER) != nf.ER {
						t.Errorf("item %d: stored %s ER %d, graded %s ER %d", i, l, nf.ER, gr.Level, gr.ER)
					}
					if !sym.HoldsSized(p) {
						t.Errorf("item %d: %s lost its %s symmetry", i, p, sym)
					}
					if nf.Minimal != d.IsMinimal(p) {
						t.Errorf("item %d: %s stored minimal %v", i, p, nf.Minimal)
					}
				}
				var sb strings.Builder
				for _, l := range slices.Sorted(maps.Keys(givens)) {
					fmt.Fprintf(&sb, " %s %d-%d", l, slices.Min(givens[l]), slices.Max(givens[l]))
				}
				t.Logf("kept by level: %v; %d above their level's givens, dug as far as their symmetry allows; givens%s", kept, off, sb.String())
				if len(kept) < min(2, len(pipeline.SizedLevels(s))) {
					t.Errorf("levels kept %v, want two or more", kept)
				}
			})
		}
	}
}

var sizedSurvey = flag.Int("sizedsurvey", 0, "TestSizedGivensSurvey: digs per size and aimed level (0 skips the survey)")

// TestSizedGivensSurvey prints, for each size other than 9x9 and each
// level a dig aims at (SizedGivens), the givens of the digs the grader
// gives each level, before Build moves them: the data the print ranges
// of SizedPrintGivens were chosen from. 16x16 and 25x25 grades stop above
// difficult, so their "evil" is anything harder.
//
//	go test ./pipeline -run SizedGivensSurvey -sizedsurvey 300 -v
func TestSizedGivensSurvey(t *testing.T) {
	if *sizedSurvey == 0 {
		t.Skip("run with -sizedsurvey N")
	}
	ctx := context.Background()
	for _, s := range grid.Shapes {
		if s.N == 9 || s.N == 4 {
			continue // 9x9 has TestGivensSurvey; 4x4 has one level
		}
		n := *sizedSurvey
		ceiling := grade.Rating(0)
		if s.N >= 16 {
			n = max(1, n/10)
			ceiling = grade.Levels[grade.Difficult-1].MaxER
		}
		if s.N == 25 {
			n = max(1, n/5)
		}
		var d gen.SizedDigger
		g := grade.NewSized()
		var sb strings.Builder
		fmt.Fprintf(&sb, "%dx%d, %d digs an aim: aim -> level: digs min p10 median p90 max givens\n", s.N, s.N, n)
		for _, aim := range pipeline.SizedLevels(s) {
			p := gen.MinimalProfile(gen.NoSymmetry)
			if lo, hi := pipeline.SizedGivens(s, aim); lo > 0 {
				p = gen.GivensProfile(lo, hi, gen.NoSymmetry)
			}
			var givens [grade.Evil + 1][]int
			for i := range n {
				pz, err := d.GenerateContext(ctx, s, p, pipeline.Item{Seed: uint64(10*s.N) + uint64(aim), Index: uint64(i)}.Rand())
				if err != nil {
					t.Fatal(err)
				}
				c, _ := gen.SizedCanon(pz.Grid)
				gr, _, err := g.GradeWithinContext(ctx, c, grade.Bounds{Ceiling: ceiling})
				if err != nil {
					t.Fatal(err)
				}
				givens[gr.Level] = append(givens[gr.Level], pz.Grid.Givens())
			}
			for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
				v := givens[l]
				if len(v) == 0 {
					continue
				}
				slices.Sort(v)
				q := func(f float64) int { return v[int(f*float64(len(v)-1)+0.5)] }
				fmt.Fprintf(&sb, "  %-14s -> %-14s %5d  %4d %4d %4d %4d %4d\n", aim, l, len(v), v[0], q(0.1), q(0.5), q(0.9), v[len(v)-1])
			}
		}
		t.Log("\n" + sb.String())
	}
}
