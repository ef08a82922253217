package store_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubank/internal/cputime"
	"sudokubank/store"
)

// The benchmarks build multi-million-row banks; they run only under
// go test -bench, so the normal test suite stays fast. Environment:
//
//	SUDOKUBANK_BENCH_ROWS  puzzle rows per insert run and in the query bank (default 1000000;
//	                       the -rows flag overrides it: go test ./store -bench Insert -args -rows 5000000)
//	SUDOKUBANK_BENCH_DIR   keep the query bank here and reuse it across runs (default: a temp dir)
//	SUDOKUBANK_BENCH_CACHE_MB  writer page cache for the insert runs (default 256)
//	SUDOKUBANK_BENCH_DEFER     1: insert runs defer the secondary indexes
//	SUDOKUBANK_BENCH_BATCH     puzzle rows per batch in the insert runs (default 50000,
//	                           the pipeline's default batch)
//	SUDOKUBANK_BENCH_PREPARE   1: the insert runs' families are prepared (store.Prepare)
//	                           before their batch is timed, as bankgen's workers do

var rowsFlag = flag.Int("rows", 0, "puzzle rows per insert run and in the query bank (0: SUDOKUBANK_BENCH_ROWS or 1000000)")

func benchRows(b *testing.B) int {
	if *rowsFlag > 0 {
		return *rowsFlag
	}
	if s := os.Getenv("SUDOKUBANK_BENCH_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("SUDOKUBANK_BENCH_ROWS: %v", err)
		}
		return n
	}
	return 1_000_000
}

// benchOptions reads the writer options of the insert runs from
// SUDOKUBANK_BENCH_CACHE_MB and SUDOKUBANK_BENCH_DEFER (1:
// Options.DeferIndexes), so that two settings give benchmarks of the same
// name for benchstat.
func benchOptions(b *testing.B) store.Options {
	o := store.Options{CacheSizeKB: benchCacheKB(b), DeferIndexes: os.Getenv("SUDOKUBANK_BENCH_DEFER") == "1"}
	return o
}

func benchCacheKB(b *testing.B) int {
	if s := os.Getenv("SUDOKUBANK_BENCH_CACHE_MB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("SUDOKUBANK_BENCH_CACHE_MB: %v", err)
		}
		return n << 10
	}
	return 256 << 10
}

// synth makes synthetic families: random strings with a plausible number
// of givens (22..32), uniform levels, k variants each.
type synth struct {
	rng *rand.Rand
	n   int
}

func (s *synth) grid(givens int) string {
	var g [81]byte
	for i := range g {
		g[i] = '.'
	}
	for placed := 0; placed < givens; {
		i := s.rng.IntN(81)
		if g[i] == '.' {
			g[i] = byte('1' + s.rng.IntN(9))
			placed++
		}
	}
	return string(g[:])
}

func (s *synth) solution() string {
	var g [81]byte
	for i := range g {
		g[i] = byte('1' + s.rng.IntN(9))
	}
	return string(g[:])
}

func (s *synth) family(k int) store.NewFamily {
	s.n++
	givens := 22 + s.rng.IntN(6) + s.rng.IntN(6)
	level := 1 + s.rng.IntN(5)
	f := store.NewFamily{Family: store.Family{
		Canon: s.grid(givens), ER: 10 + level*12, EP: 10, ED: 10, Level: level,
		Score: s.rng.Float64() * 100, Givens: givens, MinRowCol: 1, Hardest: "hidden-single",
		Techniques: map[string]int{"hidden-single": 5, "naked-single": 30},
		Symmetry:   "none", Source: "gen", Seed: s.rng.Uint64(), Path: "",
	}}
	sol := s.solution()
	for range k {
		f.Puzzles = append(f.Puzzles, store.Puzzle{Puzzle: s.grid(givens), Solution: sol, Transform: "r3c1d123456789"})
	}
	return f
}

// fillBank writes rows puzzle rows in batches of about batchRows, k
// variants per family, and returns the time spent in WriteBatch in total,
// the rows written and the time spent by the batches that started in the
// last fifth of the rows, and the process CPU time spent in WriteBatch.
func fillBank(b *testing.B, db *store.DB, rows, k, batchRows int, seed uint64) (total time.Duration, lastRows int, last, cpuTotal time.Duration) {
	ctx := context.Background()
	s := &synth{rng: rand.New(rand.NewPCG(seed, 1))}
	perBatch := max(1, batchRows/k)
	prepare := os.Getenv("SUDOKUBANK_BENCH_PREPARE") == "1"
	written := 0
	for written < rows {
		batch := make([]store.NewFamily, 0, perBatch)
		for range perBatch {
			batch = append(batch, s.family(k))
			if prepare {
				if err := store.Prepare(&batch[len(batch)-1]); err != nil {
					b.Fatal(err)
				}
			}
		}
		start := time.Now()
		cpu0 := cputime.Process()
		res, err := db.WriteBatch(ctx, batch)
		d := time.Since(start)
		cpuTotal += cputime.Process() - cpu0
		if err != nil {
			b.Fatal(err)
		}
		total += d
		if written >= rows*4/5 {
			last += d
			lastRows += res.Puzzles
		}
		written += res.Puzzles
	}
	return total, lastRows, last, cpuTotal
}

