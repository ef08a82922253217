package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Family is one essentially different puzzle, identified by its canonical
// form, with the grade every variant of it shares.
type Family struct {
	ID    int64
	Canon string // the canonical form, N*N characters (grid.Grid.String)
	// Size is the N of the family's N x N grids (grid.Shapes); 0 is
	// taken as 9. The canonical form and the puzzles have N*N characters.
	Size int
	// ER, EP and ED are the Sudoku Explainer rating, pearl and diamond in
	// tenths: 23 means 2.3.
	ER, EP, ED int
	Level      int     // 1..5
	Score      float64 // the dig-hole paper's composite score
	// SearchNodes, Givens and MinRowCol, with ER, are the raw metrics
	// behind Score, so a different weighting needs no regrading.
	SearchNodes int
	Givens      int
	MinRowCol   int // the lowest number of givens in any row or column
	Hardest     string
	// Techniques counts the uses of each technique (by slug) in the solve.
	// A writer leaves it nil when Path is in the runs form (EncodePath),
	// which holds the counts; Family fills it in either case.
	Techniques map[string]int
	// Path is the technique of each step of the solve, in one of the two
	// forms path.go describes; a writer gives EncodePath's.
	Path     string
	Minimal  bool
	Symmetry string // none, rot180, rot90, mirror, flip, diagonal, antidiagonal
	// Source is "gen" for generated families, or the name of the
	// collection a family was imported from.
	Source    string
	RunID     int64  // the generating run; 0 for imports
	Seed      uint64 // the item's seed within the run
	CreatedAt time.Time
}

// Puzzle is one stored variant of a family.
type Puzzle struct {
	ID       int64
	FamilyID int64
	Puzzle   string // N*N characters (grid.Grid.String), '.' for an empty cell
	Solution string
	// Transform takes the family's canonical form to this puzzle, as the
	// gen package writes it (Transform.String; grid.Transform.String for
	// sizes other than 9x9). When it does, takes the
	// form's solution to Solution, and the family is stored by the same
	// batch, the store keeps the puzzle as its family and the
	// transform's code, in about 30 bytes of row rather than 135
	// (migrations/0010); any other row, and every row of a size other
	// than 9x9, is kept as it was given, with its grids and text.
	Transform string
}

// NewFamily is a family with the variants to store for it. The first
// puzzle may be the canonical form itself or, for an import, the string as
// it was found.
type NewFamily struct {
	Family
	Puzzles []Puzzle

	// prep is Prepare's work, used by WriteBatch while it still matches.
	prep *prepared
}

// WriteResult counts what a batch wrote and what it skipped.
type WriteResult struct {
	Families    int // families written
	Puzzles     int // puzzles written
	DupFamilies int // families skipped: the canonical form was already stored
	DupPuzzles  int // puzzles skipped: the string was already stored
	// OverCap counts the new families WriteBatchCapped left out because
	// their level had reached its cap, or WriteBatchLimited because
	// their level or their kind (Limits.Key) had.
	OverCap int
	// Levels counts the families written per level (index 0 unused).
	Levels [6]int
}

// Caps bounds the bank's families per level for WriteBatchCapped:
// Caps[l] is the most families of level l (1 to 5) of each size the bank
// may hold once a batch commits (a run fills one size; the families of
// other sizes do not count), and a negative value sets no bound. Index 0
// is unused.
type Caps [6]int64

// NoCaps returns caps that bound no level.
func NoCaps() Caps { return Caps{-1, -1, -1, -1, -1, -1} }

// Add adds the counts of o to r.
func (r *WriteResult) Add(o WriteResult) {
	r.Families += o.Families
	r.Puzzles += o.Puzzles
	r.DupFamilies += o.DupFamilies
	r.DupPuzzles += o.DupPuzzles
	r.OverCap += o.OverCap
	for l, n := range o.Levels {
		r.Levels[l] += n
	}
}

// WriteBatch stores a batch of families and their puzzles in one
// transaction: either all of it is written or, on error, none of it.
//
// A family whose canonical form is already stored is not written again
// and its grade is not changed, but its puzzles that are new strings are
// stored as further variants of the stored family (an import of a
// relabelled copy adds a variant, never a family). A puzzle string that
// is already stored is skipped. Both kinds of duplicate are counted, also
// within the batch.
//
// A puzzle takes its family's level, and a puzzle's family is the one of
// its canonical form, so a string has one level: the store finds a stored
// string by its level and sort key (see SortKeyOf), and compares the
// strings themselves. Puzzle rows are inserted in the order of their
// level and sort key, which keeps that index's writes local; IDs within a
// batch follow that order.
//
// ctx is checked once, before anything is written: a batch then runs to
// its end even if ctx is cancelled meanwhile, since the driver would
// otherwise watch ctx at a cost for every statement; a caller bounds a
// batch to a second or two of work.
func (db *DB) WriteBatch(ctx context.Context, batch []NewFamily) (WriteResult, error) {
	return db.WriteBatchCapped(ctx, batch, NoCaps())
}

// WriteBatchCapped is WriteBatch for a run that tops the bank up to a
// quota: it writes no family that would take its level's count past
// caps, judged inside the batch's transaction, so that runs writing
// at the same time (two processes on one bank) together stop on the
// caps. Of the new families of a level that would pass its cap, the
// first in batch order that fit are written and the rest left out
// (WriteResult.OverCap).
func (db *DB) WriteBatchCapped(ctx context.Context, batch []NewFamily, caps Caps) (WriteResult, error) {
	return db.writeBatchLimited(ctx, batch, Limits{Levels: caps})
}

