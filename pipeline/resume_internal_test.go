package pipeline

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"sudokubank/grade"
)

func TestItemIndexInvertsItemSeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		it := Item{Seed: rng.Uint64(), Index: rng.Uint64()}
		if rng.IntN(2) == 0 {
			it.Index %= 1 << 20 // the indexes runs reach
		}
		if got := itemIndex(it.Seed, it.ItemSeed()); got != it.Index {
			t.Fatalf("itemIndex(%d, ItemSeed of item %d) = %d", it.Seed, it.Index, got)
		}
	}
}

// TestResumeStartsAtTheLastItem checks what a rerun of shard 1/3 counts
// at once and what when it meets it again: earlier runs stored the
// families of items 1, 4 and 7, and one of the families of item 10 (a
// searching item, whose others a kill lost). The bank holds family 99
// besides.
func TestResumeStartsAtTheLastItem(t *testing.T) {
	stored := []resumed{
		{hash: 1, level: grade.Easy, index: 1},
		{hash: 2, level: grade.Evil, index: 4},
		{hash: 3, level: grade.Evil, index: 7},
		{hash: 4, level: grade.Medium, index: 10},
	}
	for _, tt := range []struct {
		name      string
		count     int
		fams      []resumed
		budget    int
		first     uint64
		claim     []uint64
		remaining int
	}{
		{"LastItem", 10, stored, 0, 10, []uint64{4}, 7},
		{"BudgetJudged", 10, stored, 3, 10, []uint64{4}, 7},
		{"BudgetInPrefix", 10, stored, 4, 1, []uint64{1, 2, 3, 4}, 10},
		{"NotTheShards", 10, append(slices.Clone(stored), resumed{hash: 5, level: grade.Easy, index: 2}), 0, 1, []uint64{1, 2, 3, 4, 5}, 10},
		// An older bankgen's rerun made a share on top of the first run's.
		{"OverTheShare", 2, stored, 0, 10, []uint64{4}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := GenerateConfig{Seed: 5, Shard: Shard{I: 1, N: 3}, Target: Count(tt.count, nil), Stats: new(Stats)}
			c.Seen = NewSeen([]uint64{1, 2, 3, 4, 5, 99})
			c.Resume = &Resume{fams: tt.fams}
			c.Target.GiveUpAfter(tt.budget)
			first, claim := c.resume()
			if first != tt.first || !slices.Equal(slices.Sorted(maps.Keys(claim)), tt.claim) || c.Target.Remaining() != tt.remaining {
				t.Errorf("resume = item %d, claims %v, %d families to go; want item %d, claims %v, %d to go",
					first, slices.Sorted(maps.Keys(claim)), c.Target.Remaining(), tt.first, tt.claim, tt.remaining)
			}
			for _, f := range tt.fams {
				_, claimed := claim[f.hash]
				if c.Seen.InBank(f.hash) || c.Seen.Contains(f.hash) == claimed {
					t.Errorf("family %d: in the bank's part %v, in the run's %v; want it made again: %v", f.hash, c.Seen.InBank(f.hash), c.Seen.Contains(f.hash), claimed)
				}
			}
			if !c.Seen.InBank(99) {
				t.Error("the bank's other family left the dedup set")
			}
			if got := c.Stats.Resumed.Load(); got != int64(tt.count-tt.remaining) {
				t.Errorf("Stats.Resumed = %d, want %d", got, tt.count-tt.remaining)
			}
			if want := tt.budget; tt.first == 10 && c.Target.budget != 0 || tt.first != 10 && c.Target.budget != want {
				t.Errorf("give-up budget %d after resume, want it kept (%d) only where the run starts from its first item", c.Target.budget, want)
			}
		})
	}
}
