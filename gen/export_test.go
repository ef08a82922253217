package gen

// SetCountCheck makes d check uniqueness by counting solutions to 2
// instead of by reduction to absurdity, to compare the two.
func SetCountCheck(d *Digger, on bool) { d.count = on }

// DiggerChecks returns how many dig checks the givens settled alone, how
// many a swap set settled, and how many needed a search,
// since d was made.
func DiggerChecks(d *Digger) (forced, swaps, searched int) {
	return d.forcedChecks, d.swapChecks, d.searchChecks
}

// SequenceOrder returns the fixed cell order of a non-random sequence.
func SequenceOrder(s Sequence) [81]uint8 { return sequenceOrders[s] }
