package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// The statuses a run ends with; a run not yet finished is "running".
const (
	RunRunning     = "running"
	RunCompleted   = "completed"
	RunInterrupted = "interrupted"
	RunFailed      = "failed"
)

// Run is one run of the generator.
type Run struct {
	ID          int64
	Params      string // the run's parameters, as bankgen encodes them
	Seed        uint64
	CodeVersion string
	StartedAt   time.Time
	EndedAt     time.Time // zero while running
	RunEnd                // Status is RunRunning until FinishRun
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

// StartRun records the start of a run and returns its ID. A zero
// StartedAt means now; Status and the counts are ignored.
func (db *DB) StartRun(ctx context.Context, r Run) (int64, error) {
	start := r.StartedAt
	if start.IsZero() {
		start = time.Now()
	}
	res, err := db.db.ExecContext(ctx, `INSERT INTO runs (params, seed, code_version, started_at, status)
		VALUES (?, ?, ?, ?, 'running')`, r.Params, int64(r.Seed), r.CodeVersion, start.Unix())
	if err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	return id, nil
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
	return nil
}

// Runs returns every run, oldest first.
func (db *DB) Runs(ctx context.Context) ([]Run, error) {
	rows, err := db.db.QueryContext(ctx, `SELECT id, params, seed, code_version, started_at,
		ended_at, status, families, puzzles, dup_families, dup_puzzles, rejected, message
		FROM runs ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var (
			r           Run
			seed, start int64
			ended       sql.NullInt64
		)
		if err := rows.Scan(&r.ID, &r.Params, &seed, &r.CodeVersion, &start, &ended, &r.Status,
			&r.Families, &r.Puzzles, &r.DupFamilies, &r.DupPuzzles, &r.Rejected, &r.Message); err != nil {
			return nil, fmt.Errorf("runs: %w", err)
		}
		r.Seed = uint64(seed)
		r.StartedAt = time.Unix(start, 0).UTC()
		if ended.Valid {
			r.EndedAt = time.Unix(ended.Int64, 0).UTC()
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	return out, nil
}
