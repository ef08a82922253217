package pipeline_test

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/internal/cputime"
	"sudokubank/pipeline"
	"sudokubank/store"
)

// benchGenerate runs the generating pipeline into fresh banks, opened as
// bankgen opens a new bank (indexes deferred, a 256 MiB cache), and
// reports families and puzzles written per second of wall time. Without
// keep, the writer counts each batch and drops it: the pipeline's
// speed-up from one worker to two with no writer to share the cores
// with, which is the most the pipeline can give a run (BenchmarkBuild
// measures the workers' code alone, without the engine).
func benchGenerate(b *testing.B, workers, n, variants int, levels []grade.Level, keep bool) {
	dir := b.TempDir()
	var fams, puzzles int64
	var took, cpu, writer time.Duration
	for i := 0; b.Loop(); i++ {
		ctx := context.Background()
		db, err := openFresh(ctx, filepath.Join(dir, fmt.Sprintf("%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		seen, _, err := pipeline.LoadBank(ctx, db)
		if err != nil {
			b.Fatal(err)
		}
		// The writer's CPU, from its own thread's clock: Run calls Write
		// from one goroutine, which the first call locks to its thread.
		write, locked := pipeline.Writer(db), false
		if !keep {
			write = dropBatch
		}
		timed := func(ctx context.Context, batch []store.NewFamily) (pipeline.Written, error) {
			if !locked {
				runtime.LockOSThread()
				locked = true
			}
			t0 := cputime.Thread()
			w, err := write(ctx, batch)
			writer += cputime.Thread() - t0
			return w, err
		}
		// The index build during the run has a goroutine of its own,
		// locked to its thread for the call so that its clock is its own.
		var build time.Duration
		buildIndexes := func(ctx context.Context) error {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := cputime.Thread()
			err := db.BuildIndexes(ctx)
			build = cputime.Thread() - t0
			return err
		}
		cpu0 := cputime.Process()
		sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
			BuildOptions: pipeline.BuildOptions{Variants: variants, Seen: seen},
			Seed:         uint64(i), Target: pipeline.Count(n, levels), Workers: workers, Log: quiet(),
			Write: timed, BuildIndexes: buildIndexes,
		})
		if err != nil {
			b.Fatal(err)
		}
		writer += build // Generate waited for it
		// A run whose writer fell behind builds the deferred indexes
		// after it, as bankgen does (its finishRun), and that is writer
		// work: no other goroutine runs now.
		t0, build0 := time.Now(), cputime.Process()
		if err := db.BuildIndexes(ctx); err != nil {
			b.Fatal(err)
		}
		sum.Elapsed += time.Since(t0)
		writer += cputime.Process() - build0
		cpu += cputime.Process() - cpu0
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		fams += sum.Families
		puzzles += sum.Puzzles
		took += sum.Elapsed
	}
	b.ReportMetric(float64(fams)/took.Seconds(), "families/s")
	b.ReportMetric(float64(puzzles)/took.Seconds(), "puzzles/s")
	if cpu > 0 {
		// On a shared machine wall time includes waiting for a core;
		// CPU time does not, and cores-busy shows how parallel the run
		// was (2 at best with two workers on an idle 2-core machine).
		b.ReportMetric(float64(fams)/cpu.Seconds(), "families/cpu-s")
		b.ReportMetric(cpu.Seconds()/took.Seconds(), "cores-busy")
		// With one worker the writer runs beside it on the other core;
		// with two, both cores share all the work. So 1 -> 2 workers can
		// speed up by at most twice the share of the CPU that is not the
		// writer's (the collector and the runtime take about 1% more).
		share := writer.Seconds() / cpu.Seconds()
		b.ReportMetric(share, "writer-share")
		b.ReportMetric(2*(1-share), "speedup-bound")
	}
}

// openFresh opens a new bank as bankgen does (see cmd/bankgen's openBank).
func openFresh(ctx context.Context, path string) (*store.DB, error) {
	return store.Open(ctx, path, store.Options{DeferIndexes: true, CacheSizeKB: 256 << 10})
}

// dropBatch is a writer that stores nothing and counts every family and
// puzzle of the batch as written.
func dropBatch(_ context.Context, batch []store.NewFamily) (pipeline.Written, error) {
	w := pipeline.Written{Families: len(batch)}
	for _, f := range batch {
		w.Puzzles += len(f.Puzzles)
	}
	return w, nil
}

// BenchmarkGenerate measures the whole pipeline, dig to commit, into a
// real bank: all levels with one and two workers, each level alone, and
// 100 variants per family. Store=no is the same pipeline with a writer
// that drops its batches, the control for the one-to-two-worker speed-up
// (see benchGenerate). -count repeats each sub-benchmark back to back,
// and this machine's speed drifts between minutes: to pair one worker
// with two, alternate -count 1 runs of the two patterns in a shell loop.
func BenchmarkGenerate(b *testing.B) {
	// 20,000 families, as in the README's Store=no row (its bankgen
	// rounds make 30,000): the writer's share grows with the bank.
	for _, keep := range []bool{true, false} {
		for _, w := range []int{1, 2} {
			// Both names have a Store part, so that a pattern for one
			// set does not also match the other's parents.
			name := fmt.Sprintf("Level=all/Workers=%d/Store=yes", w)
			if !keep {
				name = fmt.Sprintf("Level=all/Workers=%d/Store=no", w)
			}
			b.Run(name, func(b *testing.B) { benchGenerate(b, w, 20000, 0, nil, keep) })
		}
	}
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		b.Run(fmt.Sprintf("Level=%s/Workers=2", l), func(b *testing.B) { benchGenerate(b, 2, 100, 0, []grade.Level{l}, true) })
	}
	b.Run("Level=all/Variants=100/Workers=2", func(b *testing.B) { benchGenerate(b, 2, 1000, 100, nil, true) })
}

