package store

import "testing"

// PlaceholderGrids turns off a merge's check of its shard's rows for the
// rest of the test, whose shards hold placeholder grids (not sudoku),
// which that check refuses.
func PlaceholderGrids(tb testing.TB) {
	placeholderGrids(tb)
}

// SetScanBias makes random samples reckon reading slot by slot b times
// as costly as they would, so that a black-box test can force either
// plan (0: slots only; a huge b: every row at once); the returned
// function restores it.
func SetScanBias(b float64) (restore func()) {
	old := scanBias
	scanBias = b
	return func() { scanBias = old }
}
