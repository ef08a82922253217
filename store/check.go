package store

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/internal/plural"
	"sudokubank/solve"
)

// Report lists the problems Check found in a bank; none means the bank
// is whole.
type Report struct {
	// Problems says what is wrong, one problem a line, in the order the
	// checks ran; at most maxProblems of them.
	Problems []string
	// More counts the problems found beyond those listed.
	More int
}

// OK reports whether the check found nothing wrong.
func (r *Report) OK() bool { return len(r.Problems) == 0 && r.More == 0 }

// maxProblems bounds the problems a Report lists: a badly damaged bank
// has one for every row.
const maxProblems = 1000

func (r *Report) add(format string, args ...any) {
	if len(r.Problems) >= maxProblems {
		r.More++
		return
	}
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// ErrDamaged means the bank was found damaged (DamagedError); a writer
// whose quick check finds it so writes nothing to it. bankquery check
// says what is wrong.
var ErrDamaged = errors.New("bank is damaged")

// Check reads the whole bank and reports what is wrong with it: what
// PRAGMA integrity_check finds (quick_check with quick, which skips the
// indexes' agreement with their tables and the UNIQUE constraints but
// tests the CHECK and NOT NULL ones, and takes a fraction of the time),
// references to missing
// rows, canonical forms stored twice, and counters that disagree with the
// rows they count (buckets, technique_counts, packed_families,
// client_families), and runs whose rows do not read. Without quick it
// also checks every stored puzzle: its grids decode, its solution is a
// complete grid that agrees with its givens and is its only solution,
// and its sort key is its string's, so that the unique index of
// (level, sort_key) makes every string unique.
//
// A problem goes into the Report; the error is for a check that could
// not run at all (a cancelled ctx).
//
// Puzzles of sizes other than 9x9 are checked alike, but for the count
// of their solutions, which the store cannot make (CheckSized can).
func (db *DB) Check(ctx context.Context, quick bool) (Report, error) {
	return db.CheckSized(ctx, quick, nil)
}

// CheckSized is Check, with count counting the solutions of puzzles of
// sizes other than 9x9 up to limit (a solver's, such as solve.Sized's
// Count), so that the check of every puzzle also asks that those have
// exactly one; a nil count skips that question.
func (db *DB) CheckSized(ctx context.Context, quick bool, count func(p grid.Grid, limit int) int) (Report, error) {
	var r Report
	pragma := "integrity_check"
	if quick {
		pragma = "quick_check"
	}
	// Every step reads one snapshot of the bank: counters and the rows
	// they count, read at two moments while bankgen writes, would
	// disagree on a whole bank.
	q, done, err := db.snapshot(ctx)
	if err != nil {
		return r, fmt.Errorf("check %s: %w", db.path, err)
	}
	defer done()
	steps := []struct {
		name string
		run  func(context.Context, checkQuerier, *Report) error
	}{
		{pragma, func(ctx context.Context, q checkQuerier, r *Report) error { return checkPragma(ctx, q, pragma, r) }},
		{"foreign keys", checkForeignKeyRows},
		{"canonical forms", checkCanons},
		{"buckets", checkBuckets},
		{"technique counts", checkTechniqueCountRows},
		{"pack counts", checkPackCounts},
		{"runs", checkRuns},
	}
	if !quick {
		steps = append(steps, []struct {
			name string
			run  func(context.Context, checkQuerier, *Report) error
		}{
			// A pass over every table: a quick check skips it, as it
			// skips the grids.
			{"integer columns", checkIntegerColumns},
			{"puzzles", func(ctx context.Context, q checkQuerier, r *Report) error { return checkPuzzles(ctx, q, r, count) }},
		}...)
	}
	for _, s := range steps {
		if err := s.run(ctx, q, &r); err != nil {
			if ctx.Err() != nil {
				return r, fmt.Errorf("check %s: %w", db.path, ctx.Err())
			}
			// A damaged page can fail the very query that would find it.
			r.add("%s: cannot be read: %v", s.name, err)
		}
	}
	return r, nil
}

// checkReadHook, if set by a test, runs between the check's read of the
// buckets and its count of the rows they count, where a writer may
// commit.
var checkReadHook func()

// checkQuerier is what the check's steps read through: one connection
// inside one read transaction (DB.snapshot).
type checkQuerier interface {
	sqlx.QueryerContext
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
}

// snapshot returns one of db's connections inside a read transaction,
// so that every query on it sees the bank as one moment left it, and
// done, which ends the transaction and gives the connection back.
// BEGIN DEFERRED takes no lock until the first read, which takes a read
// lock only, even on a writer's connections (which begin IMMEDIATE):
// a check holds bankgen back from nothing.
func (db *DB) snapshot(ctx context.Context) (checkQuerier, func(), error) {
	conn, err := db.db.Connx(ctx)
	if err != nil {
		return nil, nil, err
	}
	if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
		conn.Close()
		return nil, nil, err
	}
	done := func() {
		// Not ctx: a cancelled check must still end its transaction,
		// or the pool would hand the connection on inside it.
		if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}
	return conn, done, nil
}