var survey = flag.Int("survey", 0, "TestProfileSurvey: puzzles per profile (0 skips the survey)")

// TestProfileSurvey prints, for each dig profile, how many puzzles of each
// level it yields per CPU second, to choose ProfileFor's table:
//
//	go test ./pipeline -run ProfileSurvey -survey 300 -v
func TestProfileSurvey(t *testing.T) {
	if *survey == 0 {
		t.Skip("run with -survey N")
	}
	profiles := append(gen.PaperLevels[:], gen.MinimalProfile(gen.NoSymmetry))
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-22s %9s  level yield per CPU second (share of puzzles)\n", "profile", "items/cpu-s")
	for _, p := range profiles {
		var d gen.Digger
		var z gen.Canonicalizer
		var g grade.Grader
		var hist pipeline.Levels
		start := cputime.Process() // not wall time: the machine is shared
		for i := range *survey {
			pz := d.Generate(p, pipeline.Item{Seed: 1, Index: uint64(i)}.Rand())
			c, _ := z.Canon(pz.Grid)
			gr, err := g.Grade(c)
			if err != nil {
				t.Fatal(err)
			}
			hist[gr.Level]++
		}
		rate := float64(*survey) / (cputime.Process() - start).Seconds()
		fmt.Fprintf(&sb, "%-22s %9.0f ", p.Name, rate)
		for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
			fmt.Fprintf(&sb, " %s %.0f/s (%d%%)", l, rate*float64(hist[l])/float64(*survey), 100*hist[l] / *survey)
		}
		sb.WriteByte('\n')
	}
	t.Log("\n" + sb.String())
}

// builtFamilies are real families, dug and graded once per test binary
// for BenchmarkWriteBatch: all levels, no variants, seed 7.
var builtFamilies = sync.OnceValue(func() []store.NewFamily {
	const n = 20000
	bld := pipeline.NewBuilder(pipeline.BuildOptions{})
	out := make([]store.NewFamily, 0, n)
	for i := uint64(0); len(out) < n; i++ {
		r := bld.Build(context.Background(), pipeline.Item{Seed: 7, Index: i})
		if r.Reason == pipeline.Kept {
			out = append(out, r.Value)
		}
	}
	return out
})

// BenchmarkWriteBatch measures the writer alone: 20,000 real families
// (paths and technique counts as bankgen makes them, no variants) written
// in Generate's batches of 4,000 into a fresh bank opened as bankgen
// opens one, closing included. CPU per family is what the writer takes
// from the workers when both cores are busy.
func BenchmarkWriteBatch(b *testing.B) {
	fams := builtFamilies()
	dir := b.TempDir()
	var cpu time.Duration
	n := 0
	for i := 0; b.Loop(); i++ {
		ctx := context.Background()
		path := filepath.Join(dir, fmt.Sprintf("%d.db", i))
		cpu0 := cputime.Process()
		db, err := openFresh(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < len(fams); j += 4000 {
			if _, err := db.WriteBatch(ctx, fams[j:min(j+4000, len(fams))]); err != nil {
				b.Fatal(err)
			}
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - cpu0
		n += len(fams)
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/family")
}

// BenchmarkBuildVariants measures a worker's Build of a family with 100
// variants (bankgen -variants 100), the items of seed 5 in turn, digging
// and grading included.
func BenchmarkBuildVariants(b *testing.B) {
	bld := pipeline.NewBuilder(pipeline.BuildOptions{Variants: 100})
	b.ReportAllocs()
	for i := uint64(0); b.Loop(); i++ {
		bld.Build(context.Background(), pipeline.Item{Seed: 5, Index: i})
	}
}

// BenchmarkBuild measures the workers' code alone, with no engine and no
// writer: goroutines that each own a Builder and take items 0..b.N-1 of
// seed 5 in turn from one counter, so that -cpu 1 and -cpu 2 build the
// same families (one puzzle each) when b.N is fixed, under bankgen's GC
// setting (GOGC=400, see cmd/bankgen's tuneGC). Run with -cpu 1,2
// -benchtime 8000x: the ratio of the two rates is the speed-up the
// machine gives the workers, the ceiling for bankgen's speed-up from one
// worker to two.
func BenchmarkBuild(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	var next atomic.Uint64
	start := cputime.Process()
	b.RunParallel(func(pb *testing.PB) {
		bld := pipeline.NewBuilder(pipeline.BuildOptions{})
		for pb.Next() {
			bld.Build(context.Background(), pipeline.Item{Seed: 5, Index: next.Add(1) - 1})
		}
	})
	cpu := cputime.Process() - start
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
	b.ReportMetric(float64(b.N)/cpu.Seconds(), "puzzles/cpu-s")
}
