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
	"sudokubank/grid"
	"sudokubank/internal/cputime"
	"sudokubank/pipeline"
	"sudokubank/store"
)

var writerShare = flag.Bool("writershare", false, "BenchmarkGenerate: time the writer on its own thread and report writer-share and speedup-bound (costs a two-worker run about 5% of its rate)")

// bankgenGC puts the garbage collector under bankgen's setting (GOGC=400,
// see cmd/bankgen's tuneGC) and returns what restores it: at the default
// 100 a run collects four times as often, and with one worker the
// collector's marking runs on the idle core, with two it does not.
func bankgenGC() (restore func()) {
	old := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(old) }
}

// genRun is what one generating run wrote, in how much wall time, and
// the CPU the process and (with -writershare) the writer took for it.
type genRun struct {
	fams, puzzles     int64
	took, cpu, writer time.Duration
}

func (r *genRun) add(o genRun) {
	r.fams += o.fams
	r.puzzles += o.puzzles
	r.took += o.took
	r.cpu += o.cpu
	r.writer += o.writer
}

// rate is families written per second of wall time.
func (r genRun) rate() float64 { return float64(r.fams) / r.took.Seconds() }

// generateOnce runs the generating pipeline into a fresh bank at path,
// opened as bankgen opens a new bank (indexes deferred, a 256 MiB cache).
// Without keep, the writer counts each batch and drops it: the
// pipeline's speed-up from one worker to two with no writer to share the
// cores with, which is the most the pipeline can give a run
// (BenchmarkBuild measures the workers' code alone, without the engine).
func generateOnce(b *testing.B, path string, seed uint64, workers, n, variants int, levels []grade.Level, keep bool) genRun {
	ctx := context.Background()
	db, err := openFresh(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	seen, _, err := pipeline.LoadBank(ctx, db, grid.Nine)
	if err != nil {
		b.Fatal(err)
	}
	var writer, build time.Duration // build: Finish's goroutine's, beside the writer's
	write := pipeline.Writer(db)
	if !keep {
		write = dropBatch
	}
	buildIndexes := db.BuildIndexes
	if *writerShare {
		// The writer's CPU, from its own thread's clock: Execute calls
		// Write from one goroutine, which the first call locks to its
		// thread. A locked goroutine hands its core over by waking its
		// own thread each time it runs, which cost two-worker runs of
		// 20,000 families 5% of their rate (3 rounds: 1.86-1.88 cores
		// busy instead of 1.96-1.97), so only this flag does it.
		w, locked := write, false
		write = func(ctx context.Context, batch []store.NewFamily) (pipeline.Written, error) {
			if !locked {
				runtime.LockOSThread()
				locked = true
			}
			t0 := cputime.Thread()
			res, err := w(ctx, batch)
			writer += cputime.Thread() - t0
			return res, err
		}
		// The index build during the run has a goroutine of its own,
		// locked to its thread for the call so that its clock is its
		// own; Generate waits for it.
		buildIndexes = func(ctx context.Context) error {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := cputime.Thread()
			err := db.BuildIndexes(ctx)
			build = cputime.Thread() - t0
			return err
		}
	}
	cpu0 := cputime.Process()
	sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
		BuildOptions: pipeline.BuildOptions{Variants: variants, Seen: seen},
		Seed:         seed, Target: pipeline.Count(n, levels), Workers: workers, Log: quiet(),
		Write: write, BuildIndexes: buildIndexes,
	})
	if err != nil {
		b.Fatal(err)
	}
	writer += build
	// A run whose writer fell behind builds the deferred indexes after
	// it, as FinishRun does, and that is writer work: no
	// other goroutine runs now.
	t0, build0 := time.Now(), cputime.Process()
	if err := db.BuildIndexes(ctx); err != nil {
		b.Fatal(err)
	}
	sum.Elapsed += time.Since(t0)
	writer += cputime.Process() - build0
	cpu := cputime.Process() - cpu0
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	return genRun{fams: sum.Families, puzzles: sum.Puzzles, took: sum.Elapsed, cpu: cpu, writer: writer}
}

// benchGenerate runs the generating pipeline into fresh banks (see
// generateOnce) under bankgen's GC setting, and reports families and
// puzzles written per second of wall time.
func benchGenerate(b *testing.B, workers, n, variants int, levels []grade.Level, keep bool) {
	defer bankgenGC()()
	dir := b.TempDir()
	var all genRun
	for i := 0; b.Loop(); i++ {
		all.add(generateOnce(b, filepath.Join(dir, fmt.Sprintf("%d.db", i)), uint64(i), workers, n, variants, levels, keep))
	}
	b.ReportMetric(all.rate(), "families/s")
	b.ReportMetric(float64(all.puzzles)/all.took.Seconds(), "puzzles/s")
	if all.cpu > 0 {
		// On a shared machine wall time includes waiting for a core;
		// CPU time does not, and cores-busy shows how parallel the run
		// was (2 at best with two workers on an idle 2-core machine).
		b.ReportMetric(float64(all.fams)/all.cpu.Seconds(), "families/cpu-s")
		b.ReportMetric(all.cpu.Seconds()/all.took.Seconds(), "cores-busy")
	}
	if *writerShare && all.cpu > 0 {
		// With one worker the writer runs beside it on the other core;
		// with two, both cores share all the work. So 1 -> 2 workers can
		// speed up by at most twice the share of the CPU that is not the
		// writer's (the collector and the runtime take about 1% more).
		share := all.writer.Seconds() / all.cpu.Seconds()
		b.ReportMetric(share, "writer-share")
		b.ReportMetric(2*(1-share), "speedup-bound")
	}
}