// writeBatchLimited is WriteBatchLimited.
func (db *DB) writeBatchLimited(ctx context.Context, batch []NewFamily, lim Limits) (WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return WriteResult{}, fmt.Errorf("write batch: %w", err)
	}
	ctx = context.WithoutCancel(ctx)
	// A family Prepare did, whose strings are still the ones it did, is
	// only checked for what Prepare cannot vouch for; the others are
	// prepared here, into preps, not into the caller's families.
	preps := make([]*prepared, len(batch))
	for i := range batch {
		nf := &batch[i]
		var err error
		if nf.prep.matches(nf) {
			preps[i], err = nf.prep, checkFamily(&nf.Family, false)
		} else {
			preps[i], err = prepare(nf)
		}
		if err != nil {
			return WriteResult{}, fmt.Errorf("write batch: family %d: %w", i, err)
		}
	}
	db.bulkMu.Lock()
	defer db.bulkMu.Unlock()
	conn, err := openUnchecked(ctx, db.db, skipChecks)
	if err != nil {
		return WriteResult{}, fmt.Errorf("write batch: %w", err)
	}
	defer conn.release()
	overCap := 0
	for {
		res, over, err := db.writeBatch(ctx, conn.Conn, batch, preps, lim)
		if err != nil {
			return WriteResult{}, fmt.Errorf("write batch: %w", err)
		}
		if len(over) == 0 {
			res.OverCap = overCap
			return res, nil
		}
		// The batch was rolled back; it goes again without the families
		// that passed a cap. Another writer may commit meanwhile, so the
		// caps are judged again: each round leaves out one family or more.
		overCap += len(over)
		drop := make(map[int]bool, len(over))
		for _, i := range over {
			drop[i] = true
		}
		var keepB []NewFamily
		var keepP []*prepared
		for i := range batch {
			if !drop[i] {
				keepB, keepP = append(keepB, batch[i]), append(keepP, preps[i])
			}
		}
		batch, preps = keepB, keepP
	}
}

// writeBatch writes a prepared batch in one transaction on conn. If the
// new families of a level would take the bank past caps, it writes
// nothing and returns the batch indexes of those that do not fit
// (overLimits).
func (db *DB) writeBatch(ctx context.Context, conn *sqlx.Conn, batch []NewFamily, preps []*prepared, lim Limits) (WriteResult, []int, error) {
	n := 0
	for i := range batch {
		n += len(batch[i].Puzzles)
	}
	tx, keys, canons, err := db.beginBatch(ctx, conn, len(batch), n)
	if err != nil {
		return WriteResult{}, nil, err
	}
	defer tx.Rollback()
	if err := withRows(ctx, tx); err != nil {
		return WriteResult{}, nil, err
	}
	var res WriteResult
	fams, err := writeFamilies(ctx, tx, batch, preps, canons, &res)
	if err != nil {
		return WriteResult{}, nil, err
	}
	for i := range batch {
		if fams[i].isNew {
			res.Levels[fams[i].level]++
		}
	}
	if over, err := overLimits(ctx, tx, batch, fams, lim); err != nil || len(over) > 0 {
		return WriteResult{}, over, err
	}

	puzzles := make([]pending, 0, n)
	for i := range batch {
		fm := fams[i]
		for j := range batch[i].Puzzles {
			r := &preps[i].rows[j]
			// Only a family stored by this batch has the solution its
			// rows are derived by (insertFamilies stores it).
			derived := r.derived && fm.isNew
			puzzles = append(puzzles, pending{p: &batch[i].Puzzles[j], puzzle: r.puzzle, vals: &r.vals, derived: derived, code: r.code, key: r.key,
				fam: fm.id, bi: int32(i), size: fm.size, level: fm.level, givens: fm.givens, er: fm.er})
		}
	}
	stored, dups, err := writePuzzles(ctx, tx, puzzles, keys)
	if err != nil {
		return WriteResult{}, nil, err
	}
	res.Puzzles, res.DupPuzzles = len(stored), dups
	// The counts need each batch family's stored puzzles, not each
	// puzzle: one increment a stored row, then work a batch family. Its
	// puzzles count under its row's level and givens and under its own
	// run.
	perBatch := make([]int64, len(batch))
	for i := range stored {
		perBatch[stored[i].bi]++
	}
	buckets := map[bucketKey][2]int64{}
	runs := map[int64][2]int{} // families and puzzles written per run
	for i := range batch {
		fm, n := &fams[i], perBatch[i]
		if !fm.isNew && n == 0 {
			continue
		}
		var added int64
		if fm.isNew {
			added = 1
		}
		k := bucketKey{fm.size, fm.level, fm.givens}
		c := buckets[k]
		buckets[k] = [2]int64{c[0] + added, c[1] + n}
		if id := batch[i].RunID; id != 0 {
			r := runs[id]
			runs[id] = [2]int{r[0] + int(added), r[1] + int(n)}
		}
	}
	for id, c := range runs {
		if err := addRunCounts(ctx, tx, id, c[0], c[1]); err != nil {
			return WriteResult{}, nil, err
		}
	}
	for k, c := range buckets {
		if _, err := tx.ExecContext(ctx, `INSERT INTO buckets (size, level, givens, families, puzzles)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (size, level, givens) DO UPDATE SET
				families = families + excluded.families,
				puzzles = puzzles + excluded.puzzles`, k.size, k.level, k.givens, c[0], c[1]); err != nil {
			return WriteResult{}, nil, fmt.Errorf("counts: %w", err)
		}
	}
	if err := addTechniqueCounts(ctx, tx, batch, fams, perBatch); err != nil {
		return WriteResult{}, nil, err
	}
	if err := tx.Commit(); err != nil {
		return WriteResult{}, nil, fmt.Errorf("commit: %w", err)
	}
	if keys != nil {
		keys.add(stored)
	}
	if canons != nil {
		canons.add(batch, fams)
	}
	return res, nil, nil
}

