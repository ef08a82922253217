package solve

import (
	"math/rand/v2"
	"testing"
)

// TestTriads checks the gathered triads against their definition, bit
// k*3+r set when row r of box k holds a cell, on every single cell and on
// random masks.
func TestTriads(t *testing.T) {
	want := func(a uint32) uint32 {
		var w uint32
		for r := 0; r < 3; r++ {
			for k := 0; k < 3; k++ {
				if a>>(r*9+k*3)&7 != 0 {
					w |= 1 << (k*3 + r)
				}
			}
		}
		return w
	}
	masks := []uint32{0, bandAll}
	for c := 0; c < 27; c++ {
		masks = append(masks, 1<<c, bandAll&^(1<<c))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		masks = append(masks, rng.Uint32()&bandAll)
	}
	for _, a := range masks {
		if got, want := triads(a), want(a); got != want {
			t.Fatalf("triads(%027b) = %09b, want %09b", a, got, want)
		}
	}
}