func fileSize(b *testing.B, path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}

// BenchmarkInsert measures sustained batched inserts into a fresh bank,
// as puzzle rows per second over the whole run and over its last fifth.
// Run with -benchtime=1x: one iteration builds one whole bank.
func BenchmarkInsert(b *testing.B) {
	rows := benchRows(b)
	cases := []struct{ k, batchRows int }{
		{1, 50000},
		{10, 50000},
		{50, 50000},
		{100, 50000}, // bankgen -variants 100
	}
	if s := os.Getenv("SUDOKUBANK_BENCH_BATCH"); s != "" {
		for i := range cases {
			cases[i].batchRows, _ = strconv.Atoi(s)
		}
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("K=%d/batch=%d", c.k, c.batchRows), func(b *testing.B) {
			for range b.N {
				path := filepath.Join(b.TempDir(), "bench.db")
				opt := benchOptions(b)
				db, err := store.Open(context.Background(), path, opt)
				if err != nil {
					b.Fatal(err)
				}
				if drop := os.Getenv("SUDOKUBANK_BENCH_DROP"); drop != "" {
					dropIndexes(b, path, drop)
				}
				total, lastRows, last, cpu := fillBank(b, db, rows, c.k, c.batchRows, 1)
				// Close checkpoints and, with deferred indexes, builds
				// them: part of the cost of the load.
				start, cpu0 := time.Now(), cputime.Process()
				if err := db.Close(); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
				cpu += cputime.Process() - cpu0
				b.ReportMetric(float64(rows)/total.Seconds(), "puzzles/s")
				if lastRows > 0 {
					b.ReportMetric(float64(lastRows)/last.Seconds(), "last20%-puzzles/s")
				}
				b.ReportMetric(float64(rows)/cpu.Seconds(), "puzzles/cpu-s")
				b.ReportMetric(float64(fileSize(b, path))/float64(rows), "bytes/puzzle")
			}
		})
	}
}

// BenchmarkInsertFamilies measures batched inserts of families without
// variants (bankgen -variants 0), as families per second, into a fresh
// bank with the writer options of the insert runs. Run with -benchtime=1x.
func BenchmarkInsertFamilies(b *testing.B) {
	n := benchRows(b) / 10
	ctx := context.Background()
	for range b.N {
		path := filepath.Join(b.TempDir(), "bench.db")
		db, err := store.Open(ctx, path, benchOptions(b))
		if err != nil {
			b.Fatal(err)
		}
		s := &synth{rng: rand.New(rand.NewPCG(3, 1))}
		var total, cpu time.Duration
		for written := 0; written < n; {
			batch := make([]store.NewFamily, 1000)
			for i := range batch {
				batch[i] = s.family(0)
			}
			start, cpu0 := time.Now(), cputime.Process()
			res, err := db.WriteBatch(ctx, batch)
			total += time.Since(start)
			cpu += cputime.Process() - cpu0
			if err != nil {
				b.Fatal(err)
			}
			written += res.Families
		}
		start, cpu0 := time.Now(), cputime.Process()
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		cpu += cputime.Process() - cpu0
		b.ReportMetric(float64(n)/total.Seconds(), "families/s")
		b.ReportMetric(float64(n)/cpu.Seconds(), "families/cpu-s")
	}
}