// overCaps returns the batch indexes of the new families that would
// take their size's level past caps, given the counts committed before
// the batch, which tx reads under the write lock: the last new families
// of the size and level in batch order.
func overCaps(ctx context.Context, tx *sqlx.Tx, batch []NewFamily, fams []famRow, caps Caps) ([]int, error) {
	capped := false
	for i := range fams {
		capped = capped || fams[i].isNew && caps[fams[i].level] >= 0
	}
	if !capped {
		return nil, nil
	}
	// The buckets count what committed before this batch: the batch adds
	// its own counts after this.
	var rows []struct {
		Size  int   `db:"size"`
		Level int   `db:"level"`
		N     int64 `db:"n"`
	}
	if err := tx.SelectContext(ctx, &rows, "SELECT size, level, SUM(families) AS n FROM buckets GROUP BY size, level"); err != nil {
		return nil, fmt.Errorf("level counts: %w", err)
	}
	type sizeLevel struct{ size, level int }
	stored := map[sizeLevel]int64{}
	for _, r := range rows {
		stored[sizeLevel{r.Size, r.Level}] = r.N
	}
	room := map[sizeLevel]int64{}
	var over []int
	for i := range batch {
		l := fams[i].level
		if !fams[i].isNew || caps[l] < 0 {
			continue
		}
		k := sizeLevel{fams[i].size, l}
		left, ok := room[k]
		if !ok {
			left = max(caps[l]-stored[k], 0)
		}
		if left == 0 {
			over = append(over, i)
		} else {
			left--
		}
		room[k] = left
	}
	return over, nil
}

// uncheckedConn is a connection with SQLite's foreign key checks off,
// for one batch or one migration, and for a batch its CHECK constraints
// too.
//
// A foreign key check costs a lookup of the parent row for every row
// inserted, a sixth of a puzzle row's insert, and WriteBatch makes the
// references itself: a puzzle's or technique count's family is one the
// batch has just inserted or one it found stored, and a family's run is
// checked by addRunCounts. The pragma has no effect inside a transaction,
// so it is set on the connection around the batch's, which the
// connection holds alone meanwhile: no other statement runs unchecked.
//
// The CHECK constraints of the puzzle rows call typeof and length on
// each grid and the code (a seventh of the row's insert when every row
// had both grids, before schema 10), and assert what the writer has made
// sure of already: prepare packs every
// grid into 41 bytes or refuses it, and checkFamily refuses what the
// families' CHECKs would (TestWriteBatchFailureWritesNothing writes each
// refused value). A migration keeps them, since the rows it copies were
// not made here. PRAGMA integrity_check still tests every CHECK of every
// row.
type uncheckedConn struct {
	*sqlx.Conn
	checksOff bool
}

// checkMode says whether an uncheckedConn keeps the CHECK constraints.
type checkMode bool

const (
	keepChecks checkMode = true
	skipChecks checkMode = false
)

// openUnchecked takes a connection from x's pool for the caller alone and
// turns its foreign key checks off, and its CHECK constraints too with
// skipChecks; release undoes all. The migrations that rebuild a table use
// it too (applyMigration).
func openUnchecked(ctx context.Context, x *sqlx.DB, checks checkMode) (uncheckedConn, error) {
	conn, err := x.Connx(ctx)
	if err != nil {
		return uncheckedConn{}, err
	}
	c := uncheckedConn{Conn: conn, checksOff: checks == skipChecks}
	q := "PRAGMA foreign_keys = OFF"
	if c.checksOff {
		q += "; PRAGMA ignore_check_constraints = ON"
	}
	if _, err := conn.ExecContext(ctx, q); err != nil {
		c.release()
		return uncheckedConn{}, fmt.Errorf("checks off: %w", err)
	}
	return c, nil
}

// release turns the checks back on and returns the connection to the
// pool, or, if the checks cannot be turned on, discards it: the next
// connection opens with them on.
func (c uncheckedConn) release() {
	ctx := context.Background()
	q := "PRAGMA foreign_keys = ON"
	if c.checksOff {
		q += "; PRAGMA ignore_check_constraints = OFF"
	}
	if _, err := c.ExecContext(ctx, q); err != nil {
		c.Raw(func(any) error { return driver.ErrBadConn })
	}
	c.Close()
}

// bucketKey is a row of buckets: a size, a level and a number of givens.
type bucketKey struct{ size, level, givens int }

// famRow is where a batch family's puzzles go: the stored family's ID and
// grade, which a family already stored keeps.
type famRow struct {
	id                      int64
	key                     int64 // canon_key
	size, level, givens, er int
	isNew                   bool
}

