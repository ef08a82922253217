package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// A puzzle of the day must stay the day's puzzle while the bank grows: a
// nightly bankgen run or another server on the same bank must not hand
// an app a second puzzle for a day it has shown one. A random sample
// cannot promise that (its order depends on how many puzzles there are),
// so the day's pick is a point in the key space instead, and the puzzle
// is the first at or after it, in the order of the sort keys (which are
// random), among those the filter selects whose family the bank held
// before the day began. Puzzles added later are not candidates, and
// adding them moves nothing; reserving a family to a client moves the
// pick only if it is that family's.
//
// A bank whose puzzles were all made that day or later (a bank built
// today) has no such puzzle near the point: the walk stops after
// pickWalk puzzles and takes the first, which may then change with the
// bank until the day after.

// pickWalk bounds the puzzles DayPick reads from its point for each size
// and level.
const pickWalk = 4096

// pickRow is a candidate of DayPick: a puzzle's ID and key, the age of
// its family and where its key lies from the point.
type pickRow struct {
	id, key, created int64
	wrapped          bool // its key lies before the point: it comes after the others
}

// DayPick returns the puzzle of a day (Filter and the day as a point of
// the key space; madeBefore is the day's start): the first puzzle the
// filter selects at or after the point in the order of the sort keys,
// wrapping, among those whose family was made before madeBefore; if
// none of the first pickWalk puzzles of a size and level from the point
// is that old, the first the filter selects. It returns ErrNotFound if
// the filter selects nothing.
func (db *DB) DayPick(ctx context.Context, f Filter, point int64, madeBefore time.Time) (Row, error) {
	row, err := dayPick(ctx, db.reader(), f, point&keyMask, madeBefore.Unix())
	if err != nil {
		return Row{}, fmt.Errorf("day's puzzle: %w", err)
	}
	return row, nil
}

func dayPick(ctx context.Context, q sqlx.QueryerContext, f Filter, point, madeBefore int64) (Row, error) {
	f, err := f.withSizes(ctx, q)
	if err != nil {
		return Row{}, err
	}
	levels := f.Levels
	if len(levels) == 0 {
		levels = []int{1, 2, 3, 4, 5}
	}
	// One search of the (size, level, sort_key) index a size and level,
	// from the point, then from the start of the keys where fewer than
	// pickWalk lie past it: the first pickWalk of the union in key order
	// from the point are among those read.
	var rows []pickRow
	for _, n := range f.sizes {
		for _, l := range slices.Compact(slices.Sorted(slices.Values(levels))) {
			g := f
			g.Levels, g.sizes = []int{l}, []int{n}
			w, args, _, err := g.where("p", "p.family_id", indexable{level: true})
			if err != nil {
				return Row{}, err
			}
			s := "SELECT p.id, p.sort_key, f.created_at FROM puzzles p JOIN families f ON f.id = p.family_id WHERE " +
				w + " AND p.sort_key %s ? ORDER BY p.sort_key LIMIT ?"
			got := len(rows)
			if rows, err = readPickRows(ctx, q, fmt.Sprintf(s, ">="), append(args, point, pickWalk), false, rows); err != nil {
				return Row{}, err
			}
			if left := pickWalk - (len(rows) - got); left > 0 {
				if rows, err = readPickRows(ctx, q, fmt.Sprintf(s, "<"), append(args, point, left), true, rows); err != nil {
					return Row{}, err
				}
			}
		}
	}
	if len(rows) == 0 {
		return Row{}, ErrNotFound
	}
	slices.SortFunc(rows, func(a, b pickRow) int {
		if a.wrapped != b.wrapped {
			if a.wrapped {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.id, b.id))
	})
	rows = rows[:min(len(rows), pickWalk)]
	pick := rows[0].id
	for _, r := range rows {
		if r.created < madeBefore {
			pick = r.id
			break
		}
	}
	var out Row
	err = fetchRows(ctx, q, []int64{pick}, func(r Row) error {
		out = r
		return nil
	})
	return out, err
}

// readPickRows appends to rows those of the statement s, marked wrapped.
func readPickRows(ctx context.Context, q sqlx.QueryerContext, s string, args []any, wrapped bool, rows []pickRow) ([]pickRow, error) {
	rs, err := q.QueryContext(ctx, s, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		r := pickRow{wrapped: wrapped}
		if err := rs.Scan(&r.id, &r.key, &r.created); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	return rows, rs.Close()
}
