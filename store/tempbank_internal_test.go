package store

import (
	"context"
	"path/filepath"
	"testing"
)

// openTempBank opens a fresh writable bank in the test's temporary
// directory and closes it when the test ends.
func openTempBank(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "bank.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
