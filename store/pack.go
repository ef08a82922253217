package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// PackSpec describes a pack to create.
type PackSpec struct {
	Name       string
	Client     string // who the pack is for; "" for none (no reservations)
	Format     string // the export format, as the command names it
	FilterText string // the filters as the user gave them, for the record
}

// Pack is a recorded export.
type Pack struct {
	ID int64
	PackSpec
	Size      int
	CreatedAt time.Time
}

// CreatePack selects n puzzles and records them as a pack, in one
// transaction: the selection, the pack, its items in order and, when
// spec.Client is set, the reservation of each item's family to that
// client. Two concurrent calls therefore never hand one family to two
// clients.
//
// The selection is Query's with OnePerFamily forced and n as the limit,
// and it never picks a family reserved to a client other than
// spec.Client (for a pack without a client: any reserved family). Set
// f.NotForClient to spec.Client as well to also skip families this client
// already has, or f.Fresh to skip every family that is in some pack.
//
// When fewer than n puzzles match, nothing is recorded and the error
// wraps ErrNotEnough with the number that did.
func (db *DB) CreatePack(ctx context.Context, spec PackSpec, f Filter, o QueryOptions, n int) (Pack, []Row, error) {
	return db.CreatePackWith(ctx, spec, f, o, n, PackHooks{})
}

// PackHooks let the caller of CreatePackWith shape a pack and finish its
// own work inside the pack's transaction.
type PackHooks struct {
	// Arrange, when set, reorders the selected rows in place before they
	// are recorded: the pack's positions follow the new order.
	Arrange func(rows []Row)
	// BeforeCommit, when set, is called once the pack and its items are
	// recorded and before the transaction commits. An error from it rolls
	// everything back and is returned; the exporter writes its file here,
	// so that a pack is recorded only if its file could be written.
	// The bank stays locked for writing while it runs.
	BeforeCommit func(ctx context.Context, p Pack, rows []Row) error
}

