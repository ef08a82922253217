package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/internal/banktest"
	"sudokubank/store"
)

// TestCheckSizedSolution changes, in a 6x6 variant's stored solution, a
// cell the puzzle leaves empty to another digit: the grid stays complete
// but no longer is a solution. Check and a merge's row check find it.
func TestCheckSizedSolution(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	shard := filepath.Join(dir, "shard.db")
	db, err := store.Open(ctx, shard, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var batch []store.NewFamily
	for k := range 4 {
		batch = append(batch, sizedFamily(t, 6, k, 2))
	}
	MustWrite(t, db, batch)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", shard)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	var puzzle, sol []byte
	err = raw.QueryRow("SELECT id, puzzle, solution FROM puzzles WHERE size = 6 ORDER BY id LIMIT 1 OFFSET 1").Scan(&id, &puzzle, &sol)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(sol)
	for i, b := range puzzle {
		if b>>4 == 0 {
			bad[i] = (sol[i]>>4%6+1)<<4 | sol[i]&0x0f // the first empty cell's digit, the next one
			break
		}
	}
	banktest.ReplaceBytes(t, shard, sol, bad)
	want := fmt.Sprintf("puzzle %d: ", id)

	rep, err := MustOpen(t, shard).Check(ctx, false)
	if err != nil || !strings.Contains(fmt.Sprint(rep), want) {
		t.Errorf("Check: %v, %+v; want %q", err, rep, want)
	}
	out := MustOpen(t, filepath.Join(dir, "out.db"))
	_, err = out.Merge(ctx, shard, store.MergeOptions{})
	if !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), want) {
		t.Errorf("Merge of the damaged shard: %v, want ErrDamaged and %q", err, want)
	}
}
