package gen

import "math/rand/v2"

// ReversalLines draws a permutation of n lines that keeps groups of g
// together and commutes with the reversal, as RandomSizedTransform does.
func ReversalLines(n, g int, rng *rand.Rand) []int {
	p := make([]int, n)
	reversalLines(p, g, rng)
	return p
}

// SizedDiggerChecks returns how many dig checks the givens settled alone,
// how many a swap set settled, and how many needed a search, since d was
// made.
func SizedDiggerChecks(d *SizedDigger) (forced, swaps, searched int) {
	return d.forcedChecks, d.swapChecks, d.searchChecks
}

// SizedDiggerCuts returns how many dig checks ran out of nodes since d was
// made.
func SizedDiggerCuts(d *SizedDigger) int { return d.cutChecks }

// SetSizedDiggerOnSearch makes d call f with the nodes of every search
// check and whether it was decided.
func SetSizedDiggerOnSearch(d *SizedDigger, f func(nodes int, decided bool)) { d.onSearch = f }
