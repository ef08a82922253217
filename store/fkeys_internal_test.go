package store

import (
	"context"
	"errors"
	"testing"
)

// WriteBatch turns SQLite's foreign key and CHECK constraint checks off
// for its transaction: a family that names a run the bank does not have
// must still be refused, with nothing written, and the connection must
// have its checks back on after a batch, written or failed.
func TestWriteBatchForeignKeys(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	checksOn := func(when string) {
		t.Helper()
		var on int
		if err := db.db.GetContext(ctx, &on, "PRAGMA foreign_keys"); err != nil {
			t.Fatal(err)
		}
		if on != 1 {
			t.Errorf("%s: foreign_keys = %d, want 1", when, on)
		}
		_, err := db.db.ExecContext(ctx, `INSERT INTO puzzles (family_id, puzzle, solution, sort_key, level, givens, er)
			VALUES (12345, zeroblob(41), zeroblob(41), 1, 1, 30, 10)`)
		if err == nil {
			t.Errorf("%s: a puzzle of a family that is not stored was inserted", when)
		}
		if err := db.db.GetContext(ctx, &on, "PRAGMA ignore_check_constraints"); err != nil {
			t.Fatal(err)
		}
		if on != 0 {
			t.Errorf("%s: ignore_check_constraints = %d, want 0", when, on)
		}
		_, err = db.db.ExecContext(ctx, `INSERT INTO puzzles (family_id, puzzle, solution, sort_key, level, givens, er)
			VALUES (1, zeroblob(40), zeroblob(41), 1, 1, 30, 10)`)
		if err == nil {
			t.Errorf("%s: a puzzle of 40 bytes was inserted", when)
		}
	}
	family := func(i int, run int64) NewFamily {
		g := benchGrid(i)
		return NewFamily{
			Family:  Family{Canon: g, Level: 1, Givens: 30, ER: 12, Source: "gen", RunID: run},
			Puzzles: []Puzzle{{Puzzle: g, Solution: g}},
		}
	}

	run, err := db.StartRun(ctx, Run{Params: "{}"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, []NewFamily{family(1, run), family(2, 0)}); err != nil {
		t.Fatal(err)
	}
	checksOn("after a batch")

	_, err = db.WriteBatch(ctx, []NewFamily{family(3, run), family(4, run+1)})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("WriteBatch with a family of run %d, which is not stored: error %v, want ErrNotFound", run+1, err)
	}
	checksOn("after a failed batch")
	var n int
	if err := db.db.GetContext(ctx, &n, "SELECT COUNT(*) FROM families"); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("families after the failed batch = %d, want 2", n)
	}
}
