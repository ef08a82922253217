package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRecordItems records items straight, bypassing the selection that
// normally keeps other clients' families out: the items keep their
// order, the client's reservations are made, and a family reserved to
// another client fails the pack with ErrReserved. The chunked insert is
// exercised across its boundary.
func TestRecordItems(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "bank.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := itemsPerInsert + 7
	var batch []NewFamily
	for i := range n {
		batch = append(batch, NewFamily{
			Family: Family{Canon: "9" + ninesDigits(i) + strings.Repeat(".", 60), ER: 20, Level: 2,
				Givens: 21, Hardest: "hidden-single", Symmetry: "none", Source: "gen"},
			Puzzles: []Puzzle{{Puzzle: "1" + ninesDigits(i) + strings.Repeat(".", 60), Solution: strings.Repeat("123456789", 9)}},
		})
	}
	if _, err := db.WriteBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	var rows []Row
	if err := db.Query(ctx, Filter{}, QueryOptions{}, func(r Row) error { rows = append(rows, r); return nil }); err != nil {
		t.Fatal(err)
	}
	// A pack order that is not the family order.
	slices.Reverse(rows)

	record := func(client string, rows []Row) (int64, error) {
		tx, err := db.db.BeginTxx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		res, err := tx.ExecContext(ctx, "INSERT INTO packs (name, client, size, created_at) VALUES ('p', ?, ?, 0)", client, len(rows))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		if err := recordItems(ctx, tx, id, client, 0, rows); err != nil {
			return 0, err
		}
		return id, tx.Commit()
	}
	id, err := record("acme", rows)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.PackRows(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, rows) {
		t.Errorf("PackRows gave %d rows, or another order, than the %d recorded", len(got), len(rows))
	}
	var reserved int
	if err := db.db.GetContext(ctx, &reserved, "SELECT count(*) FROM reservations WHERE client = 'acme' AND pack_id = ?", id); err != nil {
		t.Fatal(err)
	}
	if reserved != n {
		t.Errorf("%d families reserved to acme, want %d", reserved, n)
	}

	// acme may have its families again; globex may not.
	if _, err := record("acme", rows[:3]); err != nil {
		t.Errorf("a reprint for acme: %v", err)
	}
	if _, err := record("globex", rows[10:20]); !errors.Is(err, ErrReserved) {
		t.Errorf("globex given acme's families: error %v, want ErrReserved", err)
	}
}
