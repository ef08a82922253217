package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"sudokubank/gen"
	"sudokubank/internal/cputime"
	"sudokubank/solve"
	"sudokubank/store"
)

// variantShard writes a shard bank of about rows puzzle rows, k a
// family, as bankgen writes them: each family's variants are transforms
// of its form, stored as the transform's code (migrations/0010).
func variantShard(b *testing.B, path string, rows, k int) {
	ctx := context.Background()
	// A complete grid, and a puzzle of it with 27 givens.
	var sol, puz [81]byte
	for r := range 9 {
		for c := range 9 {
			sol[r*9+c] = byte('1' + (r*3+r/3+c)%9)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	puz = sol
	for _, i := range rng.Perm(81)[:54] {
		puz[i] = '.'
	}
	base, baseSol := solve.GridOf(string(puz[:])), solve.GridOf(string(sol[:]))
	db, err := store.Open(ctx, path, store.BulkOptions(path))
	if err != nil {
		b.Fatal(err)
	}
	for written := 0; written < rows; {
		var batch []store.NewFamily
		for range max(1, 50000/k) {
			t := gen.RandomTransform(rng)
			canon, csol := t.Apply(base), t.Apply(baseSol)
			f := store.NewFamily{Family: store.Family{Canon: canon.String(), ER: 23, EP: 12, ED: 12, Level: 1 + rng.IntN(5),
				Score: 1, Givens: 27, MinRowCol: 1, Hardest: "hidden-single", Path: ",hidden-single,naked-single,aab",
				Symmetry: "none", Source: "gen", Seed: rng.Uint64()}}
			for range k {
				u := gen.RandomTransform(rng)
				f.Puzzles = append(f.Puzzles, store.Puzzle{Puzzle: u.Apply(canon).String(), Solution: u.Apply(csol).String(), Transform: u.String()})
			}
			batch = append(batch, f)
		}
		res, err := db.WriteBatch(ctx, batch)
		if err != nil {
			b.Fatal(err)
		}
		written += res.Puzzles
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkMerge merges a shard of -rows puzzle rows (bankgen's kind,
// variants stored as codes) into a fresh bank opened as bankgen merge
// opens it, and reports puzzles merged a second, the shard's check and
// the bank's index builds at its close included; the shard is built
// first, untimed.
func BenchmarkMerge(b *testing.B) {
	for _, k := range []int{1, 50} {
		b.Run(fmt.Sprintf("Variants%d", k-1), func(b *testing.B) {
			dir := b.TempDir()
			shard := filepath.Join(dir, "shard.db")
			variantShard(b, shard, benchRows(b), k)
			var puzzles int64
			var took, cpu time.Duration
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				out := filepath.Join(dir, fmt.Sprintf("out%d.db", i))
				opts := store.BulkOptions(out)
				db, err := store.Open(context.Background(), out, opts)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start, cpu0 := time.Now(), cputime.Process()
				res, err := db.Merge(context.Background(), shard, store.MergeOptions{})
				if err != nil {
					b.Fatal(err)
				}
				puzzles += res.Puzzles
				// A fresh bank's secondary indexes are built at its
				// close: part of the merge's work.
				if err := db.Close(); err != nil {
					b.Fatal(err)
				}
				took += time.Since(start)
				cpu += cputime.Process() - cpu0
				b.StopTimer()
			}
			b.ReportMetric(float64(puzzles)/took.Seconds(), "puzzles/s")
			// On a machine other work shares, the CPU the merge took
			// says more than the wall clock.
			b.ReportMetric(float64(puzzles)/cpu.Seconds(), "puzzles/cpu-s")
		})
	}
}