// writeFamilies stores the batch's new families and their technique
// counts, and returns, for each family of the batch, the row its puzzles
// belong to. It counts the families written and skipped in res. canons is
// the bulk writer's set of stored family keys (see famSet), nil when
// their index is live.
//
// Each family not repeated within the batch gets the next ID and its
// form's key (canonKey, computed by prepare: preps holds each family's
// preparation), and one statement inserts them all, skipping
// those whose key is taken: a family costs an index lookup and no
// statement of its own. Only when some were skipped (an import's variants
// of the bank's families, another writer's families since the run loaded
// the bank, or a key another form holds) does one more statement read
// the stored forms in the skipped families' key windows, and one more
// insert the families that were new after all under the first free key
// of their window. A bulk writer finds the stored forms and free keys in
// memory first, and inserts the others with no index to look up or
// update.
func writeFamilies(ctx context.Context, tx *sqlx.Tx, batch []NewFamily, preps []*prepared, canons *famSet, res *WriteResult) ([]famRow, error) {
	var next int64
	if canons != nil {
		// beginBatch saw that the largest ID is the set's.
		next = int64(canons.n) + 1
	} else if err := tx.GetContext(ctx, &next, "SELECT COALESCE(MAX(id), 0) + 1 FROM families"); err != nil {
		return nil, fmt.Errorf("family IDs: %w", err)
	}
	out := make([]famRow, len(batch))
	var (
		fresh   []int              // batch indexes of the families not repeated within the batch
		inBatch = map[string]int{} // canonical form -> first batch index
	)
	for i := range batch {
		f := &batch[i].Family
		if _, ok := inBatch[f.Canon]; ok {
			continue // a repeat, resolved below
		}
		inBatch[f.Canon] = i
		fresh = append(fresh, i)
		out[i].key = preps[i].canonKey
	}
	if len(fresh) == 0 {
		return out, nil
	}
	insert := fresh // all but the stored ones, in batch order
	if canons != nil {
		var err error
		if insert, err = canons.resolve(ctx, tx, batch, fresh, out); err != nil {
			return nil, err
		}
	}
	for _, i := range insert {
		f := &batch[i].Family
		out[i] = famRow{id: next, key: out[i].key, level: f.Level, givens: f.Givens, er: f.ER, isNew: true}
		next++
	}
	n, err := insertFamilies(ctx, tx, batch, preps, insert, out, canons == nil)
	if err != nil {
		return nil, err
	}
	if n < len(insert) {
		moved, err := resolveFamilies(ctx, tx, batch, insert, out)
		if err != nil {
			return nil, err
		}
		if _, err := insertFamilies(ctx, tx, batch, preps, moved, out, false); err != nil {
			return nil, err
		}
	}
	var techs []techRow
	for i := range batch {
		// A stored family of the same form has the same size: the form
		// has N*N characters.
		out[i].size = batch[i].size()
		if first := inBatch[batch[i].Canon]; first != i {
			// A repeat within the batch joins the first, grade and all.
			out[i] = out[first]
			out[i].isNew = false
		}
		if !out[i].isNew {
			res.DupFamilies++
			continue
		}
		res.Families++
		// A path in the runs form holds the counts (checkFamily, which
		// runs for prepared families too, made sure no others came with
		// it); only the list form needs rows.
		f := &batch[i].Family
		for _, t := range sortedKeys(f.Techniques) {
			techs = append(techs, techRow{out[i].id, t, int64(f.Techniques[t])})
		}
	}
	if len(techs) > 0 {
		_, err = execRows(ctx, tx, `INSERT INTO family_techniques (family_id, technique, uses)
			SELECT c0, c1, c2 FROM `+rowsTable+` WHERE handle = ?`,
			funcSource{len(techs), func(i, col int) any {
				switch col {
				case 0:
					return techs[i].family
				case 1:
					return techs[i].technique
				default:
					return techs[i].uses
				}
			}})
		if err != nil {
			return nil, fmt.Errorf("insert technique counts: %w", err)
		}
	}
	return out, nil
}

// insertFamiliesSQL inserts the families of a batch: c0 is the ID, c1 on
// the columns in order.
const insertFamiliesSQL = `INSERT INTO families
	(id, canon, er, ep, ed, level, score, search_nodes, givens, min_row_col,
	 hardest, path, minimal, symmetry, source, run_id, seed, created_at, canon_key, solution, size)
	SELECT c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20
	FROM ` + rowsTable + ` WHERE handle = ?`

