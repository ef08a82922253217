// Package banktest holds test helpers that work on bank files from
// outside the store, as damage from a crash or a disk would.
package banktest

import (
	"database/sql"
	"os"
	"strings"
	"testing"

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
