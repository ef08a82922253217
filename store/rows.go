package store

import (
	"context"
	"fmt"
	"sync"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite/vtab"
)

// A batch reaches SQLite as the rows of a virtual table that reads a Go
// slice, so that one INSERT ... SELECT writes a whole batch: the driver
// (C transpiled to Go) costs more per statement than SQLite spends
// inserting a row, so one statement a batch beats one a row.
//
// The values still arrive as bound parameters in every sense that
// matters: SQLite receives them as typed values, never as SQL text.

// rowsModule is the virtual table module's name, registered once per
// process on the "sqlite" driver.
const rowsModule = "sudokubank_rows"

// rowsTable is each writer connection's instance of the module. A
// statement selects a batch with "WHERE handle = ?".
const rowsTable = "temp.batch_rows"

// rowsCols is the number of value columns, c0 .. c20: enough for a
// family row.
const rowsCols = 21

// rowSource is a batch of rows as the virtual table serves them.
type rowSource interface {
	len() int
	// value returns column col of row i as a driver value: int64,
	// float64, string, []byte or nil.
	value(i, col int) any
}

// sources holds the batches being written, by handle.
var sources = struct {
	sync.Mutex
	next int64
	m    map[int64]rowSource
}{m: map[int64]rowSource{}}

// serve makes src readable through the handle it returns until release
// is called.
func serve(src rowSource) (handle int64, release func()) {
	sources.Lock()
	defer sources.Unlock()
	sources.next++
	h := sources.next
	sources.m[h] = src
	return h, func() {
		sources.Lock()
		delete(sources.m, h)
		sources.Unlock()
	}
}

func lookupSource(h int64) rowSource {
	sources.Lock()
	defer sources.Unlock()
	return sources.m[h]
}

var registerRows = sync.OnceValue(func() error {
	if err := vtab.RegisterModule(nil, rowsModule, rowsMod{}); err != nil {
		return fmt.Errorf("register %s: %w", rowsModule, err)
	}
	return nil
})

// withRows creates the connection's batch table if it is missing; it is a
// temporary table, so it lives as long as the connection.
func withRows(ctx context.Context, tx *sqlx.Tx) error {
	if _, err := tx.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS "+rowsTable+" USING "+rowsModule); err != nil {
		return fmt.Errorf("batch table: %w", err)
	}
	return nil
}

type rowsMod struct{}

func (m rowsMod) Create(ctx vtab.Context, args []string) (vtab.Table, error) {
	return m.Connect(ctx, args)
}

func (rowsMod) Connect(ctx vtab.Context, _ []string) (vtab.Table, error) {
	s := "CREATE TABLE x("
	for i := range rowsCols {
		s += fmt.Sprintf("c%d, ", i)
	}
	s += "handle HIDDEN)"
	if err := ctx.Declare(s); err != nil {
		return nil, err
	}
	return rowsTab{}, nil
}

type rowsTab struct{}

// BestIndex takes "handle = ?" as the only way to read the table: without
// it the table is empty, and costed so that the planner never prefers it.
func (rowsTab) BestIndex(info *vtab.IndexInfo) error {
	for i, c := range info.Constraints {
		if c.Column == rowsCols && c.Op == vtab.OpEQ && c.Usable {
			info.Constraints[i].ArgIndex = 0
			info.Constraints[i].Omit = true
			info.IdxNum = 1
			info.EstimatedCost = 1000
			info.EstimatedRows = 1000
			return nil
		}
	}
	info.IdxNum = 0
	info.EstimatedCost = 1e12
	return nil
}

func (rowsTab) Open() (vtab.Cursor, error) { return &rowsCursor{}, nil }
func (rowsTab) Disconnect() error          { return nil }
func (rowsTab) Destroy() error             { return nil }

type rowsCursor struct {
	src rowSource
	n   int
	i   int
}

func (c *rowsCursor) Filter(idxNum int, _ string, vals []vtab.Value) error {
	c.src, c.n, c.i = nil, 0, 0
	// A read without a live handle would insert nothing and let the
	// batch commit as if its rows were written: an error instead.
	if idxNum != 1 || len(vals) != 1 {
		return fmt.Errorf("%s: read without a batch handle", rowsModule)
	}
	h, ok := vals[0].(int64)
	if !ok {
		return fmt.Errorf("%s: handle %T, want an integer", rowsModule, vals[0])
	}
	if c.src = lookupSource(h); c.src == nil {
		return fmt.Errorf("%s: no batch with handle %d", rowsModule, h)
	}
	c.n = c.src.len()
	return nil
}

func (c *rowsCursor) Next() error { c.i++; return nil }
func (c *rowsCursor) Eof() bool   { return c.i >= c.n }

func (c *rowsCursor) Column(col int) (vtab.Value, error) {
	if col >= rowsCols {
		return nil, nil
	}
	return c.src.value(c.i, col), nil
}

func (c *rowsCursor) Rowid() (int64, error) { return int64(c.i), nil }
func (c *rowsCursor) Close() error          { return nil }
