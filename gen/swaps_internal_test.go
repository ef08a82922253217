package gen

import (
	"math/rand/v2"
	"testing"

	"sudokubank/solve"
)

// refSwaps lists the swap sets of sol as findSwaps does, the plain way:
// for each two rows of a band (then columns of a stack), each cycle of
// the columns that following a digit from the first row to its column in
// the second makes, from its first column, in increasing order.
func refSwaps(sol *solve.Grid) [][2]uint64 {
	var out [][2]uint64
	for t := 0; t < 2; t++ {
		at := func(i, j int) int {
			if t == 1 {
				i, j = j, i
			}
			return i*9 + j
		}
		for r1 := 0; r1 < 9; r1++ {
			for r2 := r1 + 1; r2 < r1/3*3+3; r2++ {
				var colOf [10]int
				for c := 0; c < 9; c++ {
					colOf[sol[at(r2, c)]] = c
				}
				var seen [9]bool
				for c0 := 0; c0 < 9; c0++ {
					if seen[c0] {
						continue
					}
					var set [2]uint64
					for c := c0; !seen[c]; c = colOf[sol[at(r1, c)]] {
						seen[c] = true
						for _, x := range [2]int{at(r1, c), at(r2, c)} {
							set[x>>6] |= 1 << (x & 63)
						}
					}
					out = append(out, set)
				}
			}
		}
	}
	return out
}

// TestFindSwaps checks findSwaps against refSwaps on random terminal
// grids, and that exchanging the two rows (or columns) of each set on its
// cells gives another valid grid: each set is unavoidable.
func TestFindSwaps(t *testing.T) {
	var d Digger
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		sol := Terminal(rng)
		d.findSwaps(&sol)
		want := refSwaps(&sol)
		if d.nSwaps != len(want) {
			t.Fatalf("%v: %d swap sets, want %d", sol, d.nSwaps, len(want))
		}
		for i, set := range want {
			if d.swaps[i] != set {
				t.Fatalf("%v: swap set %d is %x, want %x", sol, i, d.swaps[i], set)
			}
			if !exchanges(&sol, set, true) && !exchanges(&sol, set, false) {
				t.Fatalf("%v: exchanging swap set %x gives no other valid grid", sol, set)
			}
		}
	}
}

// exchanges reports whether exchanging the digits of set's cells in
// pairs, each with the other cell of the set in its column and band (rows
// set) or row and stack, gives another valid grid.
func exchanges(sol *solve.Grid, set [2]uint64, rows bool) bool {
	in := func(c int) bool { return set[c>>6]&(1<<(c&63)) != 0 }
	g := *sol
	for c := 0; c < 81; c++ {
		if !in(c) {
			continue
		}
		partner := -1
		for o := 0; o < 81; o++ {
			same := o%9 == c%9 && o/27 == c/27
			if !rows {
				same = o/9 == c/9 && o%9/3 == c%9/3
			}
			if o != c && in(o) && same {
				partner = o
			}
		}
		if partner < 0 {
			return false
		}
		g[c] = sol[partner]
	}
	return g != *sol && g.Check() == nil
}
