package store

import (
	"context"
	"errors"
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
	db := openTempBank(t, Options{})
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

// TestFamilyCounts checks that packed_families and client_families hold
// exactly what pack_items says, through packs with and without clients,
// reprints and deletions.
func TestFamilyCounts(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	var batch []NewFamily
	for i := range 60 {
		batch = append(batch, NewFamily{
			Family: Family{Canon: "9" + ninesDigits(i) + strings.Repeat(".", 60), ER: 20, Level: 2,
				Givens: 21, Hardest: "hidden-single", Symmetry: "none", Source: "gen"},
			Puzzles: []Puzzle{
				{Puzzle: "1" + ninesDigits(i) + strings.Repeat(".", 60), Solution: strings.Repeat("123456789", 9)},
				{Puzzle: "2" + ninesDigits(i) + strings.Repeat(".", 60), Solution: strings.Repeat("123456789", 9)},
			},
		})
	}
	if _, err := db.WriteBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		for _, q := range []struct{ want, got string }{
			{"SELECT family_id || ' ' || count(*) FROM pack_items GROUP BY family_id ORDER BY family_id",
				"SELECT family_id || ' ' || packs FROM packed_families ORDER BY family_id"},
			{`SELECT i.family_id || ' ' || k.client || ' ' || count(*) FROM pack_items i JOIN packs k ON k.id = i.pack_id
				WHERE k.client <> '' GROUP BY i.family_id, k.client ORDER BY i.family_id, k.client`,
				"SELECT family_id || ' ' || client || ' ' || packs FROM client_families ORDER BY family_id, client"},
		} {
			var want, got []string
			if err := db.db.SelectContext(ctx, &want, q.want); err != nil {
				t.Fatal(err)
			}
			if err := db.db.SelectContext(ctx, &got, q.got); err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 && len(got) == 0 {
				continue
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: counts\n%v\nwant (from pack_items)\n%v", step, got, want)
			}
		}
	}
	var ids []int64
	for i, spec := range []PackSpec{
		{Name: "a", Client: "acme"}, {Name: "b"}, {Name: "c", Client: "globex"},
		{Name: "d", Client: "acme"}, {Name: "e"},
	} {
		p, _, err := db.CreatePack(ctx, spec, Filter{}, QueryOptions{Order: OrderRandom, Seed: uint64(i)}, 15)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
		check("after pack " + spec.Name)
	}
	for _, id := range []int64{ids[0], ids[4], ids[2]} {
		if err := db.DeletePack(ctx, id); err != nil {
			t.Fatal(err)
		}
		check("after deleting a pack")
	}
}
