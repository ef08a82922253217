// Package banktest holds test helpers that work on bank files from
// outside the store, as damage from a crash or a disk would.
package banktest

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
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
	db := open(tb, path)
	root, size := rootPage(tb, db, "puzzles")
	db.Close()
	writeAt(tb, path, []byte(strings.Repeat("\xab", int(size/2))), (root-1)*size+size/2)
}

// open opens the bank at path around the store.
func open(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	return db
}

// rootPage returns the number of table's root page in db and the size of
// its pages.
func rootPage(tb testing.TB, db *sql.DB, table string) (root, size int64) {
	tb.Helper()
	if err := db.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", table).Scan(&root); err != nil {
		tb.Fatal(err)
	}
	if err := db.QueryRow("PRAGMA page_size").Scan(&size); err != nil {
		tb.Fatal(err)
	}
	return root, size
}

// writeAt writes b at offset off of the closed file at path, in place.
func writeAt(tb testing.TB, path string, b []byte, off int64) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		tb.Fatal(err)
	}
}

// MustExec runs the SQL q on the bank at path around the store, as a
// damaged disk or a hostile hand would change it.
func MustExec(tb testing.TB, path, q string) {
	tb.Helper()
	db := open(tb, path)
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

// RetypeColumn overwrites one byte of the closed bank at path: the type
// of column in the record of the first row of table, an integer made
// text of the same bytes, as a flipped bit on a disk would. The record
// keeps its length, so SQLite's checks of pages and constraints pass,
// but the value no longer reads as an integer. The table must fit its
// root page, as a small table (runs) does.
func RetypeColumn(tb testing.TB, path, table, column string) {
	tb.Helper()
	db := open(tb, path)
	root, size := rootPage(tb, db, table)
	col := -1
	rows, err := db.Query("SELECT cid, name FROM pragma_table_info(?)", table)
	if err != nil {
		tb.Fatal(err)
	}
	for rows.Next() {
		var cid int
		var name string
		if err := rows.Scan(&cid, &name); err != nil {
			tb.Fatal(err)
		}
		if name == column {
			col = cid
		}
	}
	rows.Close()
	db.Close()
	if col < 0 {
		tb.Fatalf("table %s has no column %s", table, column)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	page := b[(root-1)*size : root*size]
	hdr := page
	if root == 1 {
		hdr = page[100:] // the file's header comes first on page 1
	}
	if hdr[0] != 0x0d {
		tb.Fatalf("table %s: root page %d is not a leaf (type %#x)", table, root, hdr[0])
	}
	// The first cell: payload length, rowid, then the record's header:
	// its length and a serial type per column (varints).
	// Its offset, from the page's start, is the first cell pointer.
	p := int(hdr[8])<<8 | int(hdr[9])
	_, p = varint(page, p)
	_, p = varint(page, p)
	hlen, q := varint(page, p)
	end := p + int(hlen)
	for i := 0; q < end; i++ {
		t, next := varint(page, q)
		if i == col {
			// Serial types 1-6 are integers of 1, 2, 3, 4, 6 and 8 bytes;
			// 13+2n is a text of n bytes.
			n := map[uint64]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}[t]
			if n == 0 || next != q+1 {
				tb.Fatalf("table %s: column %s of the first row has serial type %d, not an integer", table, column, t)
			}
			writeAt(tb, path, []byte{byte(13 + 2*n)}, (root-1)*size+int64(q))
			return
		}
		q = next
	}
	tb.Fatalf("table %s: the first row's record has no column %d", table, col)
}

// varint reads SQLite's big-endian varint at b[p:] and returns it with
// the offset after it.
func varint(b []byte, p int) (uint64, int) {
	var v uint64
	for i := range 8 {
		c := b[p+i]
		v = v<<7 | uint64(c&0x7f)
		if c < 0x80 {
			return v, p + i + 1
		}
	}
	return v<<8 | uint64(b[p+8]), p + 9
}

// ReplaceBytes overwrites, in the closed bank at path, the one place
// that holds old with new, of the same length, as a damaged disk would:
// SQLite's checks of pages and constraints do not look inside a value.
func ReplaceBytes(tb testing.TB, path string, old, new []byte) {
	tb.Helper()
	if len(old) != len(new) {
		tb.Fatalf("ReplaceBytes: %d bytes to replace with %d", len(old), len(new))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	i := bytes.Index(b, old)
	if i < 0 || bytes.Count(b, old) != 1 {
		tb.Fatalf("%s holds %x %d times, want once", path, old, bytes.Count(b, old))
	}
	writeAt(tb, path, new, int64(i))
}

// DropLastCell lowers by one the count of cells of a leaf page of table
// in the closed bank at path (its root, or the root's first child), as a
// damaged disk might: the row of the last cell is no longer reached, and
// a scan of the table ends short with no error.
func DropLastCell(tb testing.TB, path, table string) {
	tb.Helper()
	db := open(tb, path)
	root, size := rootPage(tb, db, table)
	db.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	// hdr is the offset of page n's b-tree header: page 1 starts with
	// the file's header.
	hdr := func(n int64) int64 {
		if n == 1 {
			return 100
		}
		return (n - 1) * size
	}
	page := root
	if h := hdr(root); b[h] == 0x05 {
		// An interior page: its first cell starts with its left child.
		cell := (root-1)*size + int64(binary.BigEndian.Uint16(b[h+12:]))
		page = int64(binary.BigEndian.Uint32(b[cell:]))
	}
	h := hdr(page)
	if b[h] != 0x0d {
		tb.Fatalf("table %s: page %d is not a leaf (type %#x)", table, page, b[h])
	}
	n := binary.BigEndian.Uint16(b[h+3:])
	if n < 2 {
		tb.Fatalf("table %s: leaf page %d holds %d cells", table, page, n)
	}
	writeAt(tb, path, binary.BigEndian.AppendUint16(nil, n-1), h+3)
}