// quickCheck runs PRAGMA quick_check on x, the bank at path, and returns
// a DamagedError, with the first problems, if it finds any.
func quickCheck(ctx context.Context, x interface {
	SelectContext(context.Context, any, string, ...any) error
}, path string) error {
	var msgs []string
	if err := x.SelectContext(ctx, &msgs, "PRAGMA quick_check(10)"); err != nil {
		if ctx.Err() == nil && isCorrupt(err) {
			return &DamagedError{Path: path, Err: fmt.Errorf("quick check: %w", err)}
		}
		return fmt.Errorf("open bank %s: quick check: %w", path, err)
	}
	if len(msgs) == 1 && msgs[0] == "ok" {
		return nil
	}
	return &DamagedError{Path: path, Err: fmt.Errorf("quick check: %s", strings.Join(msgs, "; "))}
}

// isCorrupt reports whether err is SQLite's word that the file is
// damaged (SQLITE_CORRUPT) or not a database (SQLITE_NOTADB).
func isCorrupt(err error) bool {
	var e interface{ Code() int }
	if !errors.As(err, &e) {
		return false
	}
	c := e.Code() & 0xff
	return c == 11 || c == 26
}

func checkPragma(ctx context.Context, q checkQuerier, pragma string, r *Report) error {
	var msgs []string
	if err := q.SelectContext(ctx, &msgs, "PRAGMA "+pragma); err != nil {
		return err
	}
	for _, m := range msgs {
		if m != "ok" {
			r.add("%s: %s", pragma, m)
		}
	}
	return nil
}

func checkForeignKeyRows(ctx context.Context, q checkQuerier, r *Report) error {
	return eachForeignKeyViolation(ctx, q, func(v string) { r.add("foreign keys: %s", v) })
}

func checkCanons(ctx context.Context, q checkQuerier, r *Report) error {
	var dups []struct {
		Canon string `db:"canon"`
		N     int64  `db:"n"`
	}
	if err := q.SelectContext(ctx, &dups, "SELECT canon, count(*) AS n FROM families GROUP BY canon HAVING n > 1"); err != nil {
		return err
	}
	for _, d := range dups {
		r.add("families: canonical form %s stored %d times", d.Canon, d.N)
	}
	return nil
}

// counted is a counter row's key and its two counts.
type counted struct {
	key  string
	a, b int64
}

// compareCounts adds a problem for each key whose counts in kept (the
// counter table) and in rows (counted from the rows) differ; a key
// missing from one side counts zero there.
func compareCounts(r *Report, table, what string, kept, rows []counted) {
	m := map[string][2][2]int64{}
	for _, c := range kept {
		v := m[c.key]
		v[0] = [2]int64{c.a, c.b}
		m[c.key] = v
	}
	for _, c := range rows {
		v := m[c.key]
		v[1] = [2]int64{c.a, c.b}
		m[c.key] = v
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v := m[k]; v[0] != v[1] {
			r.add("%s: %s holds %d/%d %s, the rows say %d/%d", table, k, v[0][0], v[0][1], what, v[1][0], v[1][1])
		}
	}
}