// CreatePackWith is CreatePack with hooks: the selected rows may be
// reordered before they are recorded, and the caller's own work can
// decide, before the commit, whether the pack is recorded at all.
func (db *DB) CreatePackWith(ctx context.Context, spec PackSpec, f Filter, o QueryOptions, n int, h PackHooks) (Pack, []Row, error) {
	if n <= 0 {
		return Pack{}, nil, fmt.Errorf("create pack %q: size %d: %w", spec.Name, n, ErrInvalid)
	}
	if spec.Name == "" {
		return Pack{}, nil, fmt.Errorf("create pack: no name: %w", ErrInvalid)
	}
	o.Limit = n
	o.OnePerFamily = true
	f.packFor = &spec.Client
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
	}
	defer tx.Rollback()

	var rows []Row
	err = query(ctx, tx, f, o, func(r Row) error {
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
	}
	if len(rows) < n {
		return Pack{}, nil, fmt.Errorf("create pack %q: %d of %d puzzles match: %w", spec.Name, len(rows), n, ErrNotEnough)
	}
	if h.Arrange != nil {
		h.Arrange(rows)
	}
	now := time.Now()
	res, err := tx.ExecContext(ctx, `INSERT INTO packs (name, client, format, filter, size, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, spec.Name, spec.Client, spec.Format, spec.FilterText, n, now.Unix())
	if err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
	}
	// The items and reservations go in with one statement each, from the
	// batch table: a statement per item cost more than the rest of a
	// pack.
	if err := withRows(ctx, tx); err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
	}
	_, err = execRows(ctx, tx, `INSERT INTO pack_items (pack_id, position, puzzle_id, family_id)
		SELECT c0, c1, c2, c3 FROM `+rowsTable+` WHERE handle = ?`,
		funcSource{len(rows), func(i, col int) any {
			switch col {
			case 0:
				return id
			case 1:
				return int64(i + 1)
			case 2:
				return rows[i].ID
			default:
				return rows[i].FamilyID
			}
		}})
	if err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: items: %w", spec.Name, err)
	}
	if spec.Client != "" {
		fams := funcSource{len(rows), func(i, col int) any {
			switch col {
			case 0:
				return rows[i].FamilyID
			case 1:
				return spec.Client
			case 2:
				return id
			default:
				return now.Unix()
			}
		}}
		_, err = execRows(ctx, tx, `INSERT INTO reservations (family_id, client, pack_id, created_at)
			SELECT c0, c1, c2, c3 FROM `+rowsTable+` WHERE handle = ?
			ON CONFLICT (family_id) DO NOTHING`, fams)
		if err != nil {
			return Pack{}, nil, fmt.Errorf("create pack %q: reserve families: %w", spec.Name, err)
		}
		// The selection excluded other clients' families; check anyway,
		// since exclusivity is the promise this table keeps.
		var (
			fam   int64
			owner string
		)
		err = queryRows(ctx, tx, `SELECT v.family_id, v.client
			FROM `+rowsTable+` r CROSS JOIN reservations v ON v.family_id = r.c0
			WHERE r.handle = ? AND v.client <> r.c1 LIMIT 1`, fams,
			func(r *sql.Rows) error { return r.Scan(&fam, &owner) })
		if err != nil {
			return Pack{}, nil, fmt.Errorf("create pack %q: reserve families: %w", spec.Name, err)
		}
		if owner != "" {
			return Pack{}, nil, fmt.Errorf("create pack %q: family %d is reserved to %q: %w", spec.Name, fam, owner, ErrReserved)
		}
	}
	pack := Pack{ID: id, PackSpec: spec, Size: n, CreatedAt: time.Unix(now.Unix(), 0).UTC()}
	if h.BeforeCommit != nil {
		if err := h.BeforeCommit(ctx, pack, rows); err != nil {
			return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			// database/sql rolled the transaction back when ctx was
			// cancelled; say so rather than "already rolled back".
			err = cerr
		}
		return Pack{}, nil, fmt.Errorf("create pack %q: commit: %w", spec.Name, err)
	}
	return pack, rows, nil
}

// DeletePack removes pack id, its items and the reservations it made, in
// one transaction: it undoes a CreatePack whose export failed after the
// commit. Reservations a client holds from other packs stay.
func (db *DB) DeletePack(ctx context.Context, id int64) error {
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete pack %d: %w", id, err)
	}
	defer tx.Rollback()
	for _, q := range []string{
		"DELETE FROM reservations WHERE pack_id = ?",
		"DELETE FROM pack_items WHERE pack_id = ?",
	} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return fmt.Errorf("delete pack %d: %w", id, err)
		}
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM packs WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete pack %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete pack %d: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("delete pack %d: %w", id, ErrNotFound)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete pack %d: commit: %w", id, err)
	}
	return nil
}

// Packs returns every pack, oldest first.
func (db *DB) Packs(ctx context.Context) ([]Pack, error) {
	var rows []struct {
		ID        int64  `db:"id"`
		Name      string `db:"name"`
		Client    string `db:"client"`
		Format    string `db:"format"`
		Filter    string `db:"filter"`
		Size      int    `db:"size"`
		CreatedAt int64  `db:"created_at"`
	}
	if err := db.db.SelectContext(ctx, &rows, "SELECT id, name, client, format, filter, size, created_at FROM packs ORDER BY id"); err != nil {
		return nil, fmt.Errorf("packs: %w", err)
	}
	out := make([]Pack, len(rows))
	for i, r := range rows {
		out[i] = Pack{ID: r.ID, PackSpec: PackSpec{Name: r.Name, Client: r.Client, Format: r.Format, FilterText: r.Filter},
			Size: r.Size, CreatedAt: time.Unix(r.CreatedAt, 0).UTC()}
	}
	return out, nil
}

// PackRows returns the puzzles of pack id in pack order, or ErrNotFound.
func (db *DB) PackRows(ctx context.Context, id int64) ([]Row, error) {
	var n int
	if err := db.db.GetContext(ctx, &n, "SELECT count(*) FROM packs WHERE id = ?", id); err != nil {
		return nil, fmt.Errorf("pack %d: %w", id, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("pack %d: %w", id, ErrNotFound)
	}
	var rows []Row
	err := db.db.SelectContext(ctx, &rows, "SELECT "+rowColumns+` FROM pack_items i
		JOIN puzzles p ON p.id = i.puzzle_id JOIN families f ON f.id = p.family_id
		WHERE i.pack_id = ? ORDER BY i.position`, id)
	if err != nil {
		return nil, fmt.Errorf("pack %d: %w", id, err)
	}
	for i := range rows {
		rows[i].unpack()
	}
	return rows, nil
}
