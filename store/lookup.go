package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"sudokubank/grid"
)

// FamilyByCanon returns the family whose canonical form is canon (gen's
// Canon of any of its puzzles, N*N characters, '.' for an empty cell), or
// ErrNotFound: the family of any isomorph of a puzzle. It searches the
// canon key's window, as a writer does (see window), with the unique
// index on the keys.
func (db *DB) FamilyByCanon(ctx context.Context, canon string) (Family, error) {
	if _, ok := grid.ShapeOfCells(len(canon)); !ok {
		return Family{}, fmt.Errorf("family of %q: %w", canon, ErrNotFound)
	}
	lo, hi := window(canonKey(canon))
	var id int64
	err := db.db.GetContext(ctx, &id, "SELECT id FROM families WHERE canon_key BETWEEN ? AND ? AND canon = ?", lo, hi, canon)
	if errors.Is(err, sql.ErrNoRows) {
		return Family{}, fmt.Errorf("family of %s: %w", canon, ErrNotFound)
	}
	if err != nil {
		return Family{}, fmt.Errorf("family of %s: %w", canon, err)
	}
	return db.Family(ctx, id)
}

// FirstPuzzleOf returns the stored puzzle of family f with the lowest ID,
// or ErrNotFound if the family has none.
//
// No index holds the puzzles by family (migrations/0003 dropped it: the
// writer would pay for it on every row). A family's puzzles are
// transforms of its canonical form, so they share its size, level and
// number of givens, and the bucket index (size, level and givens) narrows the
// search to them and the other families of that bucket: a scan of about
// a sixtieth of the bank. A row that disagrees (hand-made, or written
// by a program that broke the rule) is still found, by a scan of the
// whole table.
func (db *DB) FirstPuzzleOf(ctx context.Context, f Family) (Row, error) {
	var r Row
	err := db.db.GetContext(ctx, &r, "SELECT "+rowColumns+` FROM puzzles p JOIN families f ON f.id = p.family_id
		WHERE `+bucketExpr("p")+` = ? AND p.family_id = ? ORDER BY p.id LIMIT 1`, bucketOf(f.size(), f.Level, f.Givens), f.ID)
	if errors.Is(err, sql.ErrNoRows) {
		err = db.db.GetContext(ctx, &r, "SELECT "+rowColumns+` FROM puzzles p JOIN families f ON f.id = p.family_id
			WHERE p.family_id = ? ORDER BY p.id LIMIT 1`, f.ID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return Row{}, fmt.Errorf("puzzles of family %d: %w", f.ID, ErrNotFound)
	}
	if err != nil {
		return Row{}, fmt.Errorf("puzzles of family %d: %w", f.ID, err)
	}
	r.unpack()
	return r, nil
}