// queryBank opens (building it once if needed) a bank of benchRows rows,
// 10 variants per family, read-only.
func queryBank(b *testing.B) *store.DB {
	b.Helper()
	rows := benchRows(b)
	dir := os.Getenv("SUDOKUBANK_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("query-%d.db", rows))
	ctx := context.Background()
	if _, err := os.Stat(path); err != nil {
		db, err := store.Open(ctx, path+".tmp", store.Options{CacheSizeKB: benchCacheKB(b), DeferIndexes: true})
		if err != nil {
			b.Fatal(err)
		}
		total, _, last, cpu := fillBank(b, db, rows, 10, 50000, 7)
		start, cpu0 := time.Now(), cputime.Process()
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		closing, closeCPU := time.Since(start), cputime.Process()-cpu0
		b.Logf("built %s: %d rows, writes %v (last fifth %v), close %v; CPU %v + %v; %.0f puzzles/s, %.0f puzzles/cpu-s, %.1f bytes/puzzle",
			path, rows, total, last, closing, cpu, closeCPU,
			float64(rows)/(total+closing).Seconds(), float64(rows)/(cpu+closeCPU).Seconds(),
			float64(fileSize(b, path+".tmp"))/float64(rows))
		os.Remove(path + ".tmp-wal") // empty after the close's checkpoint
		os.Remove(path + ".tmp-shm")
		if err := os.Rename(path+".tmp", path); err != nil {
			b.Fatal(err)
		}
	}
	db, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkRandomSample50 draws 50 random puzzles of one level.
func BenchmarkRandomSample50(b *testing.B) {
	benchmarkSample50(b, func(level int) store.Filter {
		return store.Filter{Levels: []int{level}}
	}, store.QueryOptions{})
}

// BenchmarkRandomSample50OnePerFamilyFresh is the export's selection:
// one variant per family, families in no pack.
func BenchmarkRandomSample50OnePerFamilyFresh(b *testing.B) {
	benchmarkSample50(b, func(level int) store.Filter {
		return store.Filter{Levels: []int{level}, Fresh: true, NotForClient: "acme"}
	}, store.QueryOptions{OnePerFamily: true})
}

// benchmarkSample50 draws seeded random samples of 50 with the filter
// filterFor gives each level in turn and the options o, and reports the
// time per sample.
func benchmarkSample50(b *testing.B, filterFor func(level int) store.Filter, o store.QueryOptions) {
	db := queryBank(b)
	ctx := context.Background()
	o.Order, o.Limit = store.OrderRandom, 50
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := range b.N {
		n := 0
		o.Seed = uint64(i)
		err := db.Query(ctx, filterFor(1+i%5), o, func(store.Row) error {
			n++
			return nil
		})
		if err != nil || n != 50 {
			b.Fatalf("sample: %d rows, %v", n, err)
		}
	}
	reportMillis(b, cpu0, "sample")
}

// BenchmarkCountBucket counts one level x givens bucket.
func BenchmarkCountBucket(b *testing.B) { benchCountBucket(b, 0) }

// BenchmarkCountBucketRows counts the same buckets from the rows (an
// index range count), for comparison with the counters: a rating bound,
// which every synthetic row meets, keeps the counters out.
func BenchmarkCountBucketRows(b *testing.B) { benchCountBucket(b, 1) }

// benchCountBucket counts buckets of levels 1-5 and givens 24-31 with
// the filter's RatingMin set to ratingMin.
func benchCountBucket(b *testing.B, ratingMin int) {
	db := queryBank(b)
	ctx := context.Background()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := range b.N {
		g := 24 + i%8
		if _, err := db.Count(ctx, store.Filter{Levels: []int{1 + i%5}, GivensMin: g, GivensMax: g, RatingMin: ratingMin}); err != nil {
			b.Fatal(err)
		}
	}
	reportMillis(b, cpu0, "count")
}

// dropIndexes is an experiment hook: drop the named indexes (comma list).
func dropIndexes(b *testing.B, path, names string) {
	db := openRawRW(b, path)
	for _, n := range strings.Split(names, ",") {
		if _, err := db.Exec("DROP INDEX " + n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreatePack records packs of 10,000 puzzles for a client, as
// bankquery export does, from a bank of 100,000 families with one variant
// each, and reports the time per pack (selection included).
func BenchmarkCreatePack(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "bench.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	fillBank(b, db, 100_000, 1, 50_000, 11)
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := range b.N {
		spec := store.PackSpec{Name: fmt.Sprintf("p%d", i), Client: fmt.Sprintf("c%d", i)}
		_, rows, err := db.CreatePack(ctx, spec, store.Filter{Fresh: true}, store.QueryOptions{Order: store.OrderRandom, Seed: uint64(i)}, 10_000)
		if err != nil || len(rows) != 10_000 {
			b.Fatalf("pack %d: %d rows, %v", i, len(rows), err)
		}
	}
	reportMillis(b, cpu0, "pack")
}

// reportMillis reports the wall and CPU milliseconds of one operation,
// named per, with the process's CPU clock read at cpu0.
func reportMillis(b *testing.B, cpu0 time.Duration, per string) {
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/"+per)
	b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/"+per)
}

// BenchmarkImportVariants measures batches like an import's: each family
// of a batch is one the bank already stores, with one new variant, so
// that every puzzle counts under a family stored before its batch. The
// bank holds benchRows/10 families in the runs form; a batch holds 5,000
// of them.
func BenchmarkImportVariants(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), benchOptions(b))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s := &synth{rng: rand.New(rand.NewPCG(5, 1))}
	slugs := []string{"full-house", "hidden-single", "naked-single", "x-wing", "swordfish", "aic"}
	stored := make([]store.NewFamily, benchRows(b)/10)
	for i := range stored {
		f := s.family(1)
		steps := []string{"full-house"}
		for range 1 + s.rng.IntN(8) {
			steps = append(steps, slugs[s.rng.IntN(len(slugs))])
		}
		f.Techniques = nil
		if f.Path, err = store.EncodePath(steps); err != nil {
			b.Fatal(err)
		}
		stored[i] = f
	}
	for i := 0; i < len(stored); i += 5000 {
		if _, err := db.WriteBatch(ctx, stored[i:min(i+5000, len(stored))]); err != nil {
			b.Fatal(err)
		}
	}
	var cpu time.Duration
	b.StopTimer()
	b.ResetTimer()
	for range b.N {
		batch := make([]store.NewFamily, 5000)
		for i := range batch {
			f := stored[s.rng.IntN(len(stored))]
			f.Puzzles = []store.Puzzle{{Puzzle: s.grid(f.Givens), Solution: f.Puzzles[0].Solution}}
			batch[i] = f
		}
		cpu0 := cputime.Process()
		b.StartTimer()
		if _, err := db.WriteBatch(ctx, batch); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += cputime.Process() - cpu0
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/batch")
}