// insertFamilies inserts the fresh families of the batch under the IDs
// and keys out gives them and returns how many it inserted. With
// skipStored it skips any whose key is taken, which takes the index of
// the keys; without, the caller knows none is.
func insertFamilies(ctx context.Context, tx *sqlx.Tx, batch []NewFamily, preps []*prepared, fresh []int, out []famRow, skipStored bool) (int, error) {
	if len(fresh) == 0 {
		return 0, nil
	}
	now := time.Now().Unix()
	q := insertFamiliesSQL
	if skipStored {
		q += " ON CONFLICT (canon_key) DO NOTHING"
	}
	r, err := execRows(ctx, tx, q,
		funcSource{len(fresh), func(i, col int) any {
			f := &batch[fresh[i]].Family
			switch col {
			case 0:
				return out[fresh[i]].id
			case 1:
				return f.Canon
			case 2:
				return int64(f.ER)
			case 3:
				return int64(f.EP)
			case 4:
				return int64(f.ED)
			case 5:
				return int64(f.Level)
			case 6:
				return f.Score
			case 7:
				return int64(f.SearchNodes)
			case 8:
				return int64(f.Givens)
			case 9:
				return int64(f.MinRowCol)
			case 10:
				return f.Hardest
			case 11:
				return f.Path
			case 12:
				if f.Minimal {
					return int64(1)
				}
				return int64(0)
			case 13:
				return f.Symmetry
			case 14:
				return f.Source
			case 15:
				if f.RunID == 0 {
					return nil
				}
				return f.RunID
			case 16:
				return int64(f.Seed)
			case 18:
				return out[fresh[i]].key
			case 19:
				if s := preps[fresh[i]].solution; s != nil {
					return s
				}
				return nil
			case 20:
				return int64(f.size())
			default:
				if f.CreatedAt.IsZero() {
					return now
				}
				return f.CreatedAt.Unix()
			}
		}})
	if err != nil {
		return 0, fmt.Errorf("insert families: %w", err)
	}
	n, err := r.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("insert families: %w", err)
	}
	return int(n), nil
}

// findFamiliesSQL reads the stored families in the key windows of a
// batch's: c0 and c1 are the window's first and last key.
const findFamiliesSQL = `SELECT f.id, f.canon, f.canon_key, f.level, f.givens, f.er
	FROM ` + rowsTable + ` r CROSS JOIN families f
	ON f.canon_key BETWEEN r.c0 AND r.c1
	WHERE r.handle = ?`

// storedFamily is a stored family's form and the row its puzzles go to.
type storedFamily struct {
	canon string
	row   famRow
}

// storedFamilies runs query, which reads families' id, canon, canon_key,
// level, givens and er from the rows of src, and returns the families by
// key.
func storedFamilies(ctx context.Context, tx *sqlx.Tx, query string, src rowSource) (map[int64]storedFamily, error) {
	atKey := map[int64]storedFamily{}
	err := queryRows(ctx, tx, query, src, func(rows *sql.Rows) error {
		var f storedFamily
		if err := rows.Scan(&f.row.id, &f.canon, &f.row.key, &f.row.level, &f.row.givens, &f.row.er); err != nil {
			return err
		}
		atKey[f.row.key] = f
		return nil
	})
	return atKey, err
}

// resolveFamilies sorts out the families at the batch indexes insert,
// which one statement inserted under the IDs and keys out gave them,
// skipping those whose key was taken. It reads the stored families in
// each one's key window: a family found under its own ID was inserted; a
// family whose form is stored under another ID is a duplicate, and out
// takes the stored row; any other family met a key another form holds,
// and takes the first key of its window that neither a stored family nor
// another of these holds. It returns those, in batch order, to insert.
func resolveFamilies(ctx context.Context, tx *sqlx.Tx, batch []NewFamily, insert []int, out []famRow) ([]int, error) {
	// The key index is live here, so a key holds one family; windows
	// that overlap read it more than once.
	atKey, err := storedFamilies(ctx, tx, findFamiliesSQL,
		funcSource{len(insert), func(i, col int) any {
			lo, hi := window(out[insert[i]].key)
			if col == 0 {
				return lo
			}
			return hi
		}})
	if err != nil {
		return nil, fmt.Errorf("find families: %w", err)
	}
	var (
		moved []int
		taken = map[int64]bool{} // the keys the moved families take
	)
	for _, i := range insert {
		if f, ok := atKey[out[i].key]; ok && f.row.id == out[i].id {
			continue // inserted: under its own key, the first of its window
		}
		dup, err := placeFamily(batch, i, out, atKey, taken)
		if err != nil {
			return nil, err
		}
		if !dup {
			moved = append(moved, i)
		}
	}
	return moved, nil
}

// placeFamily searches batch family i's key window among the stored
// families atKey and the keys taken by others of the batch. A family
// whose form is stored there is a duplicate: out[i] becomes the stored
// row, and dup is true. Any other takes the window's first free key,
// into out[i] and taken. The live writer (resolveFamilies) and the bulk
// writer (famSet.resolve) place families by it.
func placeFamily(batch []NewFamily, i int, out []famRow, atKey map[int64]storedFamily, taken map[int64]bool) (dup bool, err error) {
	lo, hi := window(out[i].key)
	k, dup, ok := probe(lo, hi, func(k int64) (bool, bool) {
		f, stored := atKey[k]
		return stored || taken[k], stored && f.canon == batch[i].Canon
	})
	if dup {
		out[i] = atKey[k].row
		return true, nil
	}
	if !ok {
		return false, fmt.Errorf("family %s: no free canon key in %d..%d", batch[i].Canon, lo, hi)
	}
	out[i].key = k
	taken[k] = true
	return false, nil
}

// findPuzzlesSQL finds the stored puzzles in the key windows of a
// batch's: c0 is the level, c1 and c2 the window's first and last key,
// c3 the size.
const findPuzzlesSQL = `SELECT p.size, p.level, p.sort_key, ` + puzzleExpr + `
	FROM ` + rowsTable + ` r CROSS JOIN puzzles p
	ON p.size = r.c3 AND p.level = r.c0 AND p.sort_key BETWEEN r.c1 AND r.c2
	JOIN families f ON f.id = p.family_id
	WHERE r.handle = ?`

