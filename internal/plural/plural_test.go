package plural_test

import (
	"testing"

	"sudokubank/internal/plural"
)

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		noun string
		want string
	}{
		{1, "shard", "1 shard"},
		{0, "shard", "0 shards"},
		{2, "pack", "2 packs"},
		{1, "family", "1 family"},
		{3, "family", "3 families"},
		{2, "day", "2 days"},
	} {
		if got := plural.Count(tt.n, tt.noun); got != tt.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tt.n, tt.noun, got, tt.want)
		}
	}
}
