package pipeline_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

func TestProfileFor(t *testing.T) {
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		for _, name := range []string{"none", "rot180", "diagonal"} {
			sym, err := gen.ParseSymmetry(name)
			if err != nil {
				t.Fatal(err)
			}
			p := pipeline.ProfileFor(l, sym)
			if err := p.Validate(); err != nil || p.Symmetry != sym {
				t.Errorf("ProfileFor(%s, %s) = %+v, %v", l, sym, p, err)
			}
		}
	}
}

func TestBuild(t *testing.T) {
	b := pipeline.NewBuilder(pipeline.BuildOptions{Variants: 5})
	for i := range uint64(20) {
		it := pipeline.Item{Seed: 3, Index: i}
		r := b.Build(context.Background(), it)
		if r.Reason == pipeline.OffGivens {
			continue // graded past its level's givens (TestBuildLevelGivens)
		}
		if r.Reason != pipeline.Kept {
			t.Fatalf("item %d: %v %v", i, r.Reason, r.Err)
		}
		nf := r.Value
		if got, want := len(nf.Puzzles), 6; got != want || r.Puzzles != want {
			t.Fatalf("item %d: %d puzzles, want %d", i, got, want)
		}
		canon := solve.GridOf(nf.Canon)
		if got := pipeline.Hash(canon); got != r.Hash {
			t.Errorf("item %d: hash %x, want %x", i, r.Hash, got)
		}
		// The stored path is the grade's sequence, and holds its counts.
		gr, err := grade.Rate(canon)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := store.PathSteps(nf.Path)
		if err != nil {
			t.Fatalf("item %d: path %q: %v", i, nf.Path, err)
		}
		counts := map[string]int{}
		for j, s := range steps {
			counts[s]++
			if j < len(gr.Path) && s != gr.Path[j].Technique.Slug() {
				t.Errorf("item %d: step %d is %s, want %s", i, j, s, gr.Path[j].Technique.Slug())
			}
		}
		if !maps.Equal(counts, gr.UseCounts()) || nf.Techniques != nil {
			t.Errorf("item %d: path %q counts %v (and Techniques %v), want %v", i, nf.Path, counts, nf.Techniques, gr.UseCounts())
		}
		seen := map[string]bool{}
		for _, p := range nf.Puzzles {
			g, err := solve.Parse(p.Puzzle)
			if err != nil {
				t.Fatal(err)
			}
			if seen[p.Puzzle] {
				t.Errorf("item %d: puzzle %s twice", i, p.Puzzle)
			}
			seen[p.Puzzle] = true
			if c, _ := gen.Canon(g); c != canon {
				t.Errorf("item %d: puzzle %s is not of the family", i, p.Puzzle)
			}
			if sol, ok := solve.Solve(g); !ok || sol.String() != p.Solution {
				t.Errorf("item %d: puzzle %s: solution %s, want %s", i, p.Puzzle, p.Solution, sol)
			}
			tr, err := gen.ParseTransform(p.Transform)
			if err != nil || tr.Apply(canon) != g {
				t.Errorf("item %d: transform %q does not take the canonical form to %s (%v)", i, p.Transform, p.Puzzle, err)
			}
		}
		if again := pipeline.NewBuilder(pipeline.BuildOptions{Variants: 5}).Build(context.Background(), it); again.Value.Canon != nf.Canon ||
			again.Value.Puzzles[5] != nf.Puzzles[5] {
			t.Errorf("item %d: a second build differs", i)
		}
	}
}

func TestBuildSkipsKnownFamilies(t *testing.T) {
	it := pipeline.Item{Seed: 4, Index: 2}
	r := pipeline.NewBuilder(pipeline.BuildOptions{}).Build(context.Background(), it)
	seen := pipeline.NewSeen([]uint64{r.Hash})
	if got := pipeline.NewBuilder(pipeline.BuildOptions{Seen: seen}).Build(context.Background(), it); got.Reason != pipeline.Duplicate {
		t.Errorf("a family in the bank: reason %v, want duplicate", got.Reason)
	}
}