type techRow struct {
	family    int64
	technique string
	uses      int64
}

// pending is a puzzle row to insert.
type pending struct {
	p      *Puzzle
	puzzle []byte  // packed
	vals   *[5]any // puzzle, solution, p.Transform, key and code as driver values, as prepare made them
	// derived says the row is stored as code, the transform's code
	// (migrations/0010); the zero value is an explicit row.
	derived                 bool
	code                    int64
	key                     int64 // sort key
	id                      int64 // row ID, known only to a bulk writer (keySet)
	fam                     int64
	bi                      int32 // the index of the batch family the puzzle came with
	size, level, givens, er int
}

// probeWindow is how many keys from its hash on a row may take: a
// puzzle's sort key within its level, a family's canon_key. Both are
// 63-bit hashes: two strings with one level and one key are expected
// once in 10^6 banks of 5M puzzles, two forms with one key once in 10^5
// banks of 10M families, and the later one takes a free key after it.
const probeWindow = 16

// window returns the keys a row whose hash is k may be stored under: a
// puzzle whose string's sort key is k, within its level, or a family
// whose canonical form's key is k.
func window(k int64) (lo, hi int64) {
	if k > math.MaxInt64-probeWindow+1 {
		return k, math.MaxInt64
	}
	return k, k + probeWindow - 1
}

// probe walks the keys lo..hi once, asking at whether a row holds each
// (taken) and whether that row holds the string being placed (same). It
// returns the first key whose row is the same, with dup; else the first
// key no row holds, where a row goes whose own key a different string
// holds (puzzles) or a different form (families); ok is false when every
// key is taken by another. The whole window is searched for a same row
// before a free key counts, so a repeat stored past a free key is found.
func probe(lo, hi int64, at func(k int64) (taken, same bool)) (key int64, dup, ok bool) {
	for k := lo; ; k++ {
		taken, same := at(k)
		if same {
			return k, true, true
		}
		if !taken && !ok {
			key, ok = k, true
		}
		if k == hi {
			return key, false, ok
		}
	}
}

