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
func variantShard(b *testing.B, path string, rows, k int, seed uint64) {
	ctx := context.Background()
	vf := newVariantFamilies(seed)
	db, err := store.Open(ctx, path, store.BulkOptions(path))
	if err != nil {
		b.Fatal(err)
	}
	for written := 0; written < rows; {
		res, err := db.WriteBatch(ctx, vf.batch(max(1, 50000/k), k))
		if err != nil {
			b.Fatal(err)
		}
		written += res.Puzzles
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
}

// variantFamilies makes families as bankgen makes them: random
// transforms of one puzzle (a different canonical form each, as far as
// the store can tell), with variants that are transforms of the form.
type variantFamilies struct {
	rng           *rand.Rand
	base, baseSol solve.Grid
}

func newVariantFamilies(seed uint64) *variantFamilies {
	// A complete grid, and a puzzle of it with 27 givens.
	var sol, puz [81]byte
	for r := range 9 {
		for c := range 9 {
			sol[r*9+c] = byte('1' + (r*3+r/3+c)%9)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	puz = sol
	for _, i := range rng.Perm(81)[:54] {
		puz[i] = '.'
	}
	return &variantFamilies{rng: rng, base: solve.GridOf(string(puz[:])), baseSol: solve.GridOf(string(sol[:]))}
}

// batch returns n families of k puzzles each.
func (v *variantFamilies) batch(n, k int) []store.NewFamily {
	batch := make([]store.NewFamily, 0, n)
	for range n {
		t := gen.RandomTransform(v.rng)
		canon, csol := t.Apply(v.base), t.Apply(v.baseSol)
		f := store.NewFamily{Family: store.Family{Canon: canon.String(), ER: 23, EP: 12, ED: 12, Level: 1 + v.rng.IntN(5),
			Score: 1, Givens: 27, MinRowCol: 1, Hardest: "hidden-single", Path: ",hidden-single,naked-single,aab",
			Symmetry: "none", Source: "gen", Seed: v.rng.Uint64()}}
		for range k {
			u := gen.RandomTransform(v.rng)
			f.Puzzles = append(f.Puzzles, store.Puzzle{Puzzle: u.Apply(canon).String(), Solution: u.Apply(csol).String(), Transform: u.String()})
		}
		batch = append(batch, f)
	}
	return batch
}

// BenchmarkMerge merges shards of -rows puzzle rows in all (bankgen's
// kind, variants stored as codes) into a new bank as bankgen merge does,
// and reports puzzles merged a second; the shards' checks and the bank's
// index builds at its close are included, the shards are built first,
// untimed. The first shard makes the bank (MergeNew); of four, three go
// into a bank that holds rows already.
func BenchmarkMerge(b *testing.B) {
	for _, c := range []struct{ k, shards int }{{1, 1}, {50, 1}, {50, 4}} {
		name := fmt.Sprintf("Variants%d", c.k-1)
		if c.shards > 1 {
			name += fmt.Sprintf("/Shards%d", c.shards)
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			var shards []string
			for i := range c.shards {
				shard := filepath.Join(dir, fmt.Sprintf("shard%d.db", i))
				variantShard(b, shard, benchRows(b)/c.shards, c.k, uint64(i)+1)
				shards = append(shards, shard)
			}
			var puzzles int64
			var took, cpu time.Duration
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				out := filepath.Join(dir, fmt.Sprintf("out%d.db", i))
				b.StartTimer()
				start, cpu0 := time.Now(), cputime.Process()
				ctx := context.Background()
				// Checked while its pages are copied, as bankgen merge
				// checks a shard it makes a bank of.
				s, err := store.PrepareShard(ctx, shards[0], false)
				if err != nil {
					b.Fatal(err)
				}
				opts := store.BulkOptions(out)
				opts.DeferIndexes = len(shards) > 1
				db, res, err := store.MergeNew(ctx, out, s, opts, store.MergeOptions{})
				if err != nil {
					b.Fatal(err)
				}
				puzzles += res.Puzzles
				for _, shard := range shards[1:] {
					res, err := db.Merge(ctx, shard, store.MergeOptions{})
					if err != nil {
						b.Fatal(err)
					}
					puzzles += res.Puzzles
				}
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

// BenchmarkWriteVariants is the writer's side of bankgen -variants 49:
// batches of about 50,000 puzzle rows of families prepared beforehand
// (store.Prepare, which bankgen's workers call), written into a fresh
// bank opened as bankgen opens one, until -rows rows; its close, which
// builds the deferred indexes, included. puzzles/cpu-s is the writer's
// rate on one core, the bound it puts on a run whose workers keep up;
// batch-puzzles/cpu-s leaves out the close, which runs once, at the end.
func BenchmarkWriteVariants(b *testing.B) {
	for _, k := range []int{1, 50} {
		b.Run(fmt.Sprintf("Variants%d", k-1), func(b *testing.B) {
			ctx := context.Background()
			rows := benchRows(b)
			var puzzles int64
			var cpu, batchCPU time.Duration
			for i := range b.N {
				vf := newVariantFamilies(uint64(i) + 1)
				path := filepath.Join(b.TempDir(), "bank.db")
				db, err := store.Open(ctx, path, store.BulkOptions(path))
				if err != nil {
					b.Fatal(err)
				}
				for written := 0; written < rows; {
					b.StopTimer()
					batch := vf.batch(max(1, 50000/k), k)
					for j := range batch {
						if err := store.Prepare(&batch[j]); err != nil {
							b.Fatal(err)
						}
					}
					b.StartTimer()
					cpu0 := cputime.Process()
					res, err := db.WriteBatch(ctx, batch)
					if err != nil {
						b.Fatal(err)
					}
					batchCPU += cputime.Process() - cpu0
					written += res.Puzzles
					puzzles += int64(res.Puzzles)
				}
				cpu0 := cputime.Process()
				if err := db.Close(); err != nil {
					b.Fatal(err)
				}
				cpu += cputime.Process() - cpu0
			}
			b.ReportMetric(float64(puzzles)/(batchCPU+cpu).Seconds(), "puzzles/cpu-s")
			// The batches alone, without the close's index builds: what
			// the writer costs while the workers run.
			b.ReportMetric(float64(puzzles)/batchCPU.Seconds(), "batch-puzzles/cpu-s")
		})
	}
}

// BenchmarkCheckShard checks a shard of -rows puzzle rows as bankgen
// merge checks one (CheckShard: its quick check, then its rows), and
// with the rows left unchecked, and reports the CPU each takes a puzzle;
// the shard is built first, untimed.
func BenchmarkCheckShard(b *testing.B) {
	for _, k := range []int{1, 50} {
		b.Run(fmt.Sprintf("Variants%d", k-1), func(b *testing.B) {
			shard := filepath.Join(b.TempDir(), "shard.db")
			rows := benchRows(b)
			variantShard(b, shard, rows, k, 1)
			for _, c := range []struct {
				name string
				rows bool
			}{{"Pages", false}, {"PagesAndRows", true}} {
				b.Run(c.name, func(b *testing.B) {
					if !c.rows {
						store.PlaceholderGrids(b)
					}
					var cpu time.Duration
					for range b.N {
						cpu0 := cputime.Process()
						if _, err := store.CheckShard(context.Background(), shard, false); err != nil {
							b.Fatal(err)
						}
						cpu += cputime.Process() - cpu0
					}
					b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/float64(rows), "µs-cpu/puzzle")
				})
			}
		})
	}
}
