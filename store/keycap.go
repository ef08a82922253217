package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/jmoiron/sqlx"
)

// KeyCap bounds the bank's families of one kind, those whose hardest
// step is a technique or whose ER is in a band, as a run that tops the
// bank up to a quota of such families must (bankgen -quota x-wing=500):
// judged in each batch's transaction like Caps, so that two runs on one
// bank stop on it together. Size, as in a Filter, counts the families of
// one size, as Caps counts a level's (a run fills one size); 0 counts
// every size. A KeyCap keeps what it has counted between batches, so it
// belongs to one writer.
type KeyCap struct {
	Size                 int    // the grids' N; 0 for every size
	Hardest              string // the technique's slug; "" for any
	RatingMin, RatingMax int    // the ER band in tenths; 0 is an open end
	Max                  int64  // the most such families the bank may hold

	// counted is how many such families have an ID up to through: no
	// family is ever deleted, and a new one takes an ID above every
	// stored one, so a later batch counts only the IDs above through.
	counted, through int64
}

// Limits are what WriteBatchLimited keeps the bank within.
type Limits struct {
	Levels Caps    // per level and size; NoCaps for none
	Key    *KeyCap // nil for none
}

// matches reports whether a family of size n with hardest step hardest
// and ER er is of the cap's kind.
func (k *KeyCap) matches(n int, hardest string, er int) bool {
	return (k.Size == 0 || n == k.Size) && (k.Hardest == "" || hardest == k.Hardest) &&
		(k.RatingMin == 0 || er >= k.RatingMin) && (k.RatingMax == 0 || er <= k.RatingMax)
}

// WriteBatchLimited is WriteBatchCapped with a cap on the families of
// one kind too (lim.Key): of the batch's new families that would pass
// either cap, the first in batch order that fit are written and the rest
// left out (WriteResult.OverCap).
func (db *DB) WriteBatchLimited(ctx context.Context, batch []NewFamily, lim Limits) (WriteResult, error) {
	return db.writeBatchLimited(ctx, batch, lim)
}

// overLimits returns the batch indexes of the new families that would
// take the bank past lim, given what committed before the batch, which
// tx reads under the write lock: those over a level's cap (overCaps),
// then, of the others, the last of the key's kind in batch order.
func overLimits(ctx context.Context, tx *sqlx.Tx, batch []NewFamily, fams []famRow, lim Limits) ([]int, error) {
	over, err := overCaps(ctx, tx, batch, fams, lim.Levels)
	if err != nil || lim.Key == nil {
		return over, err
	}
	k := lim.Key
	first := int64(-1) // the lowest ID the batch gives a family
	for i := range fams {
		if fams[i].isNew && (first < 0 || fams[i].id < first) {
			first = fams[i].id
		}
	}
	if first < 0 {
		return over, nil
	}
	// The families stored before the batch have IDs below its first, and
	// those up to k.through are counted already.
	q := "SELECT count(*) FROM families WHERE id > ? AND id < ?"
	args := []any{k.through, first}
	if k.Size != 0 {
		q += " AND size = ?"
		args = append(args, k.Size)
	}
	if k.Hardest != "" {
		q += " AND hardest = ?"
		args = append(args, k.Hardest)
	}
	if k.RatingMin != 0 {
		q += " AND er >= ?"
		args = append(args, k.RatingMin)
	}
	if k.RatingMax != 0 {
		q += " AND er <= ?"
		args = append(args, k.RatingMax)
	}
	var n int64
	if err := tx.GetContext(ctx, &n, q, args...); err != nil {
		return nil, fmt.Errorf("count families of the quota's kind: %w", err)
	}
	// Rows that committed before this transaction: counted whether or
	// not the batch commits.
	k.counted, k.through = k.counted+n, first-1
	left := max(k.Max-k.counted, 0)
	dropped := make([]bool, len(batch))
	for _, i := range over {
		dropped[i] = true
	}
	for i := range batch {
		if !fams[i].isNew || dropped[i] || !k.matches(fams[i].size, batch[i].Hardest, fams[i].er) {
			continue
		}
		if left == 0 {
			over = append(over, i)
		} else {
			left--
		}
	}
	slices.Sort(over)
	return over, nil
}
