package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sync"
	"time"

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
	path  string // the bank, whose files' stamps date the kept answers
	mu    sync.Mutex
	stmts map[string]*sqlx.Stmt

	// The answers remember keeps, while the bank's files keep stamp
	// and for at most maxAnswerAge from taken.
	answers map[string]any
	stamp   fileStamp
	taken   time.Time
}

func newStmtCache(db *sqlx.DB, path string) *stmtCache {
	return &stmtCache{db: db, path: path, stmts: map[string]*sqlx.Stmt{}, answers: map[string]any{}}
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

// maxAnswerAge bounds how long remember keeps an answer whatever the
// files' stamps say: a file's time stamp moves in steps of a clock tick,
// so a commit that does not change the -wal file's size may leave the
// same stamp for that long.
const maxAnswerAge = time.Second

// maxAnswers bounds the answers remember keeps; past it they are all
// dropped.
const maxAnswers = 1024

// fileStamp is the size and modification time of the bank and its -wal
// file: a writer's commit appends to the -wal, or rewrites it from the
// start, and a checkpoint writes the bank.
type fileStamp [4]int64

func stampOf(path string) fileStamp {
	var s fileStamp
	for i, p := range []string{path, path + "-wal"} {
		if st, err := os.Stat(p); err == nil {
			s[2*i], s[2*i+1] = st.Size(), st.ModTime().UnixNano()
		}
	}
	return s
}

// answer returns read's answer to statement s with args; on a reader's
// statement cache, the answer it kept while the bank is unchanged
// (remember).
func answer[T any](q sqlx.QueryerContext, s string, args []any, read func() (T, error)) (T, error) {
	c, ok := q.(*stmtCache)
	if !ok {
		return read()
	}
	v, err := c.remember(fmt.Sprint(s, args), func() (any, error) { return read() })
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}

// remember returns the answer kept for key while the bank is unchanged,
// else fn's, which it keeps. It is for small reads that every request
// repeats, such as the bucket counts of a random pick, whose answer
// changes only when a writer commits: a stat of two files costs a few
// microseconds, a statement tens.
func (c *stmtCache) remember(key string, fn func() (any, error)) (any, error) {
	stamp, now := stampOf(c.path), time.Now()
	c.mu.Lock()
	if stamp != c.stamp || now.Sub(c.taken) > maxAnswerAge || len(c.answers) >= maxAnswers {
		clear(c.answers)
		c.stamp, c.taken = stamp, now
	}
	v, ok := c.answers[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := fn()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Kept only if the files are as they were before fn read them.
	if c.stamp == stamp {
		c.answers[key] = v
	}
	return v, nil
}
