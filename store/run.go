package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// The statuses a run ends with; a run not yet finished is "running".
const (
	RunRunning     = "running"
	RunCompleted   = "completed"
	RunInterrupted = "interrupted"
	RunFailed      = "failed"
)

// The kinds of run a bank records (Run.Kind).
const (
	RunGenerate = "generate" // families made by the generator
	RunImport   = "import"   // puzzles read from a collection
	RunMerge    = "merge"    // families copied from another bank
)

// Run is one run of a program that writes the bank.
type Run struct {
	ID     int64
	Kind   string // RunGenerate, RunImport or RunMerge; "" is RunGenerate
	Source string // the families' source: "gen", or the collection's name
	// Args is the command line after the program name, each argument as
	// given; empty for the runs of a bank from before they were recorded
	// (schema 11), whose Params still say them.
	Args        []string
	Params      string // the run's parameters, as bankgen encodes them
	Seed        uint64
	CodeVersion string
	StartedAt   time.Time
	EndedAt     time.Time // zero while running
	RunEnd                // Status is RunRunning until FinishRun
	// Gone says that a run whose Status is RunRunning has no process any
	// more (it was killed): the next writer records how it ended
	// (EndDeadRuns), which a reader cannot.
	Gone bool
}

// RunEnd is how a run ended and what it did.
type RunEnd struct {
	Status      string // RunCompleted, RunInterrupted or RunFailed (or RunRunning, read back)
	Families    int64
	Puzzles     int64
	DupFamilies int64
	DupPuzzles  int64
	Rejected    int64  // candidates the pipeline threw away
	Message     string // why it failed or was interrupted, if it did
}

// AddedNothing reports whether the run ended having stored no puzzle. A
// run still going may yet add some.
func (r Run) AddedNothing() bool {
	return r.Status != RunRunning && r.Families == 0 && r.Puzzles == 0
}

