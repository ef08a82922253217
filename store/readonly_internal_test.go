package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestWriterRefusesReadOnlyBank opens for writing a bank this process
// may not write (the file, or its directory with no -wal or -shm): Open
// refuses it at once with ErrReadOnly and a message naming what it may
// not write, instead of SQLite's "attempt to write a readonly database"
// at the first write; and a merge refuses a shard in such a directory
// alike. Tests run as root here, whom permissions do not stop, so the
// store is told by fileWritable and dirWritable; run as another user,
// the test also changes the permissions.
func TestWriterRefusesReadOnlyBank(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		deny  func(path string) (restore func())
		words []string // in the error
	}{
		{"File", func(path string) func() {
			old := fileWritable
			fileWritable = func(p string) bool { return p != path && old(p) }
			os.Chmod(path, 0o444)
			return func() { fileWritable = old; os.Chmod(path, 0o644) }
		}, []string{"may not write the file"}},
		{"Directory", func(path string) func() {
			dir := filepath.Dir(path)
			old := dirWritable
			dirWritable = func(d string) bool { return d != dir && old(d) }
			if os.Geteuid() != 0 {
				os.Chmod(dir, 0o555)
			}
			return func() { dirWritable = old; os.Chmod(dir, 0o755) }
		}, []string{"may not make files in " + "DIR", "bank.db-wal"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := closedBank(t)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			restore := tt.deny(path)
			defer restore()
			db, err := Open(ctx, path, Options{})
			if err == nil {
				db.Close()
			}
			if !errors.Is(err, ErrReadOnly) {
				t.Fatalf("Open = %v, want ErrReadOnly", err)
			}
			for _, w := range append(tt.words, path) {
				w = strings.ReplaceAll(w, "DIR", filepath.Dir(path))
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Open = %q, want it to say %q", err, w)
				}
			}
			if tt.name == "Directory" {
				if _, err := PrepareShard(ctx, path, false); !errors.Is(err, ErrReadOnly) || strings.Count(err.Error(), path) != 1 {
					t.Errorf("PrepareShard = %v, want ErrReadOnly naming the shard once", err)
				}
			}
			restore()
			assertNoSidecars(t, path)
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the refused bank was changed")
			}
		})
	}
}
