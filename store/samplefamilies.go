package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
)

// A sample one a family (QueryOptions.OnePerFamily in a random order, as
// every pack is) must give each family that matches the same chance,
// however many variants it has: sampled by the puzzles' keys, a family of
// a hundred variants came a hundred times as often as one of one. So it
// samples the families themselves, in the order sample.go describes, with
// the families' canon_key (a hash of the canonical form, migration 0008)
// as their key and the families_sample index (size, level, canon_key) to
// read their slots; every filter is a family's (a puzzle row copies its
// family's level, givens and rating), so a family that matches has only
// matching variants. Then it picks one variant of each family: the one
// whose ID hashes lowest under a key from the seed, found through the
// puzzles_family index. The same seed on the same bank gives the same
// families and the same variants.

// hasVariants is the condition that a family (as f) has a puzzle: a bank
// may hold a family whose every variant was stored before under another
// family, and a sample of puzzles never met it. As IN over a subquery
// SQLite searches puzzles_family for each family, or without it reads the
// puzzles once a statement into a temporary index.
const hasVariants = "f.id IN (SELECT family_id FROM puzzles)"

// variantSalt is mixed into the order's salt for the variant pick, so that
// which variant a family gives owes nothing to the ties of the order.
const variantSalt = 0x76617269616e7473 // "variants"

// familySlotsSQL returns the statement that reads the ID, canon_key and
// ID again (as the family) of the families of n key ranges, the first
// 2n arguments, that the condition w (over families as f) selects: one
// search of families_sample a range, size and level.
func familySlotsSQL(w string, n int) string {
	return "SELECT f.id, f.canon_key, f.id FROM (VALUES (?, ?)" + strings.Repeat(", (?, ?)", n-1) + ") s" +
		" CROSS JOIN families f WHERE f.canon_key BETWEEN s.column1 AND s.column2 AND " + w + " AND " + hasVariants
}

// shortSample is the error of a sample asked for all its rows
// (QueryOptions.needAll) that found fewer: found of them, which it did
// not read, the caller failing without them.
type shortSample struct{ found int }

func (e *shortSample) Error() string {
	return fmt.Sprintf("only %d families found", e.found)
}

// scanFamilies reads every family the filter selects and passes to fn,
// one variant each, the first limit of those in slots at places from
// read on, by rank. It holds a few times limit families at most. With
// needAll, fewer than limit families is a *shortSample, their variants
// unread.
func scanFamilies(ctx context.Context, q sqlx.QueryerContext, f Filter, ord *randomOrder, read uint64, limit int, needAll bool, fn func(Row) error) error {
	w, args, _, err := f.where("f", "f.id", anyIndex)
	if err != nil {
		return err
	}
	ids, err := bestRanked(ctx, q, "SELECT f.id, f.canon_key, f.id FROM families f WHERE "+w+" AND "+hasVariants, args, ord, read, limit, nil)
	if err != nil {
		return err
	}
	if needAll && len(ids) < limit {
		return &shortSample{found: len(ids)}
	}
	return fetchVariants(ctx, q, ord, ids, fn)
}

// familiesPerStatement bounds the family IDs one statement of
// fetchVariants binds: with puzzles_family each is one search of it;
// without, a statement reads the whole table, so it takes many more.
const (
	familiesPerStatement          = 256
	familiesPerStatementUnindexed = 16384
)

// fetchVariants passes to fn one variant of each family of fams, in their
// order: of a family's puzzles, the one whose ID hashes lowest under the
// order's salt.
func fetchVariants(ctx context.Context, q sqlx.QueryerContext, ord *randomOrder, fams []int64, fn func(Row) error) error {
	per := familiesPerStatement
	if !ord.variantsIndexed {
		per = familiesPerStatementUnindexed
	}
	type pick struct {
		id   int64
		hash uint64
	}
	picks := make(map[int64]pick, len(fams))
	salt := ord.salt ^ variantSalt
	for rest := fams; len(rest) > 0; {
		chunk := rest[:min(len(rest), per)]
		rest = rest[len(chunk):]
		args := paddedIDs(chunk)
		rows, err := q.QueryContext(ctx, variantsSQL(len(args)), args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, fam int64
			if err := rows.Scan(&id, &fam); err != nil {
				rows.Close()
				return err
			}
			h := mix64(salt ^ uint64(id))
			if p, ok := picks[fam]; !ok || h < p.hash {
				picks[fam] = pick{id, h}
			}
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return err
		}
		if err := rows.Close(); err != nil {
			return err
		}
	}
	ids := make([]int64, len(fams))
	for i, fam := range fams {
		p, ok := picks[fam]
		if !ok {
			return fmt.Errorf("family %d has no puzzle: %w", fam, ErrNotFound)
		}
		ids[i] = p.id
	}
	return fetchRows(ctx, q, ids, fn)
}

// variantsSQL returns the statement that reads the IDs and families of
// the puzzles of n families.
func variantsSQL(n int) string {
	return "SELECT p.id, p.family_id FROM puzzles p WHERE p.family_id IN (?" + strings.Repeat(", ?", n-1) + ")"
}
