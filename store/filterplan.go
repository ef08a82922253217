package store

import (
	"context"
	"fmt"
	"strings"
)

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

// CountsFromIndex reports whether CountUpToAtMost reads the filter's matches
// from the puzzles' own columns and indexes (sizes, levels, givens,
// ratings), without looking at a family row for each puzzle; a filter on
// the families' fields (score, technique, hardest, symmetry, minimal,
// source, run) or on reservations and packs checks each puzzle's family.
func (f Filter) CountsFromIndex() bool {
	return !f.onFamilies() && !f.Fresh && f.NotForClient == "" && !f.Unreserved && f.packFor == nil
}

// CountUpToAtMost returns the number of puzzles the filter selects with
// an ID of at most id (the place of puzzle id among them, which a page of
// puzzles in ID order numbers from; puzzles are never removed and IDs
// only rise, so it does not change as the bank grows), but stops counting
// past most matches: it returns most+1 where more than most puzzles up to
// id match, so that its cost is bounded by most entries whatever the bank
// holds.
func (db *DB) CountUpToAtMost(ctx context.Context, f Filter, id, most int64) (int64, error) {
	f, err := f.withSizes(ctx, db.db)
	if err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	q, args, err := countUpToSQL(f)
	if err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	var n int64
	if err := db.reader().QueryRowxContext(ctx, q, append(args, id, most+1)...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	return n, nil
}

// countUpToSQL returns the statement of CountUpToAtMost, whose last two
// arguments, the ID and the most rows, the caller adds: countPuzzlesSQL's
// count, of the first rows alone.
func countUpToSQL(f Filter) (string, []any, error) {
	q, args, err := countPuzzlesSQL(f)
	if err != nil {
		return "", nil, err
	}
	from, ok := strings.CutPrefix(q, "SELECT count(*) FROM ")
	if !ok {
		return "", nil, fmt.Errorf("a count statement of another form: %s", q)
	}
	return "SELECT count(*) FROM (SELECT 1 FROM " + from + " AND p.id <= ? LIMIT ?)", args, nil
}
