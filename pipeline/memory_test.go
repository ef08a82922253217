package pipeline_test

import (
	"testing"

	"sudokubank/pipeline"
	"sudokubank/store"
)

// TestMemoryBudget checks the room a run asks for: 256 MiB at least for
// the puzzles on their way to the store, and for many variants the
// writer's two batches (the one written and the one filled meanwhile),
// each a chunk of families (16) past its bound, and the queue (1,000
// families) at store.PuzzleMemory a puzzle; a bulk load adds the store's
// in-memory keys.
func TestMemoryBudget(t *testing.T) {
	for _, tc := range []struct {
		familyPuzzles int
		bulk          bool
		want          int64
	}{
		{1, false, 256 << 20},
		{101, false, 256 << 20},
		{1001, false, (2*50000 + (2*16+1000)*1001) * 600},
		{1, true, 256<<20 + store.BulkKeyMemory},
	} {
		if got := pipeline.MemoryBudget(tc.familyPuzzles, tc.bulk); got != tc.want {
			t.Errorf("MemoryBudget(%d, %v) = %d, want %d", tc.familyPuzzles, tc.bulk, got, tc.want)
		}
	}
	if a, b := pipeline.MemoryBudget(1001, false), pipeline.MemoryBudget(2001, false); b <= a {
		t.Errorf("MemoryBudget(2001) = %d, not more than MemoryBudget(1001) = %d", b, a)
	}
}
