package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openTempBank opens a fresh writable bank with opt in the test's
// temporary directory and closes it when the test ends.
func openTempBank(t *testing.T, opt Options) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "bank.db"), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// reopen closes db, failing t if that fails, and opens its bank again
// with opt, to be closed when the test ends.
func reopen(t *testing.T, db *DB, opt Options) *DB {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), db.path, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// queryPlan returns SQLite's plan for q with args, one line per step.
func queryPlan(t *testing.T, db *DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// A bank opened through a symlink names its run locks after the file
// itself, as a process opening it by its own name does.
func TestRunLockPathResolvesSymlinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "bank.db")
	db, err := Open(context.Background(), real, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	viaLink, err := Open(context.Background(), link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer viaLink.Close()
	want, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	if got := viaLink.runLockPath(7); got != want+"-run7.lock" {
		t.Errorf("runLockPath via a symlink = %s, want %s-run7.lock", got, want)
	}
}
