package store

import (
	"context"
	"database/sql"
	"sync"

	"github.com/jmoiron/sqlx"
)

// maxCachedStmts bounds the statements a stmtCache keeps. A reader's
// statements come from fixed fragments (a filter's values are bound, and
// the lists of slots and IDs are padded to a power of two), so a server
// uses a few dozen texts; past the bound a text runs unprepared.
const maxCachedStmts = 256

// stmtCache runs a reader's queries from statements prepared once and
// kept: SQLite parses and plans a statement in about the time it takes
// to run a small one, and a server runs the same few again and again.
// database/sql prepares each statement once on each connection of the
// pool. It is a sqlx.QueryerContext, so that the queries run on it as on
// the DB or a transaction.
type stmtCache struct {
	db    *sqlx.DB
	mu    sync.Mutex
	stmts map[string]*sqlx.Stmt
}

func newStmtCache(db *sqlx.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sqlx.Stmt{}}
}

// stmt returns the prepared statement of query, or nil when the cache is
// full or query does not prepare (the caller then runs it as it is, and
// meets the error there).
func (c *stmtCache) stmt(ctx context.Context, query string) *sqlx.Stmt {
	c.mu.Lock()
	s, ok := c.stmts[query]
	full := len(c.stmts) >= maxCachedStmts
	c.mu.Unlock()
	if ok || full {
		return s
	}
	s, err := c.db.PreparexContext(ctx, query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.stmts[query]; ok {
		s.Close() // prepared meanwhile by another request
		return old
	}
	c.stmts[query] = s
	return s
}

// QueryContext runs query with args.
func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return c.db.QueryContext(ctx, query, args...)
}

// QueryxContext runs query with args.
func (c *stmtCache) QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error) {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryxContext(ctx, args...)
	}
	return c.db.QueryxContext(ctx, query, args...)
}

// QueryRowxContext runs query with args for one row.
func (c *stmtCache) QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryRowxContext(ctx, args...)
	}
	return c.db.QueryRowxContext(ctx, query, args...)
}

// close closes the kept statements.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, s := range c.stmts {
		s.Close()
		delete(c.stmts, q)
	}
}