// TestBuildVariantsKeepSymmetry checks that each family built with a
// symmetry stores 1+K puzzles that all have the symmetry its row names,
// and that each is its transform of the canonical form.
func TestBuildVariantsKeepSymmetry(t *testing.T) {
	const k = 20
	for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Rot90, gen.Mirror, gen.Flip, gen.Diagonal, gen.Antidiagonal} {
		t.Run(sym.String(), func(t *testing.T) {
			b := pipeline.NewBuilder(pipeline.BuildOptions{Symmetry: sym, Variants: k})
			for i := range uint64(5) {
				r := b.Build(context.Background(), pipeline.Item{Seed: 21, Index: i})
				if r.Reason != pipeline.Kept {
					continue
				}
				nf := r.Value
				if len(nf.Puzzles) != 1+k {
					t.Errorf("item %d: %d puzzles, want %d", i, len(nf.Puzzles), 1+k)
				}
				canon := solve.GridOf(nf.Canon)
				for _, p := range nf.Puzzles {
					g := solve.GridOf(p.Puzzle)
					if got := gen.DetectSymmetry(g).String(); got != nf.Symmetry {
						t.Errorf("item %d: puzzle %s has %s, its family says %s", i, p.Puzzle, got, nf.Symmetry)
					}
					if !sym.Holds(g) {
						t.Errorf("item %d: puzzle %s has not the run's %s", i, p.Puzzle, sym)
					}
					if tr, err := gen.ParseTransform(p.Transform); err != nil || tr.Apply(canon) != g {
						t.Errorf("item %d: transform %q does not take the canonical form to %s (%v)", i, p.Transform, p.Puzzle, err)
					}
				}
			}
		})
	}
}

// TestDefaultGivensReachable checks that a run aiming at one level with
// its default givens makes that level, with givens in its range, within
// a bounded number of items.
func TestDefaultGivensReachable(t *testing.T) {
	const items = 400 // the rarest, medium, was 8-10% of digs in TestGivensSurvey
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		t.Run(l.String(), func(t *testing.T) {
			lo, hi := pipeline.DefaultGivens(l)
			if lo < 17 || hi > 80 || lo > hi {
				t.Fatalf("DefaultGivens(%s) = %d-%d", l, lo, hi)
			}
			b := pipeline.NewBuilder(pipeline.BuildOptions{Levels: []grade.Level{l}})
			for i := range uint64(items) {
				r := b.Build(context.Background(), pipeline.Item{Seed: 12, Index: i})
				if r.Reason != pipeline.Kept {
					continue
				}
				if g := r.Value.Givens; g >= lo && g <= hi {
					return
				}
			}
			t.Errorf("no %s family with %d-%d givens in %d items", l, lo, hi, items)
		})
	}
}

// TestBuildStoresEveryVariant checks that a family gets exactly the
// variants asked for, up to MaxVariants: the bound on the draws used to
// shrink as variants were found, and stored 180 of 200.
func TestBuildStoresEveryVariant(t *testing.T) {
	for _, k := range []int{200, pipeline.MaxVariants} {
		for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot90} {
			t.Run(fmt.Sprintf("%d/%s", k, sym), func(t *testing.T) {
				b := pipeline.NewBuilder(pipeline.BuildOptions{Symmetry: sym, Variants: k})
				r := b.Build(context.Background(), pipeline.Item{Seed: 5, Index: 0})
				if r.Reason != pipeline.Kept {
					t.Fatalf("item 0: %v %v", r.Reason, r.Err)
				}
				seen := map[string]bool{}
				for _, p := range r.Value.Puzzles {
					seen[p.Puzzle] = true
				}
				if got, want := len(seen), 1+k; got != want || r.Puzzles != want {
					t.Errorf("%d distinct puzzles (%d counted), want %d", got, r.Puzzles, want)
				}
			})
		}
	}
}

func TestGenerateRefusesTooManyVariants(t *testing.T) {
	for _, k := range []int{-1, pipeline.MaxVariants + 1} {
		_, err := pipeline.Generate(context.Background(), nil, pipeline.GenerateConfig{BuildOptions: pipeline.BuildOptions{Variants: k}})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprint(pipeline.MaxVariants)) {
			t.Errorf("Generate with %d variants: %v, want an error naming the limit %d", k, err, pipeline.MaxVariants)
		}
	}
}

