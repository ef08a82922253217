package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"sudokubank/store"
)

// rawSQL runs statements on a file with plain database/sql, bypassing
// the store, to set up files the store must cope with.
func rawSQL(tb testing.TB, path string, stmts ...string) {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
}

// rawInt reads one integer with plain database/sql.
func rawInt(tb testing.TB, path, q string) int64 {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow(q).Scan(&n); err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return n
}

func rawString(tb testing.TB, path, q string) string {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var s string
	if err := db.QueryRow(q).Scan(&s); err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return s
}

func TestOpenFresh(t *testing.T) {
	ctx := context.Background()
	db, path := MustOpenTemp(t)
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.SchemaVersion < 1 {
		t.Errorf("SchemaVersion = %d, want >= 1", st.SchemaVersion)
	}
	if got, want := rawInt(t, path, "PRAGMA application_id"), int64(store.AppID); got != want {
		t.Errorf("application_id = %#x, want %#x", got, want)
	}
	if got, want := rawString(t, path, "PRAGMA journal_mode"), "wal"; got != want {
		t.Errorf("journal_mode = %q, want %q", got, want)
	}
	if got, want := rawInt(t, path, "PRAGMA page_size"), int64(16384); got != want {
		t.Errorf("page_size = %d, want %d", got, want)
	}
}

