package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
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
	// ReleasedAt is when the pack gave its families back (ReleasePack);
	// zero while it holds them.
	ReleasedAt time.Time
}

// Released reports whether the pack has given its families back.
func (p Pack) Released() bool { return !p.ReleasedAt.IsZero() }

// PackPart is one part of a pack's selection: up to N puzzles that
// match Filter. CreatePackParts fills a pack part by part.
type PackPart struct {
	Filter Filter
	N      int
}

// ShortError is the error of a pack whose part Part (counted from 0)
// found only Found of the Want puzzles it needs. It wraps ErrNotEnough.
type ShortError struct {
	Part, Found, Want int
	// Matching is how many families the part's filters match when the
	// families its reservation rules keep from it (reserved to a client,
	// or the client's own) are counted too, up to Want: more than Found
	// says that reservations, not the filters, made the shortfall.
	Matching int
}

// Error says how many of the puzzles wanted match.
func (e *ShortError) Error() string {
	return fmt.Sprintf("%d of %d puzzles match: %v", e.Found, e.Want, ErrNotEnough)
}

// Unwrap makes errors.Is(err, ErrNotEnough) hold.
func (e *ShortError) Unwrap() error { return ErrNotEnough }

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
	return db.CreatePackParts(ctx, spec, []PackPart{{Filter: f, N: n}}, o, h)
}

