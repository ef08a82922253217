package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
)

// rareRows bounds the puzzles a technique's families may have for a
// query to take the rare-technique plan, which holds every match in
// memory (about half a KB a row) before it orders them.
const rareRows = 50_000

// A technique filter is checked by the family of every puzzle row the
// query's plan reads: for a technique few families use, that is nearly
// the whole table for a few matches. queryRare finds the families that
// use it (one pass over the families table, which is the puzzles' size
// over the variants per family), reads their puzzles through the index
// puzzles_family (migration 0014), one search a family, and puts the
// matches in the order the query asks for. A bank without that index (a
// reader while a bulk load has it deferred) may still have puzzles_bucket:
// a puzzle has its family's level and givens, so the families' puzzles
// lie in their (level, givens) buckets, which that index holds by one
// number each (bucketOf), and the plan reads those buckets keeping the
// rows of those families: the same rows, more read.

// rareIDsPerStatement bounds the family IDs one statement of
// rareRowsByFamily or rareRowsByBucket binds, well under SQLite's 32,766
// variables with room for the filter's own.
var rareIDsPerStatement = 10_000

// rareFamily is a family that uses the filter's technique.
type rareFamily struct {
	ID     int64 `db:"id"`
	Size   int   `db:"size"`
	Level  int   `db:"level"`
	Givens int   `db:"givens"`
}

// queryRare runs a query whose technique's families have at most
// rareRows puzzles, matches of them in the filter's levels, by the
// rare-technique plan, if reading their puzzles is cheaper than the usual
// plan's walk, and reports whether it did.
func queryRare(ctx context.Context, q sqlx.QueryerContext, f Filter, o QueryOptions, ord *randomOrder, matches int64, fn func(Row) error) (bool, error) {
	idx, counts, families, total, err := rareCounts(ctx, q, f)
	if err != nil || idx == rareNoIndex {
		return false, err
	}
	// The usual plan reads the levels' rows (by ID, the whole table) up
	// to its limit: with matches spread evenly, limit/matches of them.
	// A row it reads costs a seek of its family; one this plan reads, a
	// seek of the row: about the same.
	walk := total
	if o.Limit > 0 && o.Order != OrderRandom && !o.OnePerFamily && int64(o.Limit) < matches {
		walk = total * int64(o.Limit) / matches
	}
	// Finding the families reads every one of them: when that alone
	// costs the walk (a bank of one puzzle a family), the plan cannot
	// win, and the families are not read for nothing.
	if families >= walk {
		return false, nil
	}
	fams, err := rareFamilies(ctx, q, f)
	if err != nil {
		return false, err
	}
	if idx == rareByFamily {
		// The families' puzzles, no more: matches counts them over
		// the filter's levels, whatever its givens.
		if families+matches >= walk {
			return false, nil
		}
		ids := make([]int64, len(fams))
		for i, fm := range fams {
			ids[i] = fm.ID
		}
		rows, err := rareRowsByFamily(ctx, q, f, ids)
		if err != nil {
			return false, err
		}
		return true, runRare(ctx, o, ord, rows, fn)
	}
	buckets := bucketsOf(fams)
	read := families
	for _, b := range counts {
		if _, ok := buckets[bucketKey{b.Size, b.Level, b.Givens}]; ok {
			read += b.Puzzles
		}
	}
	if read >= walk {
		return false, nil
	}
	rows, err := rareRowsByBucket(ctx, q, f, buckets)
	if err != nil {
		return false, err
	}
	return true, runRare(ctx, o, ord, rows, fn)
}

// bucketsOf returns the IDs of the families by their (level, givens).
func bucketsOf(fams []rareFamily) map[bucketKey][]int64 {
	buckets := map[bucketKey][]int64{}
	for _, fm := range fams {
		k := bucketKey{fm.Size, fm.Level, fm.Givens}
		buckets[k] = append(buckets[k], fm.ID)
	}
	return buckets
}

