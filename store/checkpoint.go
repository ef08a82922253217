package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// walAutoCheckpoint is SQLite's default wal_autocheckpoint, in pages,
// which a writer keeps outside merges.
const walAutoCheckpoint = 1000

// checkpointer copies a writer's committed WAL frames into the bank on a
// connection of its own, on another goroutine, while the writer goes on:
// a merge's commit leaves a shard's worth of pages in the WAL, which an
// automatic checkpoint would copy on the writer's time.
type checkpointer struct {
	x    *sqlx.DB
	done chan struct{} // closed when the checkpoint under way ends; nil if none
}

// checkpointBeside starts a passive checkpoint of the bank on db's
// checkpointer, after the one under way, if any, has ended. A checkpoint
// that fails, is left short or does not start is harmless: a later one,
// or the close, copies the frames. The caller holds db.bulkMu.
func (db *DB) checkpointBeside() {
	c := db.ckpt
	if c == nil {
		x, err := sqlx.Open("sqlite", dsn(db.path, []string{"mode=rw", "_pragma=busy_timeout(10000)"}))
		if err != nil {
			return
		}
		x.SetMaxOpenConns(1)
		c = &checkpointer{x: x}
		db.ckpt = c
	}
	c.wait()
	done := make(chan struct{})
	c.done = done
	go func() {
		defer close(done)
		// PASSIVE takes no lock that the writer waits for.
		c.x.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
	}()
}

// wait waits for the checkpoint under way, if any.
func (c *checkpointer) wait() {
	if c.done != nil {
		<-c.done
		c.done = nil
	}
}

// closeCheckpointer waits for db's checkpointer and closes its
// connection, so that the writer's is the bank's last and its close
// removes the WAL. The caller holds db.bulkMu.
func (db *DB) closeCheckpointer() error {
	c := db.ckpt
	if c == nil {
		return nil
	}
	db.ckpt = nil
	c.wait()
	if err := c.x.Close(); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}
