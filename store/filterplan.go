package store

// ReadsOnlyMatchesByID reports whether a query of the filter in ID order
// (Query with OrderID) reads its matches alone: a filter of one level
// and one number of givens and nothing else, whose matches are the
// entries of one number of the (level, givens) index, or a filter of
// nothing at all, whose matches are every row. Its cost then follows
// the rows it returns, so that a caller needs no bound on the IDs it
// reads (QueryOptions.UpToID); any other filter is checked row by row.
func (f Filter) ReadsOnlyMatchesByID() bool {
	if !f.bucketsOnly() {
		return false
	}
	bucket := len(f.Levels) == 1 && f.GivensMin != 0 && f.GivensMin == f.GivensMax
	none := f.Size == 0 && len(f.Levels) == 0 && f.GivensMin == 0 && f.GivensMax == 0
	return bucket || none
}

// CountsFromIndex reports whether CountUpTo reads the filter's matches
// from the puzzles' own columns and indexes (sizes, levels, givens,
// ratings), without looking at a family row for each puzzle; a filter on
// the families' fields (score, technique, hardest, symmetry, minimal,
// source, run) or on reservations and packs checks each puzzle's family.
func (f Filter) CountsFromIndex() bool {
	return !f.onFamilies() && !f.Fresh && f.NotForClient == "" && !f.Unreserved && f.packFor == nil
}