// CreatePackParts is CreatePackWith for a pack chosen in parts, such as
// so many puzzles of each level: each part is one query, with o's order
// and seed and its own filter and N as the limit, and the pack holds the
// parts' rows one part after the other (before h.Arrange). The parts'
// filters should not overlap (the levels of per-level counts do not): a
// family two parts pick makes the pack fail, as a pack never holds a
// family twice. A part that finds fewer than its N puzzles fails the
// pack with a *ShortError naming it.
func (db *DB) CreatePackParts(ctx context.Context, spec PackSpec, parts []PackPart, o QueryOptions, h PackHooks) (Pack, []Row, error) {
	n := 0
	for _, p := range parts {
		if p.N <= 0 {
			return Pack{}, nil, fmt.Errorf("create pack %q: size %d: %w", spec.Name, p.N, ErrInvalid)
		}
		n += p.N
	}
	if n <= 0 {
		return Pack{}, nil, fmt.Errorf("create pack %q: size %d: %w", spec.Name, n, ErrInvalid)
	}
	if spec.Name == "" {
		return Pack{}, nil, fmt.Errorf("create pack: no name: %w", ErrInvalid)
	}
	if err := CheckName(spec.Name); err != nil {
		return Pack{}, nil, fmt.Errorf("create pack: name: %w", err)
	}
	if err := CheckName(spec.Client); err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: client: %w", spec.Name, err)
	}
	o.OnePerFamily = true
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
	}
	defer tx.Rollback()

	rows, err := selectParts(ctx, tx, parts, o, &spec.Client)
	if short := (*ShortError)(nil); errors.As(err, &short) && len(parts) > 1 {
		return Pack{}, nil, fmt.Errorf("create pack %q: part %d: %w", spec.Name, short.Part+1, short)
	}
	if err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
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
	if err := recordItems(ctx, tx, id, spec.Client, now.Unix(), rows); err != nil {
		return Pack{}, nil, fmt.Errorf("create pack %q: %w", spec.Name, err)
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

// SelectParts selects the rows CreatePackParts would, part after part,
// without recording a pack: the bank is only read, and families reserved
// to a client are skipped only where the parts' filters say so. A part
// that finds fewer than its N puzzles fails with a *ShortError naming it.
func (db *DB) SelectParts(ctx context.Context, parts []PackPart, o QueryOptions) ([]Row, error) {
	rows, err := selectParts(ctx, db.db, parts, o, nil)
	if short := (*ShortError)(nil); err != nil && !errors.As(err, &short) {
		return nil, fmt.Errorf("query: %w", err)
	}
	return rows, err
}

// selectParts runs each part's query on q, one family a puzzle, the
// rows one part after the other; packFor, when set, is the client whose
// pack they are for.
func selectParts(ctx context.Context, q sqlx.QueryerContext, parts []PackPart, o QueryOptions, packFor *string) ([]Row, error) {
	o.OnePerFamily, o.needAll = true, true
	var rows []Row
	for i, p := range parts {
		f := p.Filter
		f.packFor = packFor
		o.Limit = p.N
		got := 0
		err := query(ctx, q, f, o, func(r Row) error {
			rows = append(rows, r)
			got++
			return nil
		})
		// A sample that knew it was short counted its families without
		// reading them, as the part fails without them.
		if short := (*shortSample)(nil); errors.As(err, &short) {
			got, err = short.found, nil
		}
		if err != nil {
			return nil, err
		}
		if got < p.N {
			// The sample has read every family it may take; those the
			// reservations keep from it are counted from the reservations,
			// not by reading the selection again.
			kept, err := keptFamilies(ctx, q, f)
			if err != nil {
				return nil, err
			}
			return nil, &ShortError{Part: i, Found: got, Want: p.N, Matching: int(min(int64(got)+kept, int64(p.N)))}
		}
	}
	return rows, nil
}

// keptFamilies counts the families that match f's filters but that its
// reservation rules (Unreserved, NotForClient, and a pack's own) keep
// from it. It reads the reservations and the client's families, which
// are few beside the bank, and looks up each one's family: never the
// selection itself.
func keptFamilies(ctx context.Context, q sqlx.QueryerContext, f Filter) (int64, error) {
	var (
		sets []string
		args []any
	)
	switch {
	case f.Unreserved || f.packFor != nil && *f.packFor == "":
		sets = append(sets, "SELECT family_id FROM reservations")
	case f.packFor != nil:
		sets = append(sets, "SELECT family_id FROM reservations WHERE client <> ?")
		args = append(args, *f.packFor)
	}
	if f.NotForClient != "" {
		sets = append(sets, "SELECT family_id FROM reservations WHERE client <> ?",
			"SELECT family_id FROM client_families WHERE client = ?")
		args = append(args, f.NotForClient, f.NotForClient)
	}
	if len(sets) == 0 {
		return 0, nil
	}
	g := f
	g.Unreserved, g.NotForClient, g.packFor = false, "", nil
	g, err := g.withSizes(ctx, q)
	if err != nil {
		return 0, err
	}
	w, wargs, _, err := g.where("f", "f.id", indexable{})
	if err != nil {
		return 0, err
	}
	var n int64
	s := "SELECT count(*) FROM families f WHERE f.id IN (" + strings.Join(sets, " UNION ") + ") AND " + w
	if err := sqlx.GetContext(ctx, q, &n, s, append(args, wargs...)...); err != nil {
		return 0, fmt.Errorf("count reserved families: %w", err)
	}
	return n, nil
}

// LevelCount asks a pack chosen per level for N puzzles of level Level
// (1 to 5).
type LevelCount struct{ Level, N int }

// LevelParts returns the parts of a pack chosen per level: f narrowed to
// each level of counts in turn, with that level's count.
func LevelParts(f Filter, counts []LevelCount) []PackPart {
	parts := make([]PackPart, len(counts))
	for i, lc := range counts {
		pf := f
		pf.Levels = []int{lc.Level}
		parts[i] = PackPart{Filter: pf, N: lc.N}
	}
	return parts
}

// SortRows puts rows in order o, as Query returns them: by ID, or by ER
// then ID. OrderRandom leaves them as they are: a random sample comes in
// its random order.
func SortRows(rows []Row, o Order) {
	switch o {
	case OrderRating:
		// IDs are unique, so the order is total and needs no stable sort.
		slices.SortFunc(rows, func(a, b Row) int { return cmp.Or(cmp.Compare(a.ER, b.ER), cmp.Compare(a.ID, b.ID)) })
	case OrderID:
		slices.SortFunc(rows, func(a, b Row) int { return cmp.Compare(a.ID, b.ID) })
	}
}

// MixParts shuffles rows selected in parts, which come one part after
// the other, by a shuffle drawn from seed: in a random order the parts'
// rows are mixed, as one sample of them all would be.
func MixParts(rows []Row, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6c6576656c73)) // "levels"
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
}

// itemsPerInsert is how many pack items one INSERT statement carries:
// four bound values each, well under SQLite's 32,766.
const itemsPerInsert = 500

