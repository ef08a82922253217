package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
)

// queryRandom reads each level only as far as the answer needs, and must
// give exactly what reading Limit rows from every level gives: that is
// checked here against the plain merge, on levels of very different sizes,
// for small and large limits, with and without one puzzle per family.
func TestQueryRandomMatchesFullMerge(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	// Level l holds a share of the families that falls steeply with l;
	// each family has 1 to 3 variants.
	var batch []NewFamily
	for i := range 1500 {
		level := 1
		switch {
		case i%40 == 0:
			level = 5
		case i%10 == 0:
			level = 4
		case i%4 == 0:
			level = 3
		case i%2 == 0:
			level = 2
		}
		f := NewFamily{Family: Family{
			Canon: "9" + ninesDigits(i) + strings.Repeat(".", 60), ER: 10 * level, Level: level,
			Givens: 22 + i%10, Hardest: "hidden-single", Symmetry: "none", Source: "gen",
		}}
		for v := range 1 + i%3 {
			f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: string(rune('1'+v)) + ninesDigits(i) + strings.Repeat(".", 60), Solution: strings.Repeat("123456789", 9)})
		}
		batch = append(batch, f)
	}
	if _, err := db.WriteBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}

	// reference reads Limit rows from every level and merges them.
	reference := func(f Filter, o QueryOptions) []int64 {
		start := int64(mix64(o.Seed^0x9e3779b97f4a7c15) >> 1)
		dist := func(k int64) uint64 { return uint64(k-start) & (1<<63 - 1) }
		levels := f.Levels
		if len(levels) == 0 {
			levels = []int{1, 2, 3, 4, 5}
		}
		var all []Row
		for _, l := range levels {
			rows, err := randomLevel(ctx, db.db, f, o, l, start, o.Limit)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, rows...)
		}
		slices.SortStableFunc(all, func(a, b Row) int { return cmp.Compare(dist(a.SortKey), dist(b.SortKey)) })
		var ids []int64
		for i := 0; i < len(all) && i < o.Limit; i++ {
			ids = append(ids, all[i].ID)
		}
		return ids
	}
	compare := func(t *testing.T, limits []int, seeds uint64) {
		for _, levels := range [][]int{nil, {1, 5}, {4, 5}, {3}} {
			for _, limit := range limits {
				for _, one := range []bool{false, true} {
					for seed := range seeds {
						f := Filter{Levels: levels}
						o := QueryOptions{Order: OrderRandom, Limit: limit, Seed: seed, OnePerFamily: one}
						var got []int64
						if err := db.Query(ctx, f, o, func(r Row) error { got = append(got, r.ID); return nil }); err != nil {
							t.Fatal(err)
						}
						if want := reference(f, o); !slices.Equal(got, want) {
							t.Errorf("levels %v, limit %d, one a family %v, seed %d: got %d rows, want %d, or another order",
								levels, limit, one, seed, len(got), len(want))
						}
					}
				}
			}
		}
	}
	t.Run("DistinctKeys", func(t *testing.T) { compare(t, []int{1, 7, 60, 400, 2000, 5000}, 4) })
	// A level read further resumes after the last row it read; with
	// many rows sharing a key it must neither skip nor repeat any. A
	// bank's keys are unique within a level (puzzles_key), but the
	// resume does not count on it: the index is made non-unique, under
	// the same name, for this part.
	for _, q := range []string{
		"DROP INDEX puzzles_key",
		"CREATE INDEX puzzles_key ON puzzles (level, sort_key)",
		"UPDATE puzzles SET sort_key = sort_key >> 56 << 56",
	} {
		if _, err := db.db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("SharedKeys", func(t *testing.T) { compare(t, []int{7, 400, 2000}, 2) })
	// A filter that shifts the levels' shares from the bucket counts
	// makes the small levels read further, round after round.
	t.Run("SkewedShares", func(t *testing.T) {
		for _, limit := range []int{10, 300, 3000} {
			f := Filter{RatingMin: 40}
			o := QueryOptions{Order: OrderRandom, Limit: limit, Seed: 9, OnePerFamily: true}
			var got []int64
			if err := db.Query(ctx, f, o, func(r Row) error { got = append(got, r.ID); return nil }); err != nil {
				t.Fatal(err)
			}
			if want := reference(f, o); !slices.Equal(got, want) {
				t.Errorf("limit %d: got %d rows, want %d, or another order", limit, len(got), len(want))
			}
		}
	})
}

// ninesDigits writes i as 20 digits 1-9 (base 9, each digit plus one), so
// that distinct numbers give distinct valid grid prefixes.
func ninesDigits(i int) string {
	b := []byte(fmt.Sprintf("%020s", strconv.FormatUint(uint64(i), 9)))
	for k := range b {
		b[k] = max(b[k], '0') + 1
	}
	return string(b)
}

// randomLevel, the reference the tests compare with, returns the first n rows of one level in the random order
// from start, wrapping around at the end of the keys.
func randomLevel(ctx context.Context, q sqlx.QueryerContext, f Filter, o QueryOptions, level int, start int64, n int) ([]Row, error) {
	c := newLevelCursor(f, level, o.OnePerFamily)
	if err := c.read(ctx, q, start, n); err != nil {
		return nil, err
	}
	return c.rows, nil
}