// StartRun records the start of a run and returns its ID. A zero
// StartedAt means now, an empty Kind RunGenerate; Status and the counts
// are ignored.
//
// The run holds a lock file beside the bank (the bank's name with
// "-run<ID>.lock" added) until FinishRun or Close, so that other
// processes can tell it from a run whose process died. StartRun first
// ends every such dead run (see EndDeadRuns).
func (db *DB) StartRun(ctx context.Context, r Run) (int64, error) {
	if _, err := db.EndDeadRuns(ctx); err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	start := r.StartedAt
	if start.IsZero() {
		start = time.Now()
	}
	kind := r.Kind
	switch kind {
	case "":
		kind = RunGenerate
	case RunGenerate, RunImport, RunMerge:
	default:
		return 0, fmt.Errorf("start run: kind %q: %w", kind, ErrInvalid)
	}
	args := r.Args
	if args == nil {
		args = []string{}
	}
	argsJSON, err := json.Marshal(args)
	if err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO runs (kind, source, args, params, seed, code_version, started_at, status)
		VALUES (?, ?, ?, ?, ?, ?, ?, 'running')`, kind, r.Source, string(argsJSON), r.Params, int64(r.Seed), r.CodeVersion, start.Unix())
	if err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	// The lock is taken before the row is committed, so no other process
	// ever sees the run "running" without its lock held.
	lk, err := lockRun(db.runLockPath(id))
	if err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	if err := tx.Commit(); err != nil {
		lk.release()
		return 0, fmt.Errorf("start run: %w", err)
	}
	db.runs.add(id, lk)
	return id, nil
}

// EndDeadRuns records every run still "running" whose process has died
// (SIGKILL, a crash, a power cut) as interrupted, with a message that
// says so, and returns their IDs. Their counts stay what they committed:
// WriteBatch adds each batch's families and puzzles to its run in the
// batch's own transaction. A run is dead when no process holds its lock
// file; a run of a program from before the lock files has none, and
// counts as dead too. Where file locks are not supported (not Unix), no
// run is ever found dead.
func (db *DB) EndDeadRuns(ctx context.Context) ([]int64, error) {
	if !runLocksWork {
		return nil, nil
	}
	// The write lock, taken at BEGIN, keeps runs from starting or
	// finishing while their locks are tested.
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("end dead runs: %w", err)
	}
	defer tx.Rollback()
	var running []int64
	if err := tx.SelectContext(ctx, &running, `SELECT id FROM runs WHERE status = 'running' ORDER BY id`); err != nil {
		return nil, fmt.Errorf("end dead runs: %w", err)
	}
	var dead []*runLock
	var ids []int64
	defer func() {
		for _, lk := range dead {
			lk.release()
		}
	}()
	for _, id := range running {
		if db.runs.holds(id) {
			continue // this process's own run
		}
		lk, alive, err := probeRun(db.runLockPath(id))
		if err != nil {
			return nil, fmt.Errorf("end dead runs: run %d: %w", id, err)
		}
		if alive {
			continue
		}
		if lk != nil {
			dead = append(dead, lk) // held until the update commits, then removed
		}
		status, msg := RunInterrupted, deadRunMessage
		if lk != nil {
			if note := lk.noteOf(); note != "" {
				status, msg = RunFailed, note+" (recorded by the next run: the bank could not take it then)"
			}
		}
		res, err := tx.ExecContext(ctx, `UPDATE runs SET status = ?, ended_at = ?, message = ?
			WHERE id = ? AND status = 'running'`, status, time.Now().Unix(), msg, id)
		if err != nil {
			return nil, fmt.Errorf("end dead runs: run %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, fmt.Errorf("end dead runs: run %d: %w", id, err)
		} else if n == 1 {
			ids = append(ids, id)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("end dead runs: %w", err)
	}
	return ids, nil
}

// deadRunMessage is the message of a run EndDeadRuns ended.
const deadRunMessage = "killed: the process ended without recording its end; the counts are what it committed"

// maxRunNote bounds the failure message NoteRunFailure keeps.
const maxRunNote = 4096

// NoteRunFailure keeps msg, why run id failed, beside the bank, for a
// run whose FinishRun failed too (a full disk, a bank that went
// read-only): the next EndDeadRuns records the run as failed with msg,
// not as killed. It fails where no lock file can hold it.
func (db *DB) NoteRunFailure(id int64, msg string) error {
	if len(msg) > maxRunNote {
		msg = msg[:maxRunNote]
	}
	db.runs.mu.Lock()
	defer db.runs.mu.Unlock()
	lk := db.runs.m[id]
	if lk == nil {
		return fmt.Errorf("note run %d: %w", id, ErrNotFound)
	}
	if err := lk.note(msg); err != nil {
		return fmt.Errorf("note run %d: %w", id, err)
	}
	return nil
}

// runLockPath returns the name of run id's lock file.
func (db *DB) runLockPath(id int64) string {
	return runLockPath(db.real, id)
}

// runLockPath is the lock file of run id of the bank whose real path
// (realPath) is real.
func runLockPath(real string, id int64) string {
	return fmt.Sprintf("%s-run%d.lock", real, id)
}

// FinishRun records how run id ended, now.
func (db *DB) FinishRun(ctx context.Context, id int64, e RunEnd) error {
	switch e.Status {
	case RunCompleted, RunInterrupted, RunFailed:
	default:
		return fmt.Errorf("finish run %d: status %q: %w", id, e.Status, ErrInvalid)
	}
	res, err := db.db.ExecContext(ctx, `UPDATE runs SET ended_at = ?, status = ?, families = ?,
		puzzles = ?, dup_families = ?, dup_puzzles = ?, rejected = ?, message = ? WHERE id = ?`,
		time.Now().Unix(), e.Status, e.Families, e.Puzzles, e.DupFamilies, e.DupPuzzles,
		e.Rejected, e.Message, id)
	if err != nil {
		return fmt.Errorf("finish run %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("finish run %d: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("finish run %d: %w", id, ErrNotFound)
	}
	db.runs.release(id)
	return nil
}

// addRunCounts adds families and puzzles to run id's counts in tx, so
// that a run that dies keeps the counts of what it committed.
//
// It fails if the run is not stored: WriteBatch writes without SQLite's
// foreign key checks, and this is where a family's run is checked.
func addRunCounts(ctx context.Context, tx *sqlx.Tx, id int64, families, puzzles int) error {
	r, err := tx.ExecContext(ctx, `UPDATE runs SET families = families + ?, puzzles = puzzles + ? WHERE id = ?`,
		families, puzzles, id)
	if err != nil {
		return fmt.Errorf("run %d counts: %w", id, err)
	}
	n, err := r.RowsAffected()
	if err != nil {
		return fmt.Errorf("run %d counts: %w", id, err)
	}
	if n != 1 {
		return fmt.Errorf("run %d: %w", id, ErrNotFound)
	}
	return nil
}

// runLocks are the lock files of the runs this DB started and has not
// finished.
type runLocks struct {
	mu sync.Mutex
	m  map[int64]*runLock
}

func (r *runLocks) add(id int64, lk *runLock) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = make(map[int64]*runLock)
	}
	r.m[id] = lk
}

func (r *runLocks) holds(id int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[id] != nil
}

func (r *runLocks) release(id int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if lk := r.m[id]; lk != nil {
		lk.release()
		delete(r.m, id)
	}
}

// releaseAll lets go of every lock: a run not finished by then counts as
// dead to the next run that starts.
func (r *runLocks) releaseAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, lk := range r.m {
		if lk.noted {
			lk.drop()
		} else {
			lk.release()
		}
		delete(r.m, id)
	}
}

// runColumns are the columns of runs that scanRun reads, in its order.
const runColumns = `id, kind, source, args, params, seed, code_version, started_at,
	ended_at, status, families, puzzles, dup_families, dup_puzzles, rejected, message`

// scanRun reads a row of runColumns. An error is a stored value that
// does not read as the schema says: the row was damaged.
func scanRun(rows *sql.Rows) (Run, error) {
	var (
		r           Run
		args        string
		seed, start int64
		ended       sql.NullInt64
	)
	// The ID comes first, and a rowid always reads: a failed scan has
	// set it, for the error to name the run.
	if err := rows.Scan(&r.ID, &r.Kind, &r.Source, &args, &r.Params, &seed, &r.CodeVersion, &start, &ended, &r.Status,
		&r.Families, &r.Puzzles, &r.DupFamilies, &r.DupPuzzles, &r.Rejected, &r.Message); err != nil {
		return r, fmt.Errorf("run %d: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(args), &r.Args); err != nil {
		return r, fmt.Errorf("run %d: args: %w", r.ID, err)
	}
	r.Seed = uint64(seed)
	r.StartedAt = time.Unix(start, 0).UTC()
	if ended.Valid {
		r.EndedAt = time.Unix(ended.Int64, 0).UTC()
	}
	return r, nil
}

// Runs returns every run, oldest first. A run whose row does not read is
// a DamagedError.
func (db *DB) Runs(ctx context.Context) ([]Run, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT `+runColumns+` FROM runs ORDER BY id`)
	if err != nil {
		return nil, Damaged(db.path, fmt.Errorf("runs: %w", err))
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, damagedValue(db.path, fmt.Errorf("runs: %w", err))
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, Damaged(db.path, fmt.Errorf("runs: %w", err))
	}
	rows.Close()
	for i := range out {
		if r := &out[i]; r.Status == RunRunning && !db.runs.holds(r.ID) && !runAlive(db.runLockPath(r.ID)) {
			// A run that finished after the rows were read has let its lock
			// go too: only one still running when asked again is gone.
			var status string
			if err := db.db.GetContext(ctx, &status, "SELECT status FROM runs WHERE id = ?", r.ID); err != nil {
				return nil, fmt.Errorf("runs: run %d: %w", r.ID, err)
			}
			r.Gone = status == RunRunning
		}
	}
	return out, nil
}

// RunFamily is a family as a rerun of the job that stored it needs it
// (RunFamilies).
type RunFamily struct {
	Canon string
	Level int
	Seed  uint64 // the seed of the item that made it, within its run
}

// RunFamilies calls fn with every family the runs ids stored, in the
// order they were stored. fn must not use a writer DB.
func (db *DB) RunFamilies(ctx context.Context, ids []int64, fn func(RunFamily) error) error {
	if len(ids) == 0 {
		return nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	q := "SELECT canon, level, seed FROM families WHERE run_id IN (?" + strings.Repeat(", ?", len(ids)-1) + ") ORDER BY id"
	rows, err := db.db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("read the families of runs %v: %w", ids, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			f    RunFamily
			seed int64
		)
		if err := rows.Scan(&f.Canon, &f.Level, &seed); err != nil {
			return fmt.Errorf("read the families of runs %v: %w", ids, err)
		}
		f.Seed = uint64(seed)
		if err := fn(f); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the families of runs %v: %w", ids, err)
	}
	return nil
}