// TestBuildGivensRange checks that a build with a givens range keeps only
// puzzles with that many givens, whatever level it aims at, and skips the
// rest as OffGivens.
func TestBuildGivensRange(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi int
		sym    gen.Symmetry
	}{
		{"Easy", 30, 38, gen.NoSymmetry},
		{"Narrow", 25, 25, gen.NoSymmetry},
		{"Rot90", 28, 29, gen.Rot90},
		{"BelowMinimal", 17, 19, gen.NoSymmetry},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := pipeline.NewBuilder(pipeline.BuildOptions{MinGivens: tt.lo, MaxGivens: tt.hi, Symmetry: tt.sym, Variants: 2})
			kept := 0
			for i := range uint64(40) {
				r := b.Build(context.Background(), pipeline.Item{Seed: 5, Index: i})
				switch r.Reason {
				case pipeline.Kept:
					kept++
					for _, p := range r.Value.Puzzles {
						g, err := solve.Parse(p.Puzzle)
						if err != nil {
							t.Fatal(err)
						}
						if n := g.Givens(); n < tt.lo || n > tt.hi {
							t.Errorf("item %d: puzzle %s has %d givens, want %d-%d", i, p.Puzzle, n, tt.lo, tt.hi)
						}
					}
				case pipeline.OffGivens:
				default:
					t.Errorf("item %d: %v %v", i, r.Reason, r.Err)
				}
			}
			t.Logf("%d of 40 kept", kept)
		})
	}
}

// TestBuildTarget checks that a build with a rating or technique target
// keeps only families that meet it, and skips the rest as OffTarget.
func TestBuildTarget(t *testing.T) {
	tests := []struct {
		name string
		o    pipeline.BuildOptions
		meet func(gr *grade.Grade) bool
	}{
		{"Rating", pipeline.BuildOptions{RatingMin: 25, RatingMax: 45}, func(gr *grade.Grade) bool { return gr.ER >= 25 && gr.ER <= 45 }},
		{"RatingOpenTop", pipeline.BuildOptions{RatingMin: 40}, func(gr *grade.Grade) bool { return gr.ER >= 40 }},
		{"RatingOpenBottom", pipeline.BuildOptions{RatingMax: 20}, func(gr *grade.Grade) bool { return gr.ER <= 20 }},
		{"Hardest", pipeline.BuildOptions{Hardest: []grade.Technique{grade.Pointing, grade.Claiming}}, func(gr *grade.Grade) bool {
			return gr.Hardest == grade.Pointing || gr.Hardest == grade.Claiming
		}},
		{"Uses", pipeline.BuildOptions{Uses: []grade.Technique{grade.NakedPair}}, func(gr *grade.Grade) bool { return gr.Uses[grade.NakedPair] > 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Fresh digs alone: TestSearchMeetsTarget checks the search.
			tt.o.NoSearch = true
			b := pipeline.NewBuilder(tt.o)
			var g grade.Grader
			kept, off := 0, 0
			for i := range uint64(60) {
				r := b.Build(context.Background(), pipeline.Item{Seed: 3, Index: i})
				switch r.Reason {
				case pipeline.Kept:
					kept++
					gr, err := g.Grade(solve.GridOf(r.Value.Canon))
					if err != nil {
						t.Fatal(err)
					}
					if !tt.meet(&gr) || !tt.o.Meets(&gr) {
						t.Errorf("item %d: kept %s, rated %s, hardest %s: misses the target", i, r.Value.Canon, gr.ER, gr.Hardest.Slug())
					}
				case pipeline.OffTarget:
					off++
				case pipeline.OffGivens: // graded past its level's givens
				default:
					t.Errorf("item %d: %v %v", i, r.Reason, r.Err)
				}
			}
			if kept == 0 {
				t.Errorf("no family of 60 kept (%d off target)", off)
			}
		})
	}
}

