package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// closedBank makes a bank with a few families in a new directory and
// closes it, which checkpoints and removes its -wal and -shm.
func closedBank(t *testing.T) string {
	t.Helper()
	db := checkedBank(t)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	assertNoSidecars(t, db.path)
	return db.path
}

// assertNoSidecars fails t if path has a -wal or -shm beside it.
func assertNoSidecars(t *testing.T, path string) {
	t.Helper()
	for _, s := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + s); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s%s: %v, want no file", filepath.Base(path), s, err)
		}
	}
}

// TestReadOnlyDirectory reads a checkpointed bank in a directory the
// reader cannot write, as bankquery does on a read-only mount. Tests run
// as root here, whom directory permissions do not stop, so the directory
// is made unwritable to the store by dirWritable: the reader must then
// read the bank without making a -wal or -shm, which SQLite cannot do
// there. Run as another user, the test also makes the directory 0555.
func TestReadOnlyDirectory(t *testing.T) {
	ctx := context.Background()
	path := closedBank(t)
	dir := filepath.Dir(path)
	old := dirWritable
	dirWritable = func(d string) bool { return d != dir && old(d) }
	t.Cleanup(func() { dirWritable = old })
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	db, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := db.Stats(ctx)
	if err != nil || st.Families != 3 {
		t.Errorf("Stats = %d families, %v; want 3", st.Families, err)
	}
	if r := mustCheck(t, db, false); !r.OK() {
		t.Errorf("Check: %q", r.Problems)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	assertNoSidecars(t, path)
}

// TestRefusedBankLeftAsFound opens banks a reader refuses: no -wal or
// -shm may stay beside them.
func TestRefusedBankLeftAsFound(t *testing.T) {
	latest, err := latestVersion(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, sql string
		want      error
	}{
		{"Newer", fmt.Sprintf("PRAGMA user_version = %d", latest+1), ErrNewerBank},
		{"Older", fmt.Sprintf("PRAGMA user_version = %d", latest-1), ErrOldBank},
		{"Foreign", "PRAGMA application_id = 7", ErrNotBank},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := checkedBank(t)
			if _, err := db.db.Exec(tt.sql); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if r, err := OpenReadOnly(context.Background(), db.path); !errors.Is(err, tt.want) {
				if err == nil {
					r.Close()
				}
				t.Fatalf("OpenReadOnly = %v, want %v", err, tt.want)
			}
			assertNoSidecars(t, db.path)
		})
	}
}