// selectCounted runs q, which selects a key and two counts.
func selectCounted(ctx context.Context, q checkQuerier, query string) ([]counted, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []counted
	for rows.Next() {
		var c counted
		if err := rows.Scan(&c.key, &c.a, &c.b); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// sizeLabel names a row's size at the head of a count's label: nothing
// for 9x9, so that a bank of one size reads as before sizes, else
// "16x16 ".
const sizeLabel = `CASE WHEN size = 9 THEN '' ELSE size || 'x' || size || ' ' END`

func checkBuckets(ctx context.Context, q checkQuerier, r *Report) error {
	kept, err := selectCounted(ctx, q, `SELECT `+sizeLabel+` || 'level ' || level || ', ' || givens || ' givens', families, puzzles
		FROM buckets WHERE families <> 0 OR puzzles <> 0`)
	if err != nil {
		return err
	}
	if checkReadHook != nil {
		checkReadHook()
	}
	rows, err := selectCounted(ctx, q, `SELECT `+sizeLabel+` || 'level ' || level || ', ' || givens || ' givens', SUM(f), SUM(p) FROM (
		SELECT size, level, givens, 1 AS f, 0 AS p FROM families
		UNION ALL SELECT size, level, givens, 0, 1 FROM puzzles) GROUP BY size, level, givens`)
	if err != nil {
		return err
	}
	compareCounts(r, "buckets", "families/puzzles", kept, rows)
	return nil
}

// checkTechniqueCountsSQL reads what technique_counts should hold in
// one pass, streamed: each family once with its techniques (counted as a
// family), and each family's puzzles counted in a GROUP BY joined to the
// families (counted as puzzles), so that the check holds nothing per
// family in memory. The techniques column is the family_techniques of a
// family from before schema 5, whose path does not name them.
const checkTechniqueCountsSQL = `SELECT f.size, f.level, f.path, ` + checkTechniques + `, 1, 0 FROM families f
	UNION ALL
	SELECT f.size, f.level, f.path, ` + checkTechniques + `, 0, c.n
		FROM (SELECT family_id, count(*) AS n FROM puzzles GROUP BY family_id) c
		CROSS JOIN families f ON f.id = c.family_id`

// checkTechniques is the techniques column of checkTechniqueCountsSQL.
const checkTechniques = `CASE WHEN substr(f.path, 1, 1) = ',' THEN '' ELSE
		(SELECT COALESCE(group_concat(technique, ' '), '') FROM family_techniques WHERE family_id = f.id)
	END`

func checkTechniqueCountRows(ctx context.Context, q checkQuerier, r *Report) error {
	kept, err := selectCounted(ctx, q, `SELECT `+sizeLabel+` || 'level ' || level || ' ' || technique, families, puzzles
		FROM technique_counts WHERE families <> 0 OR puzzles <> 0`)
	if err != nil {
		return err
	}
	counts := map[techKey][2]int64{}
	rows, err := q.QueryContext(ctx, checkTechniqueCountsSQL)
	if err != nil {
		return err
	}
	for rows.Next() {
		var (
			size, level int
			path, techs string
			fams, n     int64
		)
		if err := rows.Scan(&size, &level, &path, &techs, &fams, &n); err != nil {
			rows.Close()
			return err
		}
		add := func(t string) {
			k := techKey{size, level, t}
			c := counts[k]
			counts[k] = [2]int64{c[0] + fams, c[1] + n}
		}
		// Families since schema 5 carry their techniques in the path;
		// older ones in family_techniques.
		if strings.HasPrefix(path, ",") {
			pathTechniques(path, add)
		} else {
			for _, t := range strings.Fields(techs) {
				add(t)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var got []counted
	for k, c := range counts {
		label := fmt.Sprintf("level %d %s", k.level, k.technique)
		if k.size != 9 {
			label = fmt.Sprintf("%dx%d %s", k.size, k.size, label)
		}
		got = append(got, counted{label, c[0], c[1]})
	}
	compareCounts(r, "technique_counts", "families/puzzles", kept, got)
	return nil
}

// checkRuns reads every run as Runs does, so that a run whose row does
// not read (which fails bankquery runs and stats, and a -shard run's
// resume) is named here too.
func checkRuns(ctx context.Context, q checkQuerier, r *Report) error {
	rows, err := q.QueryContext(ctx, `SELECT `+runColumns+` FROM runs ORDER BY id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if _, err := scanRun(rows); err != nil {
			r.add("runs: %v", err)
		}
	}
	return rows.Err()
}

// checkIntegerColumns counts, in one pass over each table, the values of
// its integer columns that are not integers (nor NULL): the tables are
// not STRICT, so a changed byte can make a key text, which no constraint
// or foreign key catches (a text position sorts after every number, and
// the pack reads in another order). The runs are left to checkRuns,
// which reads each one and names the run whose row does not.
func checkIntegerColumns(ctx context.Context, q checkQuerier, r *Report) error {
	var tables []string
	if err := q.SelectContext(ctx, &tables, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'runs' ORDER BY name`); err != nil {
		return err
	}
	for _, t := range tables {
		var cols []string
		if err := q.SelectContext(ctx, &cols, `SELECT name FROM pragma_table_info(?) WHERE upper(type) LIKE '%INT%' ORDER BY cid`, t); err != nil {
			return err
		}
		if len(cols) == 0 {
			continue
		}
		sums := make([]string, len(cols))
		for i, c := range cols {
			sums[i] = fmt.Sprintf("COALESCE(SUM(typeof(%s) NOT IN ('integer', 'null')), 0)", quoteIdent(c))
		}
		counts := make([]int64, len(cols))
		dest := make([]any, len(cols))
		for i := range counts {
			dest[i] = &counts[i]
		}
		if err := q.QueryRowxContext(ctx, "SELECT "+strings.Join(sums, ", ")+" FROM "+quoteIdent(t)).Scan(dest...); err != nil {
			return err
		}
		for i, n := range counts {
			if n > 0 {
				r.add("%s: %s whose %s is not an integer", t, plural.Count(n, "row"), cols[i])
			}
		}
	}
	return nil
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func checkPackCounts(ctx context.Context, q checkQuerier, r *Report) error {
	kept, err := selectCounted(ctx, q, `SELECT 'family ' || family_id, packs, 0 FROM packed_families WHERE packs <> 0`)
	if err != nil {
		return err
	}
	rows, err := selectCounted(ctx, q, `SELECT 'family ' || i.family_id, count(*), 0
		FROM pack_items i JOIN packs k ON k.id = i.pack_id WHERE k.released_at IS NULL GROUP BY i.family_id`)
	if err != nil {
		return err
	}
	compareCounts(r, "packed_families", "packs", kept, rows)
	if kept, err = selectCounted(ctx, q, `SELECT 'family ' || family_id || ' client ' || quote(client), packs, 0
		FROM client_families WHERE packs <> 0`); err != nil {
		return err
	}
	if rows, err = selectCounted(ctx, q, `SELECT 'family ' || i.family_id || ' client ' || quote(k.client), count(*), 0
		FROM pack_items i JOIN packs k ON k.id = i.pack_id WHERE k.client <> '' AND k.released_at IS NULL
		GROUP BY i.family_id, k.client`); err != nil {
		return err
	}
	compareCounts(r, "client_families", "packs", kept, rows)
	return nil
}

// checkPuzzles derives every stored puzzle's grids as a query would and
// checks them (see Check).
func checkPuzzles(ctx context.Context, q checkQuerier, r *Report, count func(grid.Grid, int) int) error {
	// The unique index of the keys holds them apart, unless a bulk
	// writer that died left it to rebuild.
	var dups []struct {
		Size  int   `db:"size"`
		Level int   `db:"level"`
		Key   int64 `db:"sort_key"`
		N     int64 `db:"n"`
	}
	if err := q.SelectContext(ctx, &dups, "SELECT size, level, sort_key, count(*) AS n FROM puzzles GROUP BY size, level, sort_key HAVING n > 1"); err != nil {
		return err
	}
	for _, d := range dups {
		if d.Size != 9 {
			r.add("puzzles: %dx%d level %d sort key %d stored %d times", d.Size, d.Size, d.Level, d.Key, d.N)
			continue
		}
		r.add("puzzles: level %d sort key %d stored %d times", d.Level, d.Key, d.N)
	}
	if err := eachFamilyProblem(ctx, q, func(id int64, err error) bool {
		r.add("family %d: %v", id, err)
		return true
	}); err != nil {
		return err
	}
	return eachPuzzleProblem(ctx, q, true, count, func(id int64, err error) bool {
		r.add("puzzle %d: %v", id, err)
		return true
	})
}

// checkRows is the cheap part of the check of the puzzles, which a merge
// runs on its shard: every grid stored, a family's or a puzzle's, reads
// and agrees with its solution, and its key is its string's; but no
// puzzle's solutions are counted, and a derived puzzle's key is not
// derived (eachStoredGridProblem). Its first problem is a DamagedError naming path and the row:
// quick_check sees none of these, where a byte of a packed grid changed.
func checkRows(ctx context.Context, q checkQuerier, path string) error {
	var found error
	stop := func(what string) func(int64, error) bool {
		return func(id int64, err error) bool {
			found = &DamagedError{Path: path, Err: fmt.Errorf("%s %d: %w", what, id, err)}
			return false
		}
	}
	if err := eachFamilyProblem(ctx, q, stop("family")); err != nil || found != nil {
		return cmpOr(found, Damaged(path, fmt.Errorf("check the families: %w", err)))
	}
	if err := eachStoredGridProblem(ctx, q, stop("puzzle")); err != nil || found != nil {
		return cmpOr(found, Damaged(path, fmt.Errorf("check the puzzles: %w", err)))
	}
	return nil
}

// eachStoredGridProblem checks the grids the puzzles store, as
// eachPuzzleProblem does without counting solutions, and without
// reading their families: an explicit row's grids read, its solution is
// a complete grid that agrees with its givens, and its sort key is its
// string's; a derived row's transform code is one. A derived row's
// grids are a transform of its family's, which eachFamilyProblem checks:
// a valid transform of a valid puzzle is one too. It calls fn with each
// puzzle that fails and what is wrong, until fn returns false.
func eachStoredGridProblem(ctx context.Context, q checkQuerier, fn func(id int64, err error) bool) error {
	// A derived row's code is checked here, in SQL: every code in
	// range is a transform, and such rows, most of a bank made with
	// variants, never reach Go.
	query := `SELECT id, size, level, sort_key, puzzle, solution, code FROM puzzles
		WHERE code IS NULL OR code < 0 OR code >= ?`
	return eachKeyedProblem(ctx, q, query, []any{gen.TransformCodes}, func(rows *sql.Rows) (c keyedCheck, err error) {
		var (
			puzzle, sol sql.RawBytes
			code        sql.NullInt64
		)
		if err := rows.Scan(&c.id, &c.size, &c.level, &c.key, &puzzle, &sol, &code); err != nil {
			return c, err
		}
		switch {
		case code.Valid:
			_, c.err = transformOf(code.Int64)
			c.lo = c.key
		case c.size == 9:
			c.lo, c.err = checkPuzzle(c.key, puzzle, sol, code, nil, nil, nil, false)
		default:
			c.lo, c.err = checkSizedPuzzle(c.size, c.key, puzzle, sol, code, nil)
		}
		return c, nil
	}, movedPuzzleKeysSQL, "sort key", fn)
}

// cmpOr returns the first of errs that is not nil.
func cmpOr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// eachFamilyProblem checks every stored family: its key is its form's
// (or one of its window, where another form held that), and a 9x9
// family's solution, which its derived puzzles are transforms of, is a
// complete grid that agrees with its form. It calls fn with each family
// that fails and what is wrong, until fn returns false.
func eachFamilyProblem(ctx context.Context, q checkQuerier, fn func(id int64, err error) bool) error {
	return eachKeyedProblem(ctx, q, `SELECT id, size, canon_key, canon, solution FROM families`, nil, func(rows *sql.Rows) (c keyedCheck, err error) {
		var (
			size  int
			canon string
			sol   sql.RawBytes
		)
		if err := rows.Scan(&c.id, &size, &c.key, &canon, &sol); err != nil {
			return c, err
		}
		// A family's key is unique in the whole table: no size or level.
		c.lo, c.err = checkStoredFamily(size, c.key, canon, sol)
		return c, nil
	}, "SELECT count(*) FROM families WHERE canon_key BETWEEN ? AND ?", "canon key", fn)
}

// keyedCheck is what a check found of one row: its ID, its stored key
// and the lowest its content gives (lo), for a puzzle the size and
// level its key is unique within, and what is wrong with it.
type keyedCheck struct {
	id, key, lo int64
	size, level int
	err         error
}

// movedPuzzleKeysSQL counts the puzzles holding the keys a moved one
// passed over (checkMovedKeys).
const movedPuzzleKeysSQL = "SELECT count(*) FROM puzzles WHERE size = ? AND level = ? AND sort_key BETWEEN ? AND ?"

// eachKeyedProblem runs query with args and check on each row it
// returns, calling fn with each row that fails and what is wrong, until
// fn returns false; then it checks the rows stored under a key past
// their own (checkMovedKeys with count and what). check's error is a
// row that does not scan, which ends the pass.
func eachKeyedProblem(ctx context.Context, q checkQuerier, query string, args []any, check func(*sql.Rows) (keyedCheck, error),
	count, what string, fn func(id int64, err error) bool) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var moved []movedKey
	for n := 0; rows.Next(); n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		c, err := check(rows)
		if err != nil {
			return err
		}
		if c.err != nil {
			if !fn(c.id, c.err) {
				return nil
			}
			continue
		}
		if c.key != c.lo {
			moved = append(moved, movedKey{id: c.id, lo: c.lo, key: c.key, size: c.size, level: c.level})
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	return checkMovedKeys(ctx, q, moved, count, what, fn)
}

// movedKey is a row stored under a key past its string's (lo): one
// whose own key another row held.
type movedKey struct {
	id, lo, key int64
	size, level int // a puzzle's, whose keys are unique within them
}

// checkMovedKeys checks that every key a moved row passed over is held,
// as the writer that moved it found them: count, given the first and
// last of those keys (and a puzzle's size and level), counts the rows
// holding them. It calls fn with each row that fails, until fn returns
// false.
func checkMovedKeys(ctx context.Context, q checkQuerier, moved []movedKey, count, what string, fn func(id int64, err error) bool) error {
	for _, m := range moved {
		args := []any{m.lo, m.key - 1}
		if m.size != 0 {
			args = append([]any{m.size, m.level}, args...)
		}
		var n int64
		if err := q.QueryRowxContext(ctx, count, args...).Scan(&n); err != nil {
			return err
		}
		if n != m.key-m.lo && !fn(m.id, fmt.Errorf("%s %d, its string's is %d, which no other row holds", what, m.key, m.lo)) {
			return nil
		}
	}
	return nil
}

// checkStoredFamily checks one stored family (see eachFamilyProblem)
// and returns the key of its form: key must be in its window.
func checkStoredFamily(size int, key int64, canon string, sol sql.RawBytes) (int64, error) {
	lo, hi := window(canonKey(canon))
	if key < lo || key > hi {
		return 0, fmt.Errorf("canon key %d, its form's is %d", key, lo)
	}
	if size != 9 || sol == nil {
		return lo, nil
	}
	c, err := storedCells(canon)
	if err != nil {
		return 0, fmt.Errorf("canonical form: %w", err)
	}
	s, err := storedCells([]byte(sol))
	if err != nil {
		return 0, fmt.Errorf("solution: %w", err)
	}
	return lo, agrees(c, s)
}

// agrees checks that s is a complete grid and that p's givens are its
// digits.
func agrees(p, s solve.Grid) error {
	if s.Givens() != 81 || s.Check() != nil {
		return fmt.Errorf("solution %s is not a complete grid", s)
	}
	for i, v := range p {
		if v != 0 && v != s[i] {
			return fmt.Errorf("r%dc%d holds %d, its solution %d", i/9+1, i%9+1, v, s[i])
		}
	}
	return nil
}

// eachPuzzleProblem derives every stored puzzle's grids as a query
// would and checks them: they read, the solution is a complete grid that
// agrees with the givens, and the sort key is the string's (or one of
// its window, where another string held that). With unique it also
// counts a 9x9 puzzle's solutions, most of the cost, and with count
// those of other sizes. It calls fn with each puzzle that fails and what
// is wrong, until fn returns false.
func eachPuzzleProblem(ctx context.Context, q checkQuerier, unique bool, count func(grid.Grid, int) int, fn func(id int64, err error) bool) error {
	query := `SELECT p.id, p.size, f.size, p.level, p.sort_key, p.puzzle, p.solution, p.code, f.canon, f.solution
		FROM puzzles p JOIN families f ON f.id = p.family_id`
	var last famGrids
	return eachKeyedProblem(ctx, q, query, nil, func(rows *sql.Rows) (c keyedCheck, err error) {
		var (
			famSize                 int
			puzzle, sol, canon, fam sql.RawBytes
			code                    sql.NullInt64
		)
		if err := rows.Scan(&c.id, &c.size, &famSize, &c.level, &c.key, &puzzle, &sol, &code, &canon, &fam); err != nil {
			return c, err
		}
		switch {
		case c.size != famSize:
			c.err = fmt.Errorf("size %d, its family's %d", c.size, famSize)
		case c.size == 9:
			c.lo, c.err = checkPuzzle(c.key, puzzle, sol, code, canon, fam, &last, unique)
		default:
			c.lo, c.err = checkSizedPuzzle(c.size, c.key, puzzle, sol, code, count)
		}
		return c, nil
	}, movedPuzzleKeysSQL, "sort key", fn)
}

// famGrids is a family's grids as a derived puzzle's check read them,
// kept for the next row: a family's variants are stored together.
type famGrids struct {
	canon, sol []byte // as stored
	c, s       solve.Grid
	err        error
}

// read returns the family's form and solution, from canon and sol as
// stored.
func (f *famGrids) read(canon, sol sql.RawBytes) (c, s solve.Grid, err error) {
	if f.canon != nil && bytes.Equal(f.canon, canon) && bytes.Equal(f.sol, sol) {
		return f.c, f.s, f.err
	}
	f.canon, f.sol = append(f.canon[:0], canon...), append(f.sol[:0], sol...)
	if f.c, f.err = storedCells(string(canon)); f.err != nil {
		f.err = fmt.Errorf("family's canonical form: %w", f.err)
	} else if f.s, f.err = storedCells(rawValue(sol)); f.err != nil {
		f.err = fmt.Errorf("family's solution: %w", f.err)
	}
	return f.c, f.s, f.err
}

// checkPuzzle checks one stored puzzle: an explicit row's grids, or a
// derived row's code and its family's grids (last keeps the family the
// row before read); with unique, that it has one solution. It returns
// the key of the puzzle's string: key must be in its window.
func checkPuzzle(key int64, puzzle, sol sql.RawBytes, code sql.NullInt64, canon, famSol sql.RawBytes, last *famGrids, unique bool) (int64, error) {
	var p, s solve.Grid
	var err error
	if !code.Valid {
		if p, err = storedCells(rawValue(puzzle)); err != nil {
			return 0, fmt.Errorf("puzzle: %w", err)
		}
		if s, err = storedCells(rawValue(sol)); err != nil {
			return 0, fmt.Errorf("solution: %w", err)
		}
	} else {
		t, err := transformOf(code.Int64)
		if err != nil {
			return 0, err
		}
		c, fs, err := last.read(canon, famSol)
		if err != nil {
			return 0, err
		}
		p, s = t.Apply(c), t.Apply(fs)
	}
	if err := agrees(p, s); err != nil {
		return 0, err
	}
	if unique {
		if n := solve.Count(p, 2); n != 1 {
			return 0, fmt.Errorf("%s has %d solutions, want exactly 1", p, n)
		}
	}
	lo, hi := window(keyOf(p.String()))
	if key < lo || key > hi {
		return 0, fmt.Errorf("sort key %d, its string's is %d", key, lo)
	}
	return lo, nil
}

// checkSizedPuzzle checks one stored puzzle of a size other than 9x9,
// which is always an explicit row (migrations/0013): its grids decode,
// its solution is complete and agrees with its givens, its sort key is
// its string's and, given count, it has exactly one solution.
func checkSizedPuzzle(size int, key int64, puzzle, sol sql.RawBytes, code sql.NullInt64, count func(grid.Grid, int) int) (int64, error) {
	if code.Valid {
		return 0, fmt.Errorf("a %dx%d puzzle stored as a transform code", size, size)
	}
	sh, err := grid.ShapeOf(size)
	if err != nil {
		return 0, err
	}
	read := func(b sql.RawBytes) (grid.Grid, error) {
		if len(b) != packedLenOf(size) {
			return grid.Grid{}, fmt.Errorf("packed grid of %d bytes, want %d", len(b), packedLenOf(size))
		}
		return grid.ParseIn(sh, unpackGridSize(b, size))
	}
	p, err := read(puzzle)
	if err != nil {
		return 0, fmt.Errorf("puzzle: %w", err)
	}
	s, err := read(sol)
	if err != nil {
		return 0, fmt.Errorf("solution: %w", err)
	}
	if s.Givens() != sh.Cells() {
		return 0, fmt.Errorf("solution %s is not a complete grid", s)
	}
	for i, v := range p.Cells {
		if v != 0 && v != s.Cells[i] {
			return 0, fmt.Errorf("%s holds %c, its solution %c", sh.CellName(i), grid.Symbol(v), grid.Symbol(s.Cells[i]))
		}
	}
	if count != nil {
		if n := count(p, 2); n != 1 {
			return 0, fmt.Errorf("%s has %d solutions, want exactly 1", p, n)
		}
	}
	lo, hi := window(keyOf(p.String()))
	if key < lo || key > hi {
		return 0, fmt.Errorf("sort key %d, its string's is %d", key, lo)
	}
	return lo, nil
}

// rawValue is a scanned grid column as storedCells takes it: nil for
// NULL, else the bytes.
func rawValue(b sql.RawBytes) any {
	if b == nil {
		return nil
	}
	return []byte(b)
}
