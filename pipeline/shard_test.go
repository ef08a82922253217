package pipeline_test

import (
	"context"
	"testing"

	"sudokubank/pipeline"
)

func TestParseShard(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want pipeline.Shard
		ok   bool
	}{
		{"0/1", pipeline.Shard{I: 0, N: 1}, true},
		{"3/4", pipeline.Shard{I: 3, N: 4}, true},
		{" 2 / 16 ", pipeline.Shard{I: 2, N: 16}, true},
		{"4/4", pipeline.Shard{}, false},
		{"0/0", pipeline.Shard{}, false},
		{"-1/4", pipeline.Shard{}, false},
		{"1", pipeline.Shard{}, false},
		{"a/b", pipeline.Shard{}, false},
	} {
		got, err := pipeline.ParseShard(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/4", "3/4", "4/4", "", "/", "18446744073709551615/18446744073709551615"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := pipeline.ParseShard(s)
		if err != nil {
			return
		}
		if sh.N == 0 || sh.I >= sh.N {
			t.Fatalf("ParseShard(%q) = %+v, not a shard", s, sh)
		}
		if back, err := pipeline.ParseShard(sh.String()); err != nil || back != sh {
			t.Fatalf("ParseShard(%q) = %+v, whose String reads back as %+v, %v", s, sh, back, err)
		}
	})
}

// TestShardShares checks that the shares of a total add up to it, and
// that shard I's share of a count C is the number of items below C of
// its residue: so the shards of a run in which every item makes a
// family make the single run's items.
func TestShardShares(t *testing.T) {
	for n := uint64(1); n <= 7; n++ {
		for total := range 30 {
			sum := 0
			for i := range n {
				s := pipeline.Shard{I: i, N: n}
				share := s.Share(total)
				below := 0
				for k := range uint64(total) {
					if k%n == i {
						below++
					}
				}
				if share != below {
					t.Errorf("Shard %v.Share(%d) = %d, want the %d items below it", s, total, share, below)
				}
				sum += share
			}
			if sum != total {
				t.Errorf("shares of %d over %d shards add up to %d", total, n, sum)
			}
		}
	}
}

func TestShardItems(t *testing.T) {
	s := pipeline.Shard{I: 2, N: 5}
	var got []uint64
	err := s.Items(9)(context.Background(), func(it pipeline.Item) bool {
		if it.Seed != 9 {
			t.Errorf("item of seed %d, want 9", it.Seed)
		}
		got = append(got, it.Index)
		return len(got) < 4
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint64{2, 7, 12, 17}; len(got) != 4 || got[0] != want[0] || got[3] != want[3] {
		t.Errorf("items %v, want %v", got, want)
	}
	// The zero shard is the whole stream.
	got = got[:0]
	pipeline.Shard{}.Items(9)(context.Background(), func(it pipeline.Item) bool {
		got = append(got, it.Index)
		return len(got) < 3
	})
	if len(got) != 3 || got[0] != 0 || got[2] != 2 {
		t.Errorf("zero shard items %v, want 0 1 2", got)
	}
}