func TestTargetString(t *testing.T) {
	tests := []struct {
		o    pipeline.BuildOptions
		want string
	}{
		{pipeline.BuildOptions{}, ""},
		{pipeline.BuildOptions{RatingMin: 90}, "rated 9.0 or more"},
		{pipeline.BuildOptions{RatingMax: 75}, "rated 7.5 or less"},
		{pipeline.BuildOptions{RatingMin: 70, RatingMax: 74, Hardest: []grade.Technique{grade.XWing, grade.Swordfish}},
			"rated 7.0-7.4, whose hardest step is x-wing or swordfish"},
		{pipeline.BuildOptions{Uses: []grade.Technique{grade.AIC}}, "using aic"},
	}
	for _, tt := range tests {
		if got := tt.o.TargetString(); got != tt.want {
			t.Errorf("TargetString() = %q, want %q", got, tt.want)
		}
		if got := tt.o.Targeted(); got != (tt.want != "") {
			t.Errorf("%q: Targeted() = %v", tt.want, got)
		}
	}
}

// TestBuildSinglesLevels checks that a run wanting neither extremely easy
// nor easy families, which drops the digs singles solve ungraded, reports
// of every item the level a run grading it in full reports, and of every
// family it keeps the hash: both runs dig the same puzzles, aimed at
// either of two levels with the evil profile. (A dropped dig has no hash:
// its canonical form is not made.)
func TestBuildSinglesLevels(t *testing.T) {
	evil := func(_ grade.Level, sym gen.Symmetry) gen.Profile { return pipeline.ProfileFor(grade.Evil, sym) }
	drops := pipeline.NewBuilder(pipeline.BuildOptions{Levels: []grade.Level{grade.Medium, grade.Evil}, Profiles: evil})
	grades := pipeline.NewBuilder(pipeline.BuildOptions{Levels: []grade.Level{grade.ExtremelyEasy, grade.Easy}, Profiles: evil})
	n := uint64(300)
	if testing.Short() {
		n = 60
	}
	var seen [grade.Evil + 1]int
	for i := range n {
		it := pipeline.Item{Seed: 28, Index: i}
		r1, r2 := drops.Build(context.Background(), it), grades.Build(context.Background(), it)
		if r1.Reason == pipeline.Kept && r1.Hash != r2.Hash || r1.Level != r2.Level {
			t.Fatalf("item %d: %v level %s hash %x, graded in full %v level %s hash %x", i, r1.Reason, r1.Level, r1.Hash, r2.Reason, r2.Level, r2.Hash)
		}
		wantKept := r1.Level == grade.Medium || r1.Level == grade.Evil
		if got := r1.Reason == pipeline.Kept; got != wantKept {
			t.Errorf("item %d: level %s, %v", i, r1.Level, r1.Reason)
		}
		seen[r1.Level]++
	}
	if seen[grade.ExtremelyEasy] == 0 || seen[grade.Easy] == 0 {
		t.Errorf("levels %v: no extremely easy or no easy dig to drop", seen)
	}
}

// TestBuildSinglesInBank checks that a run dropping the digs singles
// solve still reports such a dig as a Duplicate where the bank holds it,
// as a run grading it does, and as an unwanted level where the bank holds
// only others.
func TestBuildSinglesInBank(t *testing.T) {
	evil := func(_ grade.Level, sym gen.Symmetry) gen.Profile { return pipeline.ProfileFor(grade.Evil, sym) }
	grades := pipeline.NewBuilder(pipeline.BuildOptions{Levels: []grade.Level{grade.ExtremelyEasy, grade.Easy}, Profiles: evil})
	var easy []pipeline.Item
	var hashes []uint64
	for i := range uint64(40) {
		it := pipeline.Item{Seed: 29, Index: i}
		if r := grades.Build(context.Background(), it); r.Reason == pipeline.Kept {
			easy = append(easy, it)
			hashes = append(hashes, r.Hash)
		}
	}
	if len(easy) < 2 {
		t.Fatalf("%d easy digs in 40 items, want 2 or more", len(easy))
	}
	// The bank holds every easy dig but the last.
	last := len(easy) - 1
	drops := pipeline.NewBuilder(pipeline.BuildOptions{Levels: []grade.Level{grade.Evil}, Profiles: evil,
		Seen: pipeline.NewSeen(slices.Clone(hashes[:last]))})
	for i, it := range easy {
		want := pipeline.Duplicate
		if i == last {
			want = pipeline.OffLevel
		}
		if r := drops.Build(context.Background(), it); r.Reason != want {
			t.Errorf("item %d: %v, want %v", it.Index, r.Reason, want)
		}
	}
}

