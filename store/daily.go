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

// pickWalk bounds the puzzles DayPick walks from its point.
const pickWalk = 4096

// pickRow is a candidate of DayPick: a puzzle's ID, the age of its
// family and where its key lies from the point (pickPos).
type pickRow struct {
	id, created int64
	pos         uint64
}

// pickPos is where key lies in the order of keys from point, wrapping:
// the keys at or after the point first.
func pickPos(key, point int64) uint64 { return uint64(key-point) & keyMask }

// DayPick returns the puzzle of a day (Filter and the day as a point of
// the key space; madeBefore is the day's start): the first puzzle the
// filter selects at or after the point in the order of the sort keys,
// wrapping, among those whose family was made before madeBefore; if
// none of the first pickWalk puzzles from the point is that old, the
// first the filter selects. It returns ErrNotFound if the filter selects
// nothing.
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
	var pairs []Filter
	for _, n := range f.sizes {
		for _, l := range slices.Compact(slices.Sorted(slices.Values(levels))) {
			g := f
			g.Levels, g.sizes = []int{l}, []int{n}
			pairs = append(pairs, g)
		}
	}
	// Each size and level is one search of the (size, level, sort_key)
	// index from the point, a few rows at first: the rows read are the
	// first of the union in key order up to the nearest last row of a
	// search cut short by its limit, and an old enough one there is the
	// pick. Otherwise the searches read on, eight times as far.
	for limit := 16; ; limit *= 8 {
		limit = min(limit, pickWalk)
		var rows []pickRow
		bound := uint64(keyMask)
		for _, g := range pairs {
			got, err := readPickRows(ctx, q, g, point, limit)
			if err != nil {
				return Row{}, err
			}
			if len(got) == limit {
				bound = min(bound, got[len(got)-1].pos)
			}
			rows = append(rows, got...)
		}
		if len(rows) == 0 {
			return Row{}, ErrNotFound
		}
		slices.SortFunc(rows, func(a, b pickRow) int { return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.id, b.id)) })
		known := rows[:min(len(rows), pickWalk)]
		for i, r := range known {
			if r.pos > bound {
				known = known[:i]
				break
			}
		}
		for _, r := range known {
			if r.created < madeBefore {
				return fetchRow(ctx, q, r.id)
			}
		}
		if bound == keyMask || len(known) == pickWalk || limit == pickWalk {
			return fetchRow(ctx, q, rows[0].id)
		}
	}
}

// readPickRows returns the first limit rows that g, of one size and
// level, selects from the point in key order, wrapping.
func readPickRows(ctx context.Context, q sqlx.QueryerContext, g Filter, point int64, limit int) ([]pickRow, error) {
	w, args, _, err := g.where("p", "p.family_id", indexable{level: true})
	if err != nil {
		return nil, err
	}
	s := "SELECT p.id, p.sort_key, f.created_at FROM puzzles p JOIN families f ON f.id = p.family_id WHERE " +
		w + " AND p.sort_key %s ? ORDER BY p.sort_key LIMIT ?"
	var out []pickRow
	for _, from := range []string{">=", "<"} {
		rs, err := q.QueryContext(ctx, fmt.Sprintf(s, from), append(slices.Clip(args), point, limit-len(out))...)
		if err != nil {
			return nil, err
		}
		for rs.Next() {
			var r pickRow
			var key int64
			if err := rs.Scan(&r.id, &key, &r.created); err != nil {
				rs.Close()
				return nil, err
			}
			r.pos = pickPos(key, point)
			out = append(out, r)
		}
		if err := rs.Close(); err != nil {
			return nil, err
		}
		if err := rs.Err(); err != nil {
			return nil, err
		}
		if len(out) == limit {
			break
		}
	}
	return out, nil
}

// fetchRow returns the row with the given ID.
func fetchRow(ctx context.Context, q sqlx.QueryerContext, id int64) (Row, error) {
	var out Row
	err := fetchRows(ctx, q, []int64{id}, func(r Row) error {
		out = r
		return nil
	})
	return out, err
}