// writePuzzles inserts the puzzles that are not stored yet, and returns
// them and the number of duplicates it skipped. keys is the bulk writer's
// set of stored keys (see keySet), nil when the key index is live.
//
// The batch is sorted by level, key and string, so a repeat within the
// batch is next to its first occurrence. Then one INSERT ... SELECT
// writes the rest. Only when that meets a stored key (a puzzle stored
// before, or a hash collision) does the batch take the slow path: one
// statement finds the stored rows near each key, and each puzzle is
// compared with them by string. A bulk writer finds the stored keys near
// each row in memory, before it inserts, and reads only their strings.
func writePuzzles(ctx context.Context, tx *sqlx.Tx, puzzles []pending, keys *keySet) ([]pending, int, error) {
	// The sort moves 16-byte entries, not the rows: pending is six
	// times that size. Equal strings keep their batch order, so that the
	// first is stored and the others count as duplicates; pdqsort with
	// the position as a tie-break is cheaper than a stable merge sort.
	type entry struct {
		key   int64
		level int32 // sizeLevel
		i     int32 // index in puzzles, which is the batch order
	}
	order := make([]entry, len(puzzles))
	for i := range puzzles {
		order[i] = entry{puzzles[i].key, sizeLevel(puzzles[i].size, puzzles[i].level), int32(i)}
	}
	slices.SortFunc(order, func(a, b entry) int {
		if c := cmp.Compare(a.level, b.level); c != 0 {
			return c
		}
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		if c := bytes.Compare(puzzles[a.i].puzzle, puzzles[b.i].puzzle); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	var (
		keep      = make([]pending, 0, len(puzzles))
		dups      int
		collision bool
	)
	for n, e := range order {
		q := &puzzles[e.i]
		if n > 0 {
			prev := &puzzles[order[n-1].i]
			if prev.size == q.size && prev.level == q.level && prev.key == q.key {
				if bytes.Equal(prev.puzzle, q.puzzle) {
					dups++
					continue
				}
				collision = true
			}
		}
		keep = append(keep, *q)
	}
	if len(keep) == 0 {
		return nil, dups, nil
	}
	if keys != nil {
		taken, hit, err := keys.storedInWindows(ctx, tx, keep)
		if err != nil {
			return nil, 0, err
		}
		stored, more := keep, 0
		if hit || collision {
			if taken == nil {
				taken = map[slot][]byte{}
			}
			if stored, more, err = assignKeys(keep, taken); err != nil {
				return nil, 0, err
			}
		}
		if len(stored) == 0 {
			return nil, dups + more, nil
		}
		if err := insertPuzzles(ctx, tx, stored); err != nil {
			return nil, 0, err
		}
		// SQLite gives a row without an ID the table's largest plus one,
		// in the order the statement reads them, and the largest was the
		// writer's own (beginBatch): the set knows the rows' IDs without
		// a statement giving them, which costs a seek a row. A check
		// that the last one is where it should be keeps that honest.
		for i := range stored {
			stored[i].id = keys.nextID + int64(i)
		}
		var last int64
		if err := tx.GetContext(ctx, &last, "SELECT MAX(id) FROM puzzles"); err != nil {
			return nil, 0, fmt.Errorf("last puzzle ID: %w", err)
		}
		if want := stored[len(stored)-1].id; last != want {
			return nil, 0, fmt.Errorf("last puzzle ID %d, want %d", last, want)
		}
		return stored, dups + more, nil
	}
	if !collision {
		err := insertPuzzles(ctx, tx, keep)
		if err == nil {
			return keep, dups, nil
		}
		// The failed statement wrote nothing; the transaction goes on.
		if !isUniqueViolation(err) {
			return nil, 0, err
		}
	}
	stored, more, err := resolveKeys(ctx, tx, keep)
	if err != nil {
		return nil, 0, err
	}
	if len(stored) > 0 {
		if err := insertPuzzles(ctx, tx, stored); err != nil {
			return nil, 0, err
		}
	}
	return stored, dups + more, nil
}

// isUniqueViolation reports whether err is SQLite's refusal of a row
// (or of an index over the rows) that a unique index holds already.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

// insertPuzzles writes the rows with one statement. Rows that are all
// derived (bankgen's variants of the families it stores) go through a
// statement that leaves out the three columns they hold NULL: each
// column the batch table serves costs a call into Go a row.
func insertPuzzles(ctx context.Context, tx *sqlx.Tx, rows []pending) error {
	derived := true
	for i := range rows {
		if !rows[i].derived {
			derived = false
			break
		}
	}
	if derived {
		_, err := execRows(ctx, tx, `INSERT INTO puzzles (family_id, sort_key, code, level, givens, er, size)
			SELECT c0, c1, c2, c3, c4, c5, c6 FROM `+rowsTable+` WHERE handle = ?`,
			funcSource{len(rows), func(i, col int) any {
				q := &rows[i]
				switch col {
				case 0:
					return q.fam
				case 1:
					return q.keyValue()
				case 2:
					return q.codeValue()
				case 3:
					return int64(q.level)
				case 4:
					return int64(q.givens)
				case 5:
					return int64(q.er)
				default:
					return int64(q.size)
				}
			}})
		if err != nil {
			return fmt.Errorf("insert puzzles: %w", err)
		}
		return nil
	}
	_, err := execRows(ctx, tx, `INSERT INTO puzzles
		(family_id, puzzle, solution, transform, sort_key, level, givens, er, code, size)
		SELECT c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM `+rowsTable+` WHERE handle = ?`,
		funcSource{len(rows), func(i, col int) any {
			q := &rows[i]
			switch col {
			case 0:
				return q.fam
			case 1, 2, 3:
				if q.derived {
					return nil
				}
				// Boxed by prepare, mostly in a worker: no allocation
				// in the writer.
				return q.vals[col-1]
			case 4:
				return q.keyValue()
			case 5:
				return int64(q.level)
			case 6:
				return int64(q.givens)
			case 7:
				return int64(q.er)
			case 9:
				return int64(q.size)
			default:
				if !q.derived {
					return nil
				}
				return q.codeValue()
			}
		}})
	if err != nil {
		return fmt.Errorf("insert puzzles: %w", err)
	}
	return nil
}

// keyValue returns the row's sort key as a driver value: the one prepare
// boxed, unless the key has moved since (a collision's next free key).
func (q *pending) keyValue() any {
	if k, ok := q.vals[3].(int64); ok && k == q.key {
		return q.vals[3]
	}
	return q.key
}

// codeValue returns a derived row's code as a driver value, boxed by
// prepare where it found the code.
func (q *pending) codeValue() any {
	if c, ok := q.vals[4].(int64); ok && c == q.code {
		return q.vals[4]
	}
	return q.code
}

// slot is a sort key of a size's level.
type slot struct {
	size, level int
	key         int64
}

// sizeLevel orders puzzle rows as the index puzzles_key does, by size
// and then level, in one number.
func sizeLevel(size, level int) int32 { return int32(size<<3 | level) }

// resolveKeys compares each row with the stored rows and the batch's
// earlier rows in its key window: a row whose string is there is a
// duplicate; any other row takes the first free key of its window. It
// returns the rows to insert and the number of duplicates.
func resolveKeys(ctx context.Context, tx *sqlx.Tx, rows []pending) ([]pending, int, error) {
	taken := map[slot][]byte{}
	err := queryRows(ctx, tx, findPuzzlesSQL,
		funcSource{len(rows), func(i, col int) any {
			lo, hi := window(rows[i].key)
			switch col {
			case 0:
				return int64(rows[i].level)
			case 1:
				return lo
			case 2:
				return hi
			default:
				return int64(rows[i].size)
			}
		}},
		func(r *sql.Rows) error {
			var s slot
			var b []byte
			if err := r.Scan(&s.size, &s.level, &s.key, &b); err != nil {
				return err
			}
			taken[s] = b
			return nil
		})
	if err != nil {
		return nil, 0, fmt.Errorf("find stored puzzles: %w", err)
	}
	return assignKeys(rows, taken)
}

// assignKeys compares each row with the taken slots, stored strings by
// level and key, and the batch's earlier rows in its key window: a row
// whose string is there is a duplicate; any other row takes the first
// free key of its window. It returns the rows to insert and the number of
// duplicates.
func assignKeys(rows []pending, taken map[slot][]byte) ([]pending, int, error) {
	var (
		out  []pending
		dups int
	)
	for _, q := range rows {
		lo, hi := window(q.key)
		free, dup, ok := probe(lo, hi, func(k int64) (bool, bool) {
			b, ok := taken[slot{q.size, q.level, k}]
			return ok, ok && bytes.Equal(b, q.puzzle)
		})
		if dup {
			dups++
			continue
		}
		if !ok {
			return nil, 0, fmt.Errorf("puzzle %s: no free sort key in %d..%d", q.p.Puzzle, lo, hi)
		}
		q.key = free
		taken[slot{q.size, q.level, free}] = q.puzzle
		out = append(out, q)
	}
	return out, dups, nil
}

// funcSource serves n rows whose values f returns.
type funcSource struct {
	n int
	f func(i, col int) any
}

func (s funcSource) len() int             { return s.n }
func (s funcSource) value(i, col int) any { return s.f(i, col) }

// execRows runs a statement that reads src as the batch table; its one
// parameter is the batch's handle.
func execRows(ctx context.Context, tx *sqlx.Tx, query string, src rowSource) (sql.Result, error) {
	h, release := serve(src)
	defer release()
	return tx.ExecContext(ctx, query, h)
}

// queryRows runs a query that reads src as the batch table and calls fn
// for each result row.
func queryRows(ctx context.Context, tx *sqlx.Tx, query string, src rowSource, fn func(*sql.Rows) error) error {
	h, release := serve(src)
	defer release()
	rows, err := tx.QueryContext(ctx, query, h)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}

// validFamily checks what the schema cannot say clearly, and returns the
// stored forms of each puzzle's grids, puzzle then solution, in one
// buffer, packedLenOf(size) bytes each.
func validFamily(nf *NewFamily) ([]byte, error) {
	f := &nf.Family
	if err := checkFamily(f, true); err != nil {
		return nil, err
	}
	n := f.size()
	cells := make([]byte, 0, 2*packedLenOf(n)*len(nf.Puzzles))
	for _, p := range nf.Puzzles {
		var err error
		if cells, err = appendPackedSize(cells, p.Puzzle, n); err != nil {
			return nil, fmt.Errorf("family %s: puzzle: %w", f.Canon, err)
		}
		if cells, err = appendPackedSize(cells, p.Solution, n); err != nil {
			return nil, fmt.Errorf("family %s: solution of %s: %w", f.Canon, p.Puzzle, err)
		}
	}
	return cells, nil
}

// checkFamily checks a family's own fields; with strs, also what depends
// only on its strings (the canonical form's length and characters, the
// path's runs), which a matching preparation has had checked
// (prepared.matches compares those strings), so that the writer does not
// check them again.
func checkFamily(f *Family, strs bool) error {
	n := f.size()
	if err := checkSize(n); err != nil {
		return fmt.Errorf("family %s: %w", f.Canon, err)
	}
	// The size and the form's length are checked whether or not the
	// strings were: the size is not one of them.
	if len(f.Canon) != n*n {
		return fmt.Errorf("family %s: canonical form of %d characters, a %dx%d grid has %d: %w", f.Canon, len(f.Canon), n, n, n*n, ErrInvalid)
	}
	if f.Level < 1 || f.Level > 5 {
		return fmt.Errorf("family %s: level %d, want 1..5: %w", f.Canon, f.Level, ErrInvalid)
	}
	if f.Givens < 0 || f.Givens > n*n {
		return fmt.Errorf("family %s: %d givens, want 0..%d: %w", f.Canon, f.Givens, n*n, ErrInvalid)
	}
	if f.Source == "" {
		return fmt.Errorf("family %s: no source: %w", f.Canon, ErrInvalid)
	}
	if err := CheckName(f.Source); err != nil {
		return fmt.Errorf("family %s: source: %w", f.Canon, err)
	}
	if len(f.Techniques) > 0 && pathHasCounts(f.Path) {
		return fmt.Errorf("family %s: technique counts beside a path that holds them: %w", f.Canon, ErrInvalid)
	}
	if !strs {
		return nil
	}
	// The schema's CHECK counts characters, not bytes, and a batch skips
	// it (uncheckedConn): a form of grid characters has as many of each,
	// which is what packing it checks.
	var packed [packedLen]byte
	if _, err := appendPackedSize(packed[:0], f.Canon, n); err != nil {
		return fmt.Errorf("canonical form: %w", err)
	}
	// A path that does not parse would be stored, then fail every read of
	// its family (Family, show) while the technique filter still matched.
	if err := forPathRuns(f.Path, func(string, int) {}); err != nil {
		return fmt.Errorf("family %s: %v: %w", f.Canon, err, ErrInvalid)
	}
	return nil
}

// size returns the N of the family's grids: Size, or 9 where it is 0.
func (f *Family) size() int {
	if f.Size == 0 {
		return 9
	}
	return f.Size
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// keyOf is SortKeyOf; a test swaps in a hash that collides.
var keyOf = SortKeyOf

// SortKeyOf returns the sort key of a puzzle string: a 63-bit hash
// (FNV-1a, then a SplitMix64 finaliser), never zero. It orders random
// samples and is how the store finds a stored string: a puzzle is stored
// under this key unless its level already holds another string there, in
// which case it takes the next free key (Row.SortKey says which).
func SortKeyOf(puzzle string) int64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(puzzle); i++ {
		h ^= uint64(puzzle[i])
		h *= 1099511628211
	}
	k := int64(mix64(h) >> 1)
	if k == 0 {
		k = 1
	}
	return k
}

// mix64 is SplitMix64's finaliser: it spreads every input bit over the
// whole output.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