// TestSinglesLevelTurned checks what lets a run ask grade.SinglesLevel of
// a dig before its canonical form is made: the answer is the same for
// every turn and relabelling of a puzzle.
func TestSinglesLevelTurned(t *testing.T) {
	var d gen.Digger
	n := uint64(400)
	if testing.Short() {
		n = 100
	}
	solved := 0
	for i := range n {
		rng := pipeline.Item{Seed: 30, Index: i}.Rand()
		pz := d.Generate(pipeline.ProfileFor(grade.Evil, gen.NoSymmetry), rng)
		l, ok := grade.SinglesLevel(&pz.Grid)
		if ok {
			solved++
		}
		for range 8 {
			g := gen.RandomTransform(rng).Apply(pz.Grid)
			if l2, ok2 := grade.SinglesLevel(&g); l2 != l || ok2 != ok {
				t.Fatalf("%v: %s %v, turned %v: %s %v", pz.Grid, l, ok, g, l2, ok2)
			}
		}
	}
	if solved == 0 || solved == int(n) {
		t.Errorf("singles solve %d of %d digs, want some and not all", solved, n)
	}
}

// A run without a givens range prints each level with its own givens,
// whatever level its dig aimed at: a dig graded easier than its aim is
// given more givens and graded again, and its row stays true (one
// solution, the grade of its canonical form, minimal only if it is).
func TestBuildLevelGivens(t *testing.T) {
	for _, sym := range []gen.Symmetry{gen.NoSymmetry, gen.Rot180, gen.Rot90} {
		t.Run(sym.String(), func(t *testing.T) {
			b := pipeline.NewBuilder(pipeline.BuildOptions{Symmetry: sym})
			kept, off := map[grade.Level]int{}, 0
			for i := range uint64(120) {
				r := b.Build(context.Background(), pipeline.Item{Seed: 11, Index: i})
				switch r.Reason {
				case pipeline.Kept:
				default:
					t.Fatalf("item %d: %v %v", i, r.Reason, r.Err)
				}
				nf := r.Value
				g, err := solve.Parse(nf.Puzzles[0].Puzzle)
				if err != nil {
					t.Fatal(err)
				}
				l := grade.Level(nf.Level)
				kept[l]++
				if g.Givens() != nf.Givens {
					t.Errorf("item %d: %s has %d givens, the row %d", i, g, g.Givens(), nf.Givens)
				}
				// A dig above its level's range that no orbit of its
				// symmetry can leave keeps its givens; no other.
				if lo, hi := pipeline.DefaultGivens(l); nf.Givens < lo || nf.Givens > hi {
					off++
					sol, err := solve.Parse(nf.Puzzles[0].Solution)
					if err != nil {
						t.Fatal(err)
					}
					var m gen.Mover
					if again := m.Redig(gen.Puzzle{Grid: g, Solution: sol, Symmetry: sym}, 0, 0, rand.New(rand.NewPCG(1, 2))); nf.Givens < lo || again.Grid != g {
						t.Errorf("item %d: %s %s has %d givens, outside %d-%d, and could be dug further", i, l, g, nf.Givens, lo, hi)
					}
				}
				if solve.Count(g, 2) != 1 {
					t.Errorf("item %d: %s has other than one solution", i, g)
				}
				gr, err := grade.Rate(solve.GridOf(nf.Canon))
				if err != nil {
					t.Fatal(err)
				}
				if gr.Level != l || int(gr.ER) != nf.ER {
					t.Errorf("item %d: stored %s ER %d, graded %s ER %d", i, l, nf.ER, gr.Level, gr.ER)
				}
				if !sym.Holds(g) {
					t.Errorf("item %d: %s lost its %s symmetry", i, g, sym)
				}
				if nf.Minimal != gen.IsMinimal(g) {
					t.Errorf("item %d: %s stored minimal %v", i, g, nf.Minimal)
				}
			}
			t.Logf("kept by level: %v; %d above their level's givens, dug as far as their symmetry allows", kept, off)
			for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
				if kept[l] == 0 {
					t.Errorf("no %s family of 120 items", l)
				}
			}
		})
	}
}
