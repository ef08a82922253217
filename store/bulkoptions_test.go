package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"sudokubank/store"
)

// TestBulkOptions checks that only a missing or empty bank is loaded in
// bulk, with its indexes deferred, and that every bulk writer gets the
// large page cache.
func TestBulkOptions(t *testing.T) {
	dir := t.TempDir()
	empty, full := filepath.Join(dir, "empty.db"), filepath.Join(dir, "full.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte("SQLite format 3\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		deferred   bool
	}{
		{"Missing", filepath.Join(dir, "missing.db"), true},
		{"Empty", empty, true},
		{"Existing", full, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := store.BulkOptions(tc.path)
			if o.DeferIndexes != tc.deferred || o.CacheSizeKB != 256<<10 {
				t.Errorf("BulkOptions = %+v, want DeferIndexes %v and a 256 MiB cache", o, tc.deferred)
			}
		})
	}
}