// TestOpenKeepsPageSize opens a database made elsewhere with SQLite's
// default page size: it becomes a bank that works, and keeps its size,
// which only a VACUUM could change.
func TestOpenKeepsPageSize(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	rawSQL(t, path, "PRAGMA page_size = 4096", "PRAGMA journal_mode = WAL")
	db := MustOpen(t, path)
	MustWrite(t, db, []store.NewFamily{fam(1, 2, 30, 2)})
	n, err := db.Count(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("Count = %d, want 2", n)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	if got, want := rawInt(t, path, "PRAGMA page_size"), int64(4096); got != want {
		t.Errorf("page_size = %d, want %d", got, want)
	}
}

func TestReopenIsNoop(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	MustWrite(t, db, []store.NewFamily{fam(1, 2, 30, 2)})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	schema := rawString(t, path, "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema ORDER BY name)")
	version := rawInt(t, path, "PRAGMA user_version")

	db = MustOpen(t, path)
	if got := rawString(t, path, "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema ORDER BY name)"); got != schema {
		t.Errorf("schema changed on reopen:\n got %s\nwant %s", got, schema)
	}
	if got := rawInt(t, path, "PRAGMA user_version"); got != version {
		t.Errorf("user_version = %d after reopen, want %d", got, version)
	}
	n, err := db.Count(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := n, int64(2); got != want {
		t.Errorf("Count = %d, want %d", got, want)
	}
}

// TestOlderBankSaysHowToMigrate: a reader refuses a bank of an older
// schema with the command that migrates it and adds nothing (a plain
// bankgen would add 1000 families), quoted so that it can be pasted.
func TestOlderBankSaysHowToMigrate(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, file, want string
	}{
		{"Plain", "old.db", "bankgen -db DIR/old.db -count 0"},
		{"Space", "my bank.db", "bankgen -db 'DIR/my bank.db' -count 0"},
		{"Quote", "bob's.db", `bankgen -db 'DIR/bob'\''s.db' -count 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tt.file)
			db, err := store.Open(ctx, path, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			latest := rawInt(t, path, "PRAGMA user_version")
			rawSQL(t, path, fmt.Sprintf("PRAGMA user_version = %d", latest-1))
			_, err = store.OpenReadOnly(ctx, path)
			if !errors.Is(err, store.ErrOldBank) {
				t.Fatalf("OpenReadOnly(older bank) error = %v, want ErrOldBank", err)
			}
			// The command ends the message, so that nothing pasted with
			// it (a colon after "-count 0") spoils it.
			if want := strings.ReplaceAll(tt.want, "DIR", dir); !strings.HasSuffix(err.Error(), "; migrate it once with "+want) {
				t.Errorf("error %q does not end with the command to run, %s", err, want)
			}
		})
	}
}

func TestNewerBankRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.db")
	rawSQL(t, path,
		"CREATE TABLE future (x)",
		"PRAGMA application_id = 1396984642",
		"PRAGMA user_version = 999")
	_, err := store.Open(ctx, path, store.Options{})
	if !errors.Is(err, store.ErrNewerBank) {
		t.Fatalf("Open(newer bank) error = %v, want ErrNewerBank", err)
	}
	_, err = store.OpenReadOnly(ctx, path)
	if !errors.Is(err, store.ErrNewerBank) {
		t.Fatalf("OpenReadOnly(newer bank) error = %v, want ErrNewerBank", err)
	}
	// Untouched: same version, same journal mode, no tables of ours.
	if got, want := rawInt(t, path, "PRAGMA user_version"), int64(999); got != want {
		t.Errorf("user_version = %d, want %d", got, want)
	}
	if got, want := rawString(t, path, "PRAGMA journal_mode"), "delete"; got != want {
		t.Errorf("journal_mode = %q, want %q", got, want)
	}
	if got := rawInt(t, path, "SELECT count(*) FROM sqlite_schema WHERE name = 'puzzles'"); got != 0 {
		t.Errorf("refused bank got a puzzles table")
	}
}

func TestNotABankRefused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tests := []struct {
		name  string
		setup func(path string)
		msg   string // in Open's error, "" for any
	}{
		{"SQLiteWithOtherTables", func(path string) {
			rawSQL(t, path, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO customers (name) VALUES ('x')")
		}, "SQLite file with 1 schema object and no bank application_id"},
		{"OtherApplicationID", func(path string) {
			rawSQL(t, path, "PRAGMA application_id = 42", "CREATE TABLE t (x)")
		}, ""},
		{"NotSQLite", func(path string) {
			if err := os.WriteFile(path, []byte("id,name\n1,not a database at all, just some text\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".db")
			tt.setup(path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.Open(ctx, path, store.Options{}); !errors.Is(err, store.ErrNotBank) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Open error = %v, want ErrNotBank saying %q", err, tt.msg)
			}
			if _, err := store.OpenReadOnly(ctx, path); !errors.Is(err, store.ErrNotBank) {
				t.Errorf("OpenReadOnly error = %v, want ErrNotBank", err)
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != string(before) {
				t.Errorf("refused file was changed")
			}
		})
	}
}

func TestOpenReadOnlyMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	_, err := store.OpenReadOnly(context.Background(), path)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenReadOnly(missing) error = %v, want fs.ErrNotExist", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenReadOnly created %s", path)
	}
}

func TestOpenReadOnlyEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenReadOnly(context.Background(), path); !errors.Is(err, store.ErrNotBank) {
		t.Errorf("OpenReadOnly(empty file) error = %v, want ErrNotBank", err)
	}
}

func TestReadOnlyCannotWrite(t *testing.T) {
	ctx := context.Background()
	w, path := MustOpenTemp(t)
	MustWrite(t, w, []store.NewFamily{fam(1, 1, 30, 1)})
	r, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.WriteBatch(ctx, []store.NewFamily{fam(2, 1, 30, 1)}); err == nil {
		t.Errorf("WriteBatch on a read-only bank succeeded")
	}
	n, err := r.Count(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("Count = %d, want 1", n)
	}
}

func openRaw(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestOpenReadOnlyAfterWriterClosed(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	w, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	MustWrite(t, w, []store.NewFamily{fam(1, 1, 30, 3)})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n, err := r.Count(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("Count = %d, want 3", n)
	}
	if err := r.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

func openRawRW(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestOpenOddPath(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "a dir#1")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "bank 100%?.db")
	db := MustOpen(t, path)
	MustWrite(t, db, []store.NewFamily{fam(1, 1, 30, 1)})
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("bank not at %s: %v", path, err)
	}
	r, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n, err := r.Count(ctx, store.Filter{}); err != nil || n != 1 {
		t.Errorf("Count = %d, %v; want 1", n, err)
	}
}

// TestOpenMustExist opens, for writing, files that are not banks yet: a
// writer that must not make banks refuses each, unchanged, and opens a
// bank as any writer does.
func TestOpenMustExist(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opt := store.Options{MustExist: true}
	tests := []struct {
		name  string
		setup func(path string)
		want  error
	}{
		{"Missing", func(string) {}, fs.ErrNotExist},
		{"Empty", func(path string) {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}, store.ErrNotBank},
		{"EmptySQLite", func(path string) {
			rawSQL(t, path, "PRAGMA page_size = 4096", "VACUUM")
		}, store.ErrNotBank},
		{"SQLiteWithOtherTables", func(path string) {
			rawSQL(t, path, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
		}, store.ErrNotBank},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".db")
			tt.setup(path)
			before, _ := os.ReadFile(path)
			db, err := store.Open(ctx, path, opt)
			if !errors.Is(err, tt.want) {
				if err == nil {
					db.Close()
				}
				t.Fatalf("Open error = %v, want %v", err, tt.want)
			}
			// Named once: not "open bank x.db: open x.db: no such file".
			if n := strings.Count(err.Error(), path); n != 1 {
				t.Errorf("Open error %q names the bank %d times, want once", err, n)
			}
			after, err := os.ReadFile(path)
			if tt.want == fs.ErrNotExist {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("Open made %s", path)
				}
				return
			}
			if string(after) != string(before) {
				t.Errorf("refused file was changed")
			}
		})
	}
	t.Run("Bank", func(t *testing.T) {
		path := filepath.Join(dir, "bank.db")
		MustWrite(t, MustOpen(t, path), []store.NewFamily{fam(1, 2, 30, 2)})
		db, err := store.Open(ctx, path, opt)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if n, err := db.Count(ctx, store.Filter{}); err != nil || n != 2 {
			t.Errorf("Count = %d, %v; want 2", n, err)
		}
	})
}
