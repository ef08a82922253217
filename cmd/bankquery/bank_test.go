package main_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"sudokubank/gen"
	"sudokubank/store"
)

// TestWriteFixtureBank writes the fixture bank to $BANKQUERY_FIXTURE_BANK
// for trying the command by hand; it is skipped otherwise.
func TestWriteFixtureBank(t *testing.T) {
	path := os.Getenv("BANKQUERY_FIXTURE_BANK")
	if path == "" {
		t.Skip("set BANKQUERY_FIXTURE_BANK to a file name to write the fixture bank there")
	}
	MustWriteBank(t, path, MustReadFixture(t))
}

// TestWriteBigBank builds the bank the speed figures are measured on:
// $BANKQUERY_BIG_ROWS puzzles (default 5,000,000) in $BANKQUERY_BIG_BANK,
// four variants a family. Each family is a random transform of a fixture
// family, with its grade, and each variant a further transform, so every
// row is a valid puzzle with its true solution and grade and every
// format can export it. The "canonical form" of a synthetic family is
// only a unique string, not the real minlex form. Skipped unless
// $BANKQUERY_BIG_BANK is set; it takes minutes.
func TestWriteBigBank(t *testing.T) {
	path := os.Getenv("BANKQUERY_BIG_BANK")
	if path == "" {
		t.Skip("set BANKQUERY_BIG_BANK to a file name to build a large bank there")
	}
	rows := 5_000_000
	if s := os.Getenv("BANKQUERY_BIG_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("BANKQUERY_BIG_ROWS: %v", err)
		}
		rows = n
	}
	ctx := context.Background()
	base := MustReadFixture(t)
	db, err := store.Open(ctx, path, store.Options{CacheSizeKB: 512 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(5, 2026))
	const variants, perBatch = 4, 5000
	start := time.Now()
	var total store.WriteResult
	for total.Puzzles < rows {
		batch := make([]store.NewFamily, perBatch)
		for i := range batch {
			b := base[rng.IntN(len(base))]
			p0, s0 := mustGrid(t, b.Puzzles[0].Puzzle), mustGrid(t, b.Puzzles[0].Solution)
			ft := gen.RandomTransform(rng)
			f := b
			f.Canon = ft.Apply(p0).String()
			f.Source = "synthetic"
			f.Puzzles = make([]store.Puzzle, variants)
			for v := range f.Puzzles {
				vt := ft
				if v > 0 {
					vt = ft.Then(gen.RandomTransform(rng))
				}
				f.Puzzles[v] = store.Puzzle{Puzzle: vt.Apply(p0).String(), Solution: vt.Apply(s0).String(), Transform: vt.String()}
			}
			batch[i] = f
		}
		res, err := db.WriteBatch(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		total.Add(res)
		if total.Puzzles%500_000 < variants*perBatch {
			t.Logf("%d puzzles, %d families in %s", total.Puzzles, total.Families, time.Since(start).Round(time.Second))
		}
	}
	t.Logf("done: %+v in %s", total, time.Since(start).Round(time.Second))
}