// speedupRound numbers benchSpeedup's rounds across the process, so that
// with -count each run of it goes on where the last stopped.
var speedupRound int

// benchSpeedup measures the 1 -> 2 workers speed-up itself: each round
// makes the same n families (the round's number is the seed) with one
// worker and with two, which of the two first alternating by round so
// that a drift of the machine's speed falls on both alike, and speedup
// is the two-worker rate over the one-worker rate, over the rounds of
// the run.
func benchSpeedup(b *testing.B, n int) {
	defer bankgenGC()()
	dir := b.TempDir()
	var one, two genRun
	for b.Loop() {
		i := speedupRound
		speedupRound++
		order := []int{1, 2}
		if i%2 == 1 {
			order = []int{2, 1}
		}
		for _, w := range order {
			r := generateOnce(b, filepath.Join(dir, fmt.Sprintf("%d-%d.db", i, w)), uint64(i), w, n, 0, nil, true)
			if w == 1 {
				one.add(r)
			} else {
				two.add(r)
			}
		}
	}
	b.ReportMetric(one.rate(), "families/s-1worker")
	b.ReportMetric(two.rate(), "families/s-2workers")
	b.ReportMetric(two.rate()/one.rate(), "speedup")
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
		w.Levels[f.Level]++
	}
	return w, nil
}

// BenchmarkGenerate measures the whole pipeline, dig to commit, into a
// real bank: all levels with one and two workers, each level alone, and
// 100 variants per family. Store=no is the same pipeline with a writer
// that drops its batches, the control for the one-to-two-worker speed-up
// (see generateOnce). Speedup runs one worker and two in turn and
// reports the ratio of their rates (see benchSpeedup):
//
//	go test ./pipeline -run '^$' -bench 'Generate/Level=all/Speedup' -count 10
func BenchmarkGenerate(b *testing.B) {
	// 20,000 families, as the bankgen rounds of docs/performance.md
	// make: the writer's share grows with the bank.
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
	b.Run("Level=all/Speedup/Store=yes", func(b *testing.B) { benchSpeedup(b, 20000) })
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		b.Run(fmt.Sprintf("Level=%s/Workers=2", l), func(b *testing.B) { benchGenerate(b, 2, 100, 0, []grade.Level{l}, true) })
	}
	b.Run("Level=all/Variants=100/Workers=2", func(b *testing.B) { benchGenerate(b, 2, 1000, 100, nil, true) })
}

var survey = flag.Int("survey", 0, "TestProfileSurvey: puzzles per profile (0 skips the survey)")

// TestProfileSurvey prints, for each dig profile, how many puzzles of each
// level it yields per CPU second, to compare the paper's profiles with
// the random-order digs of ProfileFor (see TestGivensSurvey):
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
		var hist pipeline.LevelCounts
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

var givensSurvey = flag.Int("givenssurvey", 0, "TestGivensSurvey: puzzles per dig target (0 skips the survey)")

// TestGivensSurvey prints, for each number of givens a random-order dig
// aims at, the share of each level the grader gives and how many puzzles
// of each level that makes per CPU second, to choose the per-level
// default ranges of ProfileFor:
//
//	go test ./pipeline -run GivensSurvey -givenssurvey 100 -v
func TestGivensSurvey(t *testing.T) {
	if *givensSurvey == 0 {
		t.Skip("run with -givenssurvey N")
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%6s %6s %9s  level share (per CPU second)\n", "target", "hit", "items/cpu-s")
	var d gen.Digger
	var z gen.Canonicalizer
	var g grade.Grader
	for target := 20; target <= 50; target++ {
		p := gen.Profile{Name: "survey", Sequence: gen.Random, MinGivens: target, MaxGivens: target}
		var hist pipeline.LevelCounts
		hit := 0
		start := cputime.Process()
		for i := range *givensSurvey {
			pz := d.Generate(p, pipeline.Item{Seed: 1, Index: uint64(i)}.Rand())
			if pz.Grid.Givens() == target {
				hit++
			}
			c, _ := z.Canon(pz.Grid)
			gr, err := g.Grade(c)
			if err != nil {
				t.Fatal(err)
			}
			hist[gr.Level]++
		}
		rate := float64(*givensSurvey) / (cputime.Process() - start).Seconds()
		fmt.Fprintf(&sb, "%6d %5d%% %9.0f ", target, 100*hit / *givensSurvey, rate)
		for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
			fmt.Fprintf(&sb, " %d:%3d%% (%5.0f)", l, 100*hist[l] / *givensSurvey, rate*float64(hist[l])/float64(*givensSurvey))
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
	defer bankgenGC()()
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
