package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokubank/store"
)

// MustOpen opens (creating) a writer bank at path and closes it at the
// end of the test, after checking its integrity.
func MustOpen(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		tb.Fatalf("Open(%s): %v", path, err)
	}
	tb.Cleanup(func() {
		if err := db.IntegrityCheck(context.Background()); err != nil {
			tb.Errorf("%v", err)
		}
		if err := db.Close(); err != nil {
			tb.Errorf("%v", err)
		}
	})
	return db
}

// MustOpenTemp opens a fresh bank in the test's temporary directory.
func MustOpenTemp(tb testing.TB) (*store.DB, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "bank.db")
	return MustOpen(tb, path), path
}

// MustWrite writes a batch and fails the test on error.
func MustWrite(tb testing.TB, db *store.DB, batch []store.NewFamily) store.WriteResult {
	tb.Helper()
	res, err := db.WriteBatch(context.Background(), batch)
	if err != nil {
		tb.Fatalf("WriteBatch: %v", err)
	}
	return res
}

// mustLevelsBank returns a fresh bank of n families of 25 givens and two
// puzzles each, their levels going round 1 to levels.
func mustLevelsBank(tb testing.TB, n, levels int) *store.DB {
	tb.Helper()
	db, _ := MustOpenTemp(tb)
	var batch []store.NewFamily
	for i := range n {
		batch = append(batch, fam(i, 1+i%levels, 25, 2))
	}
	MustWrite(tb, db, batch)
	return db
}

// grid returns a distinct grid string for (tag, n): each byte of tag as
// three base-9 digits, then n as 20, each digit plus one, padded with '.'.
// Tags have at most 9 bytes.
func grid(tag string, n int) string {
	var b strings.Builder
	for _, c := range []byte(tag) {
		b.WriteByte('1' + c/81%9)
		b.WriteByte('1' + c/9%9)
		b.WriteByte('1' + c%9)
	}
	for _, d := range fmt.Sprintf("%020s", strconv.FormatUint(uint64(n), 9)) {
		b.WriteByte(byte(max(d, '0')) + 1)
	}
	return b.String() + strings.Repeat(".", 81-b.Len())
}

// solution is a placeholder 81-character solution.
var solution = strings.Repeat("123456789", 9)

// fam builds family n with the given level and givens and k variants.
func fam(n, level, givens, k int) store.NewFamily {
	f := store.NewFamily{Family: store.Family{
		Canon: grid("c", n), ER: 10 + 10*level, EP: 12, ED: 11, Level: level,
		Score: float64(n), Givens: givens, MinRowCol: 1, Hardest: "naked-single",
		Techniques: map[string]int{"naked-single": 3, "hidden-single": 2},
		Symmetry:   "none", Source: "gen", Seed: uint64(n),
	}}
	for j := 0; j < k; j++ {
		f.Puzzles = append(f.Puzzles, store.Puzzle{Puzzle: grid(fmt.Sprintf("p%d-", j), n), Solution: solution, Transform: fmt.Sprintf("t%d", j)})
	}
	return f
}

// puzzleStrings collects the puzzle strings a query returns.
func puzzleStrings(tb testing.TB, db *store.DB, f store.Filter, o store.QueryOptions) []string {
	tb.Helper()
	var out []string
	err := db.Query(context.Background(), f, o, func(r store.Row) error {
		out = append(out, r.Puzzle)
		return nil
	})
	if err != nil {
		tb.Fatalf("Query(%+v, %+v): %v", f, o, err)
	}
	return out
}