// runRare passes to fn the rows of the technique's families that the
// filter selects in the order and up to the limit the options ask for,
// as the usual plans would: a random order is ord. query has checked the
// options: the order is one of the three.
func runRare(ctx context.Context, o QueryOptions, ord *randomOrder, rows []Row, fn func(Row) error) error {
	switch o.Order {
	case OrderID:
		slices.SortFunc(rows, func(a, b Row) int { return cmp.Compare(a.ID, b.ID) })
	case OrderRating:
		slices.SortFunc(rows, func(a, b Row) int { return cmp.Or(cmp.Compare(a.ER, b.ER), cmp.Compare(a.ID, b.ID)) })
	case OrderRandom:
		ranks := make(map[int64]rank, len(rows))
		for i := range rows {
			ranks[rows[i].ID] = ord.rank(&rows[i])
		}
		slices.SortFunc(rows, func(a, b Row) int { return compareRank(ranks[a.ID], ranks[b.ID]) })
	}
	seen := map[int64]bool{}
	n := 0
	for _, r := range rows {
		if o.Limit > 0 && n >= o.Limit || o.UpToID > 0 && r.ID > o.UpToID {
			break
		}
		if o.OnePerFamily {
			if seen[r.FamilyID] {
				continue
			}
			seen[r.FamilyID] = true
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
		n++
	}
	return nil
}

// rareFamilies returns the families of the filter's levels and givens
// that use its technique.
func rareFamilies(ctx context.Context, q sqlx.QueryerContext, f Filter) ([]rareFamily, error) {
	g := Filter{Levels: f.Levels, GivensMin: f.GivensMin, GivensMax: f.GivensMax, Technique: f.Technique, Size: f.Size}
	w, args, _, err := g.where("f", "f.id", indexable{})
	if err != nil {
		return nil, err
	}
	var out []rareFamily
	if err := sqlx.SelectContext(ctx, q, &out, "SELECT f.id, f.size, f.level, f.givens FROM families f WHERE "+w, args...); err != nil {
		return nil, fmt.Errorf("families of technique %s: %w", f.Technique, err)
	}
	return out, nil
}

// rareIndex is the index the rare-technique plan reads the families'
// puzzles by.
type rareIndex int

const (
	rareNoIndex  rareIndex = iota // neither: a bulk load has them deferred
	rareByFamily                  // puzzles_family, one search a family
	rareByBucket                  // puzzles_bucket, one search a (level, givens)
)

// rareCounts returns the index the plan can read by, the bucket counts,
// how many families the bank holds (the rows rareFamilies reads, there
// being no index of the families by level) and how many puzzles the
// filter's levels hold. While a bulk load has both puzzles_family and
// puzzles_bucket deferred it returns rareNoIndex and reads nothing else.
func rareCounts(ctx context.Context, q sqlx.QueryerContext, f Filter) (idx rareIndex, counts []Bucket, families, total int64, err error) {
	var has struct {
		Family bool `db:"family"`
		Bucket bool `db:"bucket"`
	}
	if err := sqlx.GetContext(ctx, q, &has, `SELECT
		EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'puzzles_family') AS family,
		EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'puzzles_bucket') AS bucket`); err != nil {
		return rareNoIndex, nil, 0, 0, fmt.Errorf("find the family and (level, givens) indexes: %w", err)
	}
	switch {
	case has.Family:
		idx = rareByFamily
	case has.Bucket:
		idx = rareByBucket
	default:
		return rareNoIndex, nil, 0, 0, nil
	}
	if err := sqlx.SelectContext(ctx, q, &counts, "SELECT size, level, givens, families, puzzles FROM buckets"); err != nil {
		return rareNoIndex, nil, 0, 0, fmt.Errorf("bucket counts: %w", err)
	}
	for _, b := range counts {
		families += b.Families
		if (len(f.Levels) == 0 || slices.Contains(f.Levels, b.Level)) && (f.Size == 0 || f.Size == b.Size) {
			total += b.Puzzles
		}
	}
	return idx, counts, families, total, nil
}

// rareFilter returns the condition, over puzzles as p and families as
// f, of the filter's fields that rareFamilies has not checked, with its
// arguments: a puzzle has its family's technique, levels, givens and size.
func rareFilter(f Filter) (string, []any, error) {
	g := f
	g.Technique, g.Levels, g.GivensMin, g.GivensMax, g.Size, g.sizes = "", nil, 0, 0, 0, nil
	w, args, _, err := g.where("p", "p.family_id", indexable{})
	return w, args, err
}

// rareRowsByFamily returns the rows of the families fams that the filter
// selects, in no particular order: one search of puzzles_family a family.
func rareRowsByFamily(ctx context.Context, q sqlx.QueryerContext, f Filter, fams []int64) ([]Row, error) {
	w, wargs, err := rareFilter(f)
	if err != nil {
		return nil, err
	}
	return appendFamilyRows(ctx, q, nil, fams, nil, wargs, func(n int) string { return rareFamilySQL(w, n) })
}

// appendFamilyRows appends to rows those that stmt(n) reads for each
// chunk of n of the family IDs ids, at most rareIDsPerStatement a
// statement, bound after lead and before wargs.
func appendFamilyRows(ctx context.Context, q sqlx.QueryerContext, rows []Row, ids []int64, lead, wargs []any, stmt func(n int) string) ([]Row, error) {
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), rareIDsPerStatement)]
		ids = ids[len(chunk):]
		args := make([]any, 0, len(lead)+len(chunk)+len(wargs))
		args = append(args, lead...)
		for _, id := range chunk {
			args = append(args, id)
		}
		args = append(args, wargs...)
		if _, err := scanRows(ctx, q, stmt(len(chunk)), args, 0, nil, func(r Row) error {
			rows = append(rows, r)
			return nil
		}); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// rareFamilySQL returns the statement that reads the rows of n families
