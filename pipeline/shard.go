package pipeline

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Shard is one of N fixed shares of a run's item stream: shard I takes
// the items whose index is I modulo N, so that any shard can be built
// again alone and makes the same families, and the N shards together
// make the items one run of the same seed makes. The zero value is the
// whole stream.
type Shard struct {
	I, N uint64
}

// ParseShard reads "I/N", 0 <= I < N.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("%q is not I/N", s)
	}
	i, err1 := strconv.ParseUint(strings.TrimSpace(is), 10, 64)
	n, err2 := strconv.ParseUint(strings.TrimSpace(ns), 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("%q is not I/N with whole numbers I and N", s)
	case n == 0:
		return Shard{}, fmt.Errorf("%q: N must be 1 or more", s)
	case i >= n:
		return Shard{}, fmt.Errorf("%q: I must be 0 to N-1", s)
	}
	return Shard{I: i, N: n}, nil
}

// String returns "I/N", or "" for the whole stream.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Whole reports whether s is the whole stream.
func (s Shard) Whole() bool { return s.N <= 1 }

// Items returns a producer of the shard's items of a run with the given
// seed, in order: I, I+N, I+2N, ...
func (s Shard) Items(seed uint64) func(ctx context.Context, emit func(Item) bool) error {
	return s.itemsFrom(seed, s.first())
}

// itemsFrom is Items from the shard's item first on.
func (s Shard) itemsFrom(seed, first uint64) func(ctx context.Context, emit func(Item) bool) error {
	if s.Whole() {
		return Items(seed, first)
	}
	return func(ctx context.Context, emit func(Item) bool) error {
		for i := first; ctx.Err() == nil; i += s.N {
			if !emit(Item{Seed: seed, Index: i}) {
				return nil
			}
		}
		return nil
	}
}

// first returns the shard's first item.
func (s Shard) first() uint64 {
	if s.Whole() {
		return 0
	}
	return s.I
}

// holds reports whether item i is one of the shard's.
func (s Shard) holds(i uint64) bool { return s.Whole() || i%s.N == s.I }

// position returns how many of the shard's items come before its item i.
func (s Shard) position(i uint64) uint64 {
	if s.Whole() {
		return i
	}
	return (i - s.I) / s.N
}

// Share returns the shard's part of a job's total: total/N, and one more
// for the first total%N shards, so that the shares add up to total and
// shard I of a count of C takes exactly the items below C of its
// residue when every item makes a family.
func (s Shard) Share(total int) int {
	if s.Whole() {
		return total
	}
	n := uint64(total)
	share := n / s.N
	if s.I < n%s.N {
		share++
	}
	return int(share)
}

// ShareCounts returns the shard's share of each level's total (Share).
func (s Shard) ShareCounts(total LevelCounts) LevelCounts {
	var out LevelCounts
	for l := range total {
		out[l] = s.Share(total[l])
	}
	return out
}