// recordItems records rows as the items of pack id, in order, counts
// the pack in packed_families and, with a client, in client_families,
// and reserves the families to the client.
//
// The items go in by multi-row INSERTs of itemsPerInsert rows, sorted by
// family so that the family-keyed B-trees take them in key order; the
// counts, the reservations and their check are one statement each over
// the new items, rather than statements per item.
func recordItems(ctx context.Context, tx *sqlx.Tx, id int64, client string, now int64, rows []Row) error {
	type item struct {
		family, puzzle int64
		position       int
	}
	items := make([]item, len(rows))
	for i, r := range rows {
		items[i] = item{r.FamilyID, r.ID, i + 1}
	}
	slices.SortFunc(items, func(a, b item) int { return cmp.Compare(a.family, b.family) })

	var full *sql.Stmt // the statement of a whole chunk, prepared once
	args := make([]any, 0, 4*itemsPerInsert)
	for start := 0; start < len(items); start += itemsPerInsert {
		chunk := items[start:min(len(items), start+itemsPerInsert)]
		args = args[:0]
		for _, it := range chunk {
			args = append(args, id, it.position, it.puzzle, it.family)
		}
		var err error
		if len(chunk) == itemsPerInsert {
			if full == nil {
				if full, err = tx.PrepareContext(ctx, insertItemsSQL(itemsPerInsert)); err != nil {
					return fmt.Errorf("items: %w", err)
				}
				defer full.Close()
			}
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, insertItemsSQL(len(chunk)), args...)
		}
		if err != nil {
			return fmt.Errorf("items: %w", err)
		}
	}
	// The (pack_id, family_id) index gives the new items in family
	// order. An INSERT ... SELECT needs its WHERE before an upsert clause.
	_, err := tx.ExecContext(ctx, `INSERT INTO packed_families (family_id, packs)
		SELECT i.family_id, 1 FROM pack_items i WHERE i.pack_id = ? ORDER BY i.family_id
		ON CONFLICT (family_id) DO UPDATE SET packs = packs + 1`, id)
	if err != nil {
		return fmt.Errorf("count families: %w", err)
	}
	if client == "" {
		return nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO client_families (family_id, client, packs)
		SELECT i.family_id, ?, 1 FROM pack_items i WHERE i.pack_id = ? ORDER BY i.family_id
		ON CONFLICT (family_id, client) DO UPDATE SET packs = packs + 1`, client, id)
	if err != nil {
		return fmt.Errorf("count families: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO reservations (family_id, client, pack_id, created_at)
		SELECT i.family_id, ?, ?, ? FROM pack_items i WHERE i.pack_id = ? ORDER BY i.family_id
		ON CONFLICT (family_id) DO NOTHING`, client, id, now, id)
	if err != nil {
		return fmt.Errorf("reserve families: %w", err)
	}
	// The selection excluded other clients' families; check anyway,
	// since exclusivity is the promise this table keeps.
	var taken []struct {
		Family int64  `db:"family_id"`
		Client string `db:"client"`
	}
	err = tx.SelectContext(ctx, &taken, `SELECT r.family_id, r.client FROM pack_items i
		JOIN reservations r ON r.family_id = i.family_id
		WHERE i.pack_id = ? AND r.client <> ? LIMIT 1`, id, client)
	if err != nil {
		return fmt.Errorf("reserve families: %w", err)
	}
	if len(taken) > 0 {
		return fmt.Errorf("family %d is reserved to %q: %w", taken[0].Family, taken[0].Client, ErrReserved)
	}
	return nil
}

// insertItemsSQL returns the INSERT of n pack items.
func insertItemsSQL(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO pack_items (pack_id, position, puzzle_id, family_id) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?,?)")
	}
	return b.String()
}

// DeletePack removes pack id, its items, its counts in packed_families
// and client_families and the reservations it made, in one transaction:
// it undoes a CreatePack whose export failed after the commit.
// Reservations a client holds from other packs stay. A released pack
// counts nowhere already, so only its record goes.
func (db *DB) DeletePack(ctx context.Context, id int64) error {
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete pack %d: %w", id, err)
	}
	defer tx.Rollback()
	var released int
	if err := tx.GetContext(ctx, &released, "SELECT count(*) FROM packs WHERE id = ? AND released_at IS NOT NULL", id); err != nil {
		return fmt.Errorf("delete pack %d: %w", id, err)
	}
	if released == 0 {
		if err := uncount(ctx, tx, id); err != nil {
			return fmt.Errorf("delete pack %d: %w", id, err)
		}
	}
	for _, q := range []string{
		"DELETE FROM reservations WHERE pack_id = ?1",
		"DELETE FROM pack_items WHERE pack_id = ?1",
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

// uncount takes pack id's families out of packed_families and
// client_families: the counts go down by one, and the families no pack
// holds any more leave them, while the pack's items still name its
// families.
func uncount(ctx context.Context, tx *sqlx.Tx, id int64) error {
	const families = "SELECT i.family_id FROM pack_items i WHERE i.pack_id = ?1"
	for _, q := range []string{
		"UPDATE packed_families SET packs = packs - 1 WHERE family_id IN (" + families + ")",
		"DELETE FROM packed_families WHERE packs = 0 AND family_id IN (" + families + ")",
		`UPDATE client_families SET packs = packs - 1
			WHERE client = (SELECT client FROM packs WHERE id = ?1) AND family_id IN (` + families + ")",
		"DELETE FROM client_families WHERE packs = 0 AND family_id IN (" + families + ")",
	} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return err
		}
	}
	return nil
}

