package pipeline

import (
	"context"
	"math/rand/v2"
)

// Item is one unit of generation work. All of its randomness comes from
// Seed and Index, so the same item always makes the same family.
type Item struct {
	Seed  uint64 // the run's seed
	Index uint64 // the item's number in the run, from 0
}

// ItemSeed returns the one number the item's randomness comes from,
// derived from (Seed, Index) alone; the bank records it with the family.
func (it Item) ItemSeed() uint64 { return mix(it.Seed ^ mix(it.Index)) }

// Rand returns the item's own random source, seeded by ItemSeed.
func (it Item) Rand() *rand.Rand {
	return rand.New(rand.NewPCG(it.ItemSeed(), 0x853c49e6748fea9b))
}

// mix scrambles x with the splitmix64 finalizer, so that neighbouring
// item numbers seed unrelated streams.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// itemIndex returns the index of the item of a run with the given seed
// whose ItemSeed is itemSeed: mix is a bijection, so the bank's item
// seeds say which items made its families.
func itemIndex(seed, itemSeed uint64) uint64 { return unmix(unmix(itemSeed) ^ seed) }

// unmix is the inverse of mix: each xorshift is undone by its powers,
// each product by the multiplicative inverse of its odd factor.
func unmix(x uint64) uint64 {
	x ^= x>>31 ^ x>>62
	x *= 0x319642b2d24d8ec3 // 0x94d049bb133111eb * it = 1 mod 2^64
	x ^= x>>27 ^ x>>54
	x *= 0x96de1b173f119089 // 0xbf58476d1ce4e5b9 * it = 1 mod 2^64
	x ^= x>>30 ^ x>>60
	return x - 0x9e3779b97f4a7c15
}

// Items returns a producer of the items start, start+1, ... of a run with
// the given seed; it stops when emit reports false or ctx is done.
func Items(seed, start uint64) func(ctx context.Context, emit func(Item) bool) error {
	return func(ctx context.Context, emit func(Item) bool) error {
		for i := start; ctx.Err() == nil; i++ {
			if !emit(Item{Seed: seed, Index: i}) {
				return nil
			}
		}
		return nil
	}
}
