package pipeline_test

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/grade"
	"sudokubank/pipeline"
)

// TestRunAdmitsLikeASequentialLoop checks the determinism law: whatever
// the number of workers and the target, a run admits exactly the families
// a plain loop over the items in order would.
func TestRunAdmitsLikeASequentialLoop(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		workers := rapid.IntRange(1, 6).Draw(t, "workers")
		n := rapid.IntRange(0, 60).Draw(t, "n")
		dupEvery := uint64(rapid.SampledFrom([]int{0, 2, 3, 5}).Draw(t, "dupEvery")) // 1 would repeat one family for ever
		var levels []grade.Level
		for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
			if rapid.Bool().Draw(t, "level "+l.String()) {
				levels = append(levels, l)
			}
		}
		// The producer may run dry before the target is met, in the
		// middle of a chunk.
		limit := uint64(rapid.IntRange(0, 200).Draw(t, "limit"))
		bank := rapid.SliceOfN(rapid.Uint64Range(0, 30), 0, 10).Draw(t, "bank") // item numbers already in the bank

		work := fakeWork(dupEvery, -1)
		hashOf := func(i uint64) uint64 { return work()(context.Background(), pipeline.Item{Seed: 42, Index: i}).Hash }
		var inBank []uint64
		for _, i := range bank {
			inBank = append(inBank, hashOf(i))
		}

		// The reference: one loop, items in order.
		var want []uint64
		target, seen := pipeline.Count(n, levels), pipeline.NewSeen(slices.Clone(inBank))
		for i := uint64(0); !target.Done() && i < limit; i++ {
			r := work()(context.Background(), pipeline.Item{Seed: 42, Index: i})
			if !seen.Contains(r.Hash) && target.Wants(r.Level) {
				seen.Add(r.Hash)
				target.Take(r.Level)
				want = append(want, i)
			}
		}

		s := &sink{}
		_, err := pipeline.Execute(context.Background(), pipeline.Config[pipeline.Item, fake]{
			Workers: workers, Window: rapid.IntRange(0, 20).Draw(t, "window"), Chunk: rapid.IntRange(0, 8).Draw(t, "chunk"),
			Produce: func(ctx context.Context, emit func(pipeline.Item) bool) error {
				for i := uint64(0); i < limit; i++ {
					if !emit(pipeline.Item{Seed: 42, Index: i}) {
						return nil
					}
				}
				return nil
			},
			NewWorker: work,
			Seen:      pipeline.NewSeen(slices.Clone(inBank)), Target: pipeline.Count(n, levels),
			Write: s.write, BatchFamilies: rapid.IntRange(1, 10).Draw(t, "batch"), Log: quiet(),
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.indexes(); !slices.Equal(got, want) {
			t.Fatalf("admitted items %v, want %v", got, want)
		}
	})
}