// ReleasePack makes pack id give its families back, and records when:
// the families are no longer reserved to its client, and the pack no
// longer counts for -fresh (Filter.Fresh) or for its client's "never the
// same family twice" (Filter.NotForClient), so that any export may pick
// them again. The pack's record and its items stay. A family the client
// holds from another pack not released stays reserved to them. It
// returns the pack as released and the number of families whose
// reservation it ended; a pack released already is ErrInvalid, a
// missing one ErrNotFound.
func (db *DB) ReleasePack(ctx context.Context, id int64) (Pack, int, error) {
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return Pack{}, 0, fmt.Errorf("release pack %d: %w", id, err)
	}
	defer tx.Rollback()
	p, err := getPack(ctx, tx, id)
	if err != nil {
		return Pack{}, 0, fmt.Errorf("release pack %d: %w", id, err)
	}
	if p.Released() {
		return Pack{}, 0, fmt.Errorf("release pack %d: released already, %s: %w", id, p.ReleasedAt.Format(time.DateTime), ErrInvalid)
	}
	if err := uncount(ctx, tx, id); err != nil {
		return Pack{}, 0, fmt.Errorf("release pack %d: %w", id, err)
	}
	now := time.Now().Unix()
	res, err := tx.ExecContext(ctx, "DELETE FROM reservations WHERE pack_id = ?", id)
	if err != nil {
		return Pack{}, 0, fmt.Errorf("release pack %d: %w", id, err)
	}
	freed, err := res.RowsAffected()
	if err != nil {
		return Pack{}, 0, fmt.Errorf("release pack %d: %w", id, err)
	}
	if p.Client != "" {
		// A family this pack reserved first may be in another of the
		// client's packs too; that pack, not released, keeps it.
		res, err := tx.ExecContext(ctx, `INSERT INTO reservations (family_id, client, pack_id, created_at)
			SELECT i.family_id, k.client, min(k.id), ?3 FROM pack_items i JOIN packs k ON k.id = i.pack_id
			WHERE k.client = ?2 AND k.id <> ?1 AND k.released_at IS NULL
				AND i.family_id IN (SELECT family_id FROM pack_items WHERE pack_id = ?1)
			GROUP BY i.family_id
			ON CONFLICT (family_id) DO NOTHING`, id, p.Client, now)
		if err != nil {
			return Pack{}, 0, fmt.Errorf("release pack %d: keep other packs' reservations: %w", id, err)
		}
		kept, err := res.RowsAffected()
		if err != nil {
			return Pack{}, 0, fmt.Errorf("release pack %d: %w", id, err)
		}
		freed -= kept
	}
	if _, err := tx.ExecContext(ctx, "UPDATE packs SET released_at = ? WHERE id = ?", now, id); err != nil {
		return Pack{}, 0, fmt.Errorf("release pack %d: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return Pack{}, 0, fmt.Errorf("release pack %d: commit: %w", id, err)
	}
	p.ReleasedAt = time.Unix(now, 0).UTC()
	return p, int(freed), nil
}

// PackReservations returns the number of families pack id holds
// reserved to its client: what ReleasePack would free.
func (db *DB) PackReservations(ctx context.Context, id int64) (int, error) {
	var n int
	if err := db.db.GetContext(ctx, &n, "SELECT count(*) FROM reservations WHERE pack_id = ?", id); err != nil {
		return 0, fmt.Errorf("pack %d: reservations: %w", id, err)
	}
	return n, nil
}

// packRow is a row of the packs table.
type packRow struct {
	ID         int64         `db:"id"`
	Name       string        `db:"name"`
	Client     string        `db:"client"`
	Format     string        `db:"format"`
	Filter     string        `db:"filter"`
	Size       int           `db:"size"`
	CreatedAt  int64         `db:"created_at"`
	ReleasedAt sql.NullInt64 `db:"released_at"`
}

const packColumns = "id, name, client, format, filter, size, created_at, released_at"

