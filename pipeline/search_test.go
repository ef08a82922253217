package pipeline_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

// families returns the families of a result: its own and its More.
func families(r pipeline.Result[store.NewFamily]) []pipeline.Result[store.NewFamily] {
	if r.Reason != pipeline.Kept {
		return nil
	}
	return append([]pipeline.Result[store.NewFamily]{r}, r.More...)
}

func TestSearches(t *testing.T) {
	tests := []struct {
		name string
		o    pipeline.BuildOptions
		want bool
	}{
		{"All", pipeline.BuildOptions{}, false},
		{"Rating7", pipeline.BuildOptions{RatingMin: 70}, false},
		{"Rating75", pipeline.BuildOptions{RatingMin: 75}, true},
		{"Rating9", pipeline.BuildOptions{RatingMin: 90, RatingMax: 95}, true},
		{"Technique", pipeline.BuildOptions{Hardest: []grade.Technique{grade.XWing}}, true},
		{"TechniqueAny", pipeline.BuildOptions{Uses: []grade.Technique{grade.Pointing}}, true},
		{"Evil", pipeline.BuildOptions{Levels: []grade.Level{grade.Evil}}, false},
		{"EvilRated", pipeline.BuildOptions{Levels: []grade.Level{grade.Evil}, RatingMin: 80}, true},
		{"EvilAndDifficult", pipeline.BuildOptions{Levels: []grade.Level{grade.Difficult, grade.Evil}}, false},
		{"Off", pipeline.BuildOptions{RatingMin: 90, NoSearch: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.o.Searches(); got != tt.want {
				t.Errorf("Searches() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSearchMeetsTarget checks every family a searching item makes: it
// meets the target when graded afresh, keeps the run's symmetry in each
// of its puzzles, has its variants, and is a family no other of the
// item's is.
func TestSearchMeetsTarget(t *testing.T) {
	tests := []struct {
		name  string
		o     pipeline.BuildOptions
		items uint64
	}{
		{"XWing", pipeline.BuildOptions{Hardest: []grade.Technique{grade.XWing}, Variants: 1}, 30},
		{"XWingRot180", pipeline.BuildOptions{Hardest: []grade.Technique{grade.XWing}, Symmetry: gen.Rot180, Variants: 2}, 30},
		{"UsesXYWingMirror", pipeline.BuildOptions{Uses: []grade.Technique{grade.XYWing}, Symmetry: gen.Mirror}, 4},
		{"Rating", pipeline.BuildOptions{RatingMin: 75, RatingMax: 84, SearchStall: 32}, 6},
		{"EvilGivens", pipeline.BuildOptions{Levels: []grade.Level{grade.Evil}, RatingMin: 75, MinGivens: 24, MaxGivens: 26, SearchStall: 16}, 3},
		// The rarest hardest techniques, which a walk reaches by their
		// near misses: an x-cycle is the hardest step of 1 fresh dig in
		// 2,500, a jellyfish of 1 in 10,000.
		{"XCycle", pipeline.BuildOptions{Hardest: []grade.Technique{grade.XCycle}, Variants: 1}, 8},
		{"Jellyfish", pipeline.BuildOptions{Hardest: []grade.Technique{grade.Jellyfish}, Variants: 1}, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.o.Searches() {
				t.Fatal("the options do not search")
			}
			b := pipeline.NewBuilder(tt.o)
			var g grade.Grader
			kept := 0
			for i := range tt.items {
				r := b.Build(context.Background(), pipeline.Item{Seed: 8, Index: i})
				if r.Reason != pipeline.Kept && r.Reason != pipeline.OffTarget && r.Reason != pipeline.OffLevel && r.Reason != pipeline.OffGivens {
					t.Fatalf("item %d: %v %v", i, r.Reason, r.Err)
				}
				hashes := map[uint64]bool{}
				for _, f := range families(r) {
					kept++
					nf := f.Value
					canon := solve.GridOf(nf.Canon)
					if hashes[f.Hash] || f.Hash != pipeline.Hash(canon) {
						t.Errorf("item %d: family %s twice, or its hash is not its canonical form's", i, nf.Canon)
					}
					hashes[f.Hash] = true
					gr, err := g.Grade(canon)
					if err != nil {
						t.Fatal(err)
					}
					if !tt.o.Meets(&gr) || len(tt.o.Levels) > 0 && gr.Level != grade.Evil || int(gr.ER) != nf.ER || f.Level != gr.Level {
						t.Errorf("item %d: kept %s, rated %s (stored %d), level %v, hardest %s: misses the target", i, nf.Canon, gr.ER, nf.ER, gr.Level, gr.Hardest.Slug())
					}
					if len(nf.Puzzles) != 1+tt.o.Variants {
						t.Errorf("item %d: %d puzzles, want %d", i, len(nf.Puzzles), 1+tt.o.Variants)
					}
					if nf.Minimal != gen.IsMinimal(canon) {
						t.Errorf("item %d: family %s says minimal %v", i, nf.Canon, nf.Minimal)
					}
					for _, p := range nf.Puzzles {
						pg := solve.GridOf(p.Puzzle)
						if !tt.o.Symmetry.Holds(pg) || gen.DetectSymmetry(pg).String() != nf.Symmetry {
							t.Errorf("item %d: puzzle %s has not the run's %s or its family's %s", i, p.Puzzle, tt.o.Symmetry, nf.Symmetry)
						}
						if n := pg.Givens(); tt.o.MinGivens > 0 && (n < tt.o.MinGivens || n > tt.o.MaxGivens) {
							t.Errorf("item %d: puzzle %s has %d givens", i, p.Puzzle, n)
						}
						if tr, err := gen.ParseTransform(p.Transform); err != nil || tr.Apply(canon) != pg {
							t.Errorf("item %d: transform %q does not take the canonical form to %s (%v)", i, p.Transform, p.Puzzle, err)
						}
					}
				}
			}
			if kept < 2 {
				t.Errorf("%d families from %d items, want 2 or more", kept, tt.items)
			}
		})
	}
}

// TestSearchSameItemSameFamilies checks that a searching item makes the
// same families whatever its builder made before: a worker's scratch
// state carries nothing from one item to the next.
func TestSearchSameItemSameFamilies(t *testing.T) {
	now := time.Unix(1e9, 0)
	o := pipeline.BuildOptions{Hardest: []grade.Technique{grade.XWing}, Symmetry: gen.Rot180, Variants: 1, Now: func() time.Time { return now }}
	a, b := pipeline.NewBuilder(o), pipeline.NewBuilder(o)
	const n = 4
	var got [n]pipeline.Result[store.NewFamily]
	for i := range uint64(n) {
		got[i] = a.Build(context.Background(), pipeline.Item{Seed: 5, Index: i})
	}
	kept := 0
	for i := n - 1; i >= 0; i-- {
		r := b.Build(context.Background(), pipeline.Item{Seed: 5, Index: uint64(i)})
		kept += len(families(r))
		if !sameFamilies(r, got[i]) {
			t.Errorf("item %d: other families after other items", i)
		}
	}
	if kept < 2 {
		t.Errorf("%d families, want 2 or more", kept)
	}
}

// sameFamilies reports whether two results hold the same families,
// puzzles and grades.
func sameFamilies(a, b pipeline.Result[store.NewFamily]) bool {
	fa, fb := families(a), families(b)
	if a.Reason != b.Reason || len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		x, y := fa[i].Value, fb[i].Value
		if fa[i].Hash != fb[i].Hash || !reflect.DeepEqual(x.Family, y.Family) || !reflect.DeepEqual(x.Puzzles, y.Puzzles) {
			return false
		}
	}
	return true
}
