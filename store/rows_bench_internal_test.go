package store

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"sudokubank/internal/cputime"
)

// BenchmarkInsertPuzzleRows measures what one puzzle row costs to pass
// into SQLite and insert, with the table's secondary indexes deferred (a
// bulk writer's case): each op inserts a batch of rows and rolls it back,
// so the table stays empty and the figure is the value passing and the
// row's insert, not an index's growth. It runs as WriteBatch does, on a
// connection without foreign key or CHECK constraint checks
// (openUnchecked), so the figure holds no work the writer does not pay.
// The rows carry their values boxed (vals), as prepare leaves every row
// WriteBatch writes; the case keeps its name, Prepared, so that its
// figures compare with those of versions that also had rows the writer
// boxed itself (Plain).
func BenchmarkInsertPuzzleRows(b *testing.B) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(b.TempDir(), "bank.db"), Options{DeferIndexes: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	fam := NewFamily{Family: Family{Canon: benchGrid(0), Level: 3, Givens: 25, ER: 45, Source: "gen"}}
	if _, err := db.WriteBatch(ctx, []NewFamily{fam}); err != nil {
		b.Fatal(err)
	}
	const n = 10000
	puzzles := make([]Puzzle, n)
	rows := make([]pending, n)
	vals := make([][5]any, n)
	for i := range rows {
		s := benchGrid(i + 1)
		puzzles[i] = Puzzle{Puzzle: s, Solution: s, Transform: "r" + strconv.Itoa(i%1000) + "d123456789"}
		p, _ := packGrid(s)
		vals[i] = [5]any{p, p, puzzles[i].Transform, int64(i + 1), nil}
		rows[i] = pending{p: &puzzles[i], puzzle: p, vals: &vals[i], key: int64(i + 1), fam: 1, level: 3, givens: 25, er: 45}
	}
	b.Run("Prepared", func(b *testing.B) {
		conn, err := openUnchecked(ctx, db.db, skipChecks)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.release()
		b.ResetTimer()
		cpu0 := cputime.Process()
		for range b.N {
			tx, err := conn.BeginTxx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := withRows(ctx, tx); err != nil {
				b.Fatal(err)
			}
			if err := insertPuzzles(ctx, tx, rows); err != nil {
				b.Fatal(err)
			}
			if err := tx.Rollback(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N*n), "cpu-ns/row")
	})
}

// benchGrid is a grid string that differs from others by the digits of i.
func benchGrid(i int) string {
	g := []byte("123456789" + "........." + "........." + "........." + "........." + "........." + "........." + "........." + ".........")
	for j, s := 0, strconv.Itoa(i); j < len(s); j++ {
		g[20+j*2] = s[j]
		if s[j] == '0' {
			g[20+j*2] = '.'
		}
	}
	return string(g)
}