func (r packRow) pack() Pack {
	p := Pack{ID: r.ID, PackSpec: PackSpec{Name: r.Name, Client: r.Client, Format: r.Format, FilterText: r.Filter},
		Size: r.Size, CreatedAt: time.Unix(r.CreatedAt, 0).UTC()}
	if r.ReleasedAt.Valid {
		p.ReleasedAt = time.Unix(r.ReleasedAt.Int64, 0).UTC()
	}
	return p
}

// getPack reads pack id, or ErrNotFound.
func getPack(ctx context.Context, q sqlx.QueryerContext, id int64) (Pack, error) {
	var rows []packRow
	if err := sqlx.SelectContext(ctx, q, &rows, "SELECT "+packColumns+" FROM packs WHERE id = ?", id); err != nil {
		return Pack{}, err
	}
	if len(rows) == 0 {
		return Pack{}, ErrNotFound
	}
	return rows[0].pack(), nil
}

// Pack returns pack id, or ErrNotFound.
func (db *DB) Pack(ctx context.Context, id int64) (Pack, error) {
	p, err := getPack(ctx, db.db, id)
	if err != nil {
		return Pack{}, fmt.Errorf("pack %d: %w", id, err)
	}
	return p, nil
}

// AutoPackName is the name of a pack recorded without one given: the
// time now and the base name of file, the output written ("stdout" for
// standard output). The file's name is left out where it could not be
// part of a name (CheckName), and shortened to keep the name in bounds
// with room for the number FreePackName adds to a name taken.
func AutoPackName(now time.Time, file string) string {
	const numberRoom = len("-1000000")
	name := "export-" + now.UTC().Format("20060102T150405Z")
	base := filepath.Base(file)
	for room := MaxNameLen - len(name) - 1 - numberRoom; len(base) > room; {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	if base == "" || CheckName(base) != nil {
		return name
	}
	return name + "-" + base
}

// FreePackName returns name if no pack has it, and otherwise the first
// of name-2, name-3, ... that none has: the name to record a pack under
// whose name was made up, which another pack may have made up too.
func (db *DB) FreePackName(ctx context.Context, name string) (string, error) {
	packs, err := db.Packs(ctx)
	if err != nil {
		return "", err
	}
	taken := make(map[string]bool, len(packs))
	for _, p := range packs {
		taken[p.Name] = true
	}
	free := name
	for i := 2; taken[free]; i++ {
		free = fmt.Sprintf("%s-%d", name, i)
	}
	return free, nil
}

// Packs returns every pack, oldest first.
func (db *DB) Packs(ctx context.Context) ([]Pack, error) {
	var rows []packRow
	if err := db.db.SelectContext(ctx, &rows, "SELECT "+packColumns+" FROM packs ORDER BY id"); err != nil {
		return nil, fmt.Errorf("packs: %w", err)
	}
	out := make([]Pack, len(rows))
	for i, r := range rows {
		out[i] = r.pack()
	}
	return out, nil
}

// PacksNamed returns the packs named name, oldest first: one at most,
// unless the bank was recorded before pack names were unique.
func (db *DB) PacksNamed(ctx context.Context, name string) ([]Pack, error) {
	var rows []packRow
	if err := db.db.SelectContext(ctx, &rows, "SELECT "+packColumns+" FROM packs WHERE name = ? ORDER BY id", name); err != nil {
		return nil, fmt.Errorf("packs named %q: %w", name, err)
	}
	out := make([]Pack, len(rows))
	for i, r := range rows {
		out[i] = r.pack()
	}
	return out, nil
}

// SharedNameError is the error of FindPack for a name several packs
// share: IDs are theirs, oldest first, for the caller to name one by.
type SharedNameError struct {
	Name string
	IDs  []int64
}

// Error says how many packs share the name.
func (e *SharedNameError) Error() string {
	return fmt.Sprintf("%d packs are named %q", len(e.IDs), e.Name)
}

// FindPack returns the pack named name or, where no pack has that name
// and it is a number, the pack with that ID; an error wrapping
// ErrNotFound where there is neither, and a *SharedNameError for a name
// several packs share.
func (db *DB) FindPack(ctx context.Context, name string) (Pack, error) {
	named, err := db.PacksNamed(ctx, name)
	if err != nil {
		return Pack{}, err
	}
	switch len(named) {
	case 1:
		return named[0], nil
	case 0:
		if id, err := strconv.ParseInt(name, 10, 64); err == nil {
			return db.Pack(ctx, id)
		}
		return Pack{}, fmt.Errorf("pack %q: %w", name, ErrNotFound)
	}
	ids := make([]int64, len(named))
	for i, p := range named {
		ids[i] = p.ID
	}
	return Pack{}, &SharedNameError{Name: name, IDs: ids}
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