// through puzzles_family, their IDs the first n arguments, then those of
// the condition w. INDEXED BY keeps the plan off another index that a
// condition of w matches, which would read far more rows.
func rareFamilySQL(w string, n int) string {
	return "SELECT " + scanColumns + " FROM puzzles p INDEXED BY puzzles_family CROSS JOIN families f ON f.id = p.family_id" +
		" WHERE p.family_id IN (?" + strings.Repeat(", ?", n-1) + ") AND " + w
}

// rareRowsByBucket returns the rows of the buckets' families that the
// filter selects, in no particular order: one index search a bucket, the
// family ID checked before the family's row is read.
func rareRowsByBucket(ctx context.Context, q sqlx.QueryerContext, f Filter, buckets map[bucketKey][]int64) ([]Row, error) {
	w, wargs, err := rareFilter(f)
	if err != nil {
		return nil, err
	}
	keys := make([]bucketKey, 0, len(buckets))
	for k := range buckets {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b bucketKey) int {
		return cmp.Or(cmp.Compare(a.size, b.size), cmp.Compare(a.level, b.level), cmp.Compare(a.givens, b.givens))
	})
	var rows []Row
	for _, k := range keys {
		// A bucket of one puzzle a family (an import) may hold more
		// families than SQLite takes variables in one statement; each
		// chunk reads the bucket again, which only such banks pay.
		if rows, err = appendFamilyRows(ctx, q, rows, buckets[k], []any{bucketOf(k.size, k.level, k.givens)}, wargs,
			func(n int) string { return rareBucketSQL(w, n) }); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// rareBucketSQL returns the statement that reads one bucket's rows of n
// families through puzzles_bucket, its number the first argument, the
// family IDs the next n, then those of the condition w. INDEXED BY
// keeps the plan off the table's rowid order, which would read the whole
// table; the condition states the index's expression so that the plan
// searches the bucket's entries rather than scanning the whole index,
// which INDEXED BY would allow.
func rareBucketSQL(w string, n int) string {
	return "SELECT " + scanColumns + " FROM puzzles p INDEXED BY puzzles_bucket CROSS JOIN families f ON f.id = p.family_id" +
		" WHERE " + bucketExpr("p") + " = ? AND +p.family_id IN (?" + strings.Repeat(", ?", n-1) + ") AND " + w
}
