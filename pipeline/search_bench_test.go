package pipeline_test

import (
	"context"
	"flag"
	"testing"

	"sudokubank/grade"
	"sudokubank/internal/cputime"
	"sudokubank/pipeline"
)

var searchSeed = flag.Uint64("searchseed", 1, "BenchmarkSearch: the seed its items draw from, so that rounds of a rare target sample other items")

// BenchmarkSearch measures a worker's families per CPU second for the
// rare targets, searching (search=on) and by fresh digs alone
// (search=off), on one goroutine and without a store: the ratio of the
// two is what the search gains. An iteration is an item, so compare the
// two at about the same CPU time, not the same -benchtime Nx: a
// searching item grades hundreds of puzzles, a fresh one one. It also
// reports the families an item makes and the highest ER one reached.
func BenchmarkSearch(b *testing.B) {
	targets := []struct {
		name string
		o    pipeline.BuildOptions
	}{
		{"rating=8.5-", pipeline.BuildOptions{RatingMin: 85}},
		{"rating=9.0-", pipeline.BuildOptions{RatingMin: 90}},
		{"technique=x-wing", pipeline.BuildOptions{Hardest: []grade.Technique{grade.XWing}}},
		// One of each other family the issue names: fish, wings,
		// uniqueness and chains.
		{"technique=swordfish", pipeline.BuildOptions{Hardest: []grade.Technique{grade.Swordfish}}},
		{"technique=jellyfish", pipeline.BuildOptions{Hardest: []grade.Technique{grade.Jellyfish}}},
		{"technique=xy-wing", pipeline.BuildOptions{Hardest: []grade.Technique{grade.XYWing}}},
		{"technique=unique-loop", pipeline.BuildOptions{Hardest: []grade.Technique{grade.UniqueLoop}}},
		{"technique=x-cycle", pipeline.BuildOptions{Hardest: []grade.Technique{grade.XCycle}}},
	}
	for _, tt := range targets {
		for _, search := range []bool{true, false} {
			name := tt.name + "/search=on"
			if !search {
				name = tt.name + "/search=off"
			}
			b.Run(name, func(b *testing.B) {
				o := tt.o
				o.NoSearch = !search
				if o.Searches() != search {
					b.Fatalf("Searches() = %v", o.Searches())
				}
				bld := pipeline.NewBuilder(o)
				seen := map[uint64]bool{}
				top := grade.Rating(0)
				cpu0 := cputime.Process()
				var i uint64
				for b.Loop() {
					r := bld.Build(context.Background(), pipeline.Item{Seed: *searchSeed, Index: i})
					i++
					if r.Reason == pipeline.Failed {
						b.Fatal(r.Err)
					}
					for _, f := range families(r) {
						seen[f.Hash] = true
						top = max(top, grade.Rating(f.Value.ER))
					}
				}
				cpu := cputime.Process() - cpu0
				b.ReportMetric(float64(len(seen))/cpu.Seconds(), "families/s")
				b.ReportMetric(float64(len(seen))/float64(i), "families/item")
				b.ReportMetric(float64(top)/10, "max-ER")
			})
		}
	}
}
