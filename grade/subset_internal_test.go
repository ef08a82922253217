package grade

import (
	"math/rand/v2"
	"testing"
)

// TestSubsetWalk checks the pruned walk against a scan of combos[k]: the
// same subsets with a union of exactly k elements, in the same order.
func TestSubsetWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 5000; trial++ {
		var sets [9]uint16
		present := uint16(rng.IntN(512))
		for i := range sets {
			sets[i] = uint16(rng.IntN(512)) & uint16(rng.IntN(512))
		}
		for k := 1; k <= 4; k++ {
			var want [][2]uint16
			for _, m := range combos[k] {
				if m&^present != 0 {
					continue
				}
				var union uint16
				for mm := m; mm != 0; mm &= mm - 1 {
					union |= sets[first(mm)]
				}
				if count(union) == k {
					want = append(want, [2]uint16{m, union})
				}
			}
			var sw subsetWalk
			for i := 0; i < 9; i++ {
				if present&(1<<i) != 0 {
					sw.add(sets[i], i)
				}
			}
			sw.start(k)
			var got [][2]uint16
			for {
				m, union, ok := sw.next()
				if !ok {
					break
				}
				got = append(got, [2]uint16{m, union})
			}
			if len(got) != len(want) {
				t.Fatalf("trial %d k %d: %d subsets, want %d", trial, k, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("trial %d k %d: subset %d is %v, want %v", trial, k, i, got[i], want[i])
				}
			}
		}
	}
}
