// Package banktest holds test helpers that work on bank files from
// outside the store, as damage from a crash or a disk would.
package banktest

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/store"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// DamagePage overwrites the second half of the first page of the puzzles
// table in the closed bank at path, a page a write that adds families
// would not touch.
func DamagePage(tb testing.TB, path string) {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	var root, size int64
	if err := db.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = 'puzzles'").Scan(&root); err != nil {
		tb.Fatal(err)
	}
	if err := db.QueryRow("PRAGMA page_size").Scan(&size); err != nil {
		tb.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte(strings.Repeat("\xab", int(size/2))), (root-1)*size+size/2); err != nil {
		tb.Fatal(err)
	}
}

// MustExec runs the SQL q on the bank at path around the store, as a
// damaged disk or a hostile hand would change it.
func MustExec(tb testing.TB, path, q string) {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		tb.Fatal(err)
	}
}

// MustFamilies reads the families of the JSON lines file at path, one
// store.NewFamily a line as bankquery's fixture holds them: the first n,
// or all for n 0.
func MustFamilies(tb testing.TB, path string, n int) []store.NewFamily {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var fams []store.NewFamily
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() && (n == 0 || len(fams) < n) {
		var nf store.NewFamily
		if err := json.Unmarshal(sc.Bytes(), &nf); err != nil {
			tb.Fatal(err)
		}
		fams = append(fams, nf)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return fams
}

// MustBank writes fams into a new bank in a temporary directory and
// returns its path, closed.
func MustBank(tb testing.TB, fams []store.NewFamily) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "puzzles.db")
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := db.WriteBatch(context.Background(), fams); err != nil {
		tb.Fatal(err)
	}
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}
