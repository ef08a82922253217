package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"sudokubank/internal/cli"
	"sudokubank/pipeline"
	"sudokubank/store"
)

// openBank opens (or creates) the bank, ends the runs of processes that
// died, and loads its dedup set.
//
// A new bank is a bulk load: its secondary indexes are built once, sorted,
// while the workers make the run's last families (pipeline.Generate), or
// at its end if it stops early, instead of updated for every row
// (store.Options.DeferIndexes); an existing bank keeps them, since a
// top-up of a big bank would rebuild them whole. A 256 MiB page cache
// holds the indexes a batch updates at random places up to about 8M
// puzzles (see store.Options). familyPuzzles is how many puzzles the
// run stores a family, for the memory limit (see tuneGC); syncFull makes
// every commit wait for the disk (store.Options.SyncFull).
func openBank(ctx context.Context, path string, log *slog.Logger, familyPuzzles int, syncFull bool) (*store.DB, *pipeline.Seen, pipeline.LevelCounts, error) {
	fresh := true
	if st, err := os.Stat(path); err == nil && st.Size() > 0 {
		fresh = false
	}
	db, err := store.Open(ctx, path, store.Options{DeferIndexes: fresh, CacheSizeKB: 256 << 10, SyncFull: syncFull, Log: log})
	if err != nil {
		return nil, nil, pipeline.LevelCounts{}, err
	}
	// StartRun would do this too, silently; the log says which runs.
	dead, err := db.EndDeadRuns(ctx)
	if err != nil {
		db.Close()
		return nil, nil, pipeline.LevelCounts{}, fmt.Errorf("bank %s: %w", path, err)
	}
	if len(dead) > 0 {
		log.Warn("runs left running by a process that died are recorded as interrupted, with what they committed", "runs", dead)
	}
	start := time.Now()
	seen, have, err := pipeline.LoadBank(ctx, db)
	if err != nil {
		db.Close()
		return nil, nil, pipeline.LevelCounts{}, fmt.Errorf("bank %s: %w", path, err)
	}
	if seen.Len() > 0 {
		log.Info("loaded the bank's families for dedup", "families", seen.Len(), "took", time.Since(start).Round(time.Millisecond))
	}
	extra := inFlightMemory(familyPuzzles)
	if fresh {
		extra += store.BulkKeyMemory
	}
	tuneGC(extra)
	return db, seen, have, nil
}

// bankgen's garbage collection policy, unless GOGC or GOMEMLIMIT say
// otherwise (see tuneGC).
const (
	gcPercent  = 400
	gcHeadroom = 128 << 20
	// puzzleMemory is about what a puzzle takes on its way to the store:
	// its strings, and store.Prepare's packed cells and driver values.
	puzzleMemory = 600
	// minInFlight is the least room tuneGC leaves for the puzzles in
	// flight, which a few families of many variants fill.
	minInFlight = 256 << 20
)

// inFlightMemory is the room the memory limit leaves for the puzzles a
// run holds on their way to the store, with familyPuzzles puzzles a
// family (pipeline.InFlightPuzzles): 256 MiB, or more with many
// variants (about 600 MiB at 1,000).
func inFlightMemory(familyPuzzles int) int64 {
	return max(minInFlight, int64(pipeline.InFlightPuzzles(familyPuzzles))*puzzleMemory)
}

// tuneGC lets the heap grow to five times what is live between
// collections, instead of twice, within a memory limit of the heap after
// the bank is loaded plus 128 MiB, plus extra: room for the puzzles in
// flight to the store (inFlightMemory, at least 256 MiB), and on a fresh
// bank the store's in-memory puzzle keys and family hashes of a bulk
// load (store.BulkKeyMemory, 445 MiB). Both are live heap a run reaches,
// the first as soon as it has many variants; without room for them the
// GC would run back to back near the limit. The workers allocate about
// 50 KB a family (the grader's steps, mostly) and keep little of it, so
// the live heap of a run without variants is about 10 MB and GOGC=100
// collected every 10 MB: 27 times in 20,000 families, whose marking
// took 2.5-3% of the run's CPU, from the workers when both cores are
// busy; at 400, 6 times and 0.5%, with the peak resident memory 59 ->
// 90 MB. The limit stops the heap growing fivefold only once five times
// the live heap passes it: with very many variants, or on a bank whose
// live heap (its dedup set takes 8 bytes a family) passes about 96 MiB,
// some 11M families, since below that the fivefold heap fits in the
// 128 MiB and the 256 MiB of room; near the limit the GC runs as often
// as it must. With
// -variants 100 a batch and the writer's queue hold 60-100 MB: a top-up
// of a 10-family bank with -count 4000 collected 3 times where
// GOGC=100 without a limit did 9-10 (and 14-15 without this room), and
// a fresh bank's -count 5000 3 times where GOGC=100 did 11; the peak
// resident memory was 520-580 MB instead of 360-440.
func tuneGC(extra int64) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		debug.SetMemoryLimit(int64(m.HeapAlloc) + gcHeadroom + extra)
	}
}

// codeVersion returns the module version and VCS revision bankgen was
// built from, for the runs table.
func codeVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
	}
	return strings.TrimSpace(v)
}

// startProgress starts reporting progress on stderr, as a bar on a
// terminal and a log line every 30 s otherwise; the returned func stops it.
func startProgress(ctx context.Context, quiet bool, stats *pipeline.Stats, total int, stderr io.Writer, log *slog.Logger) func() {
	if quiet {
		return func() {}
	}
	p := &cli.Progress{Stats: stats, Total: total, Log: log}
	if cli.IsTerminal(stderr) {
		p.Bar = stderr
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// finishRun builds the indexes a fresh bank deferred if the run did not
// (it stopped early), adding the time to sum.Elapsed so that the run's
// rate counts all the work of storing its puzzles, then records how the
// run ended; it runs even after an interrupt.
func finishRun(ctx context.Context, db *store.DB, id int64, sum *pipeline.Summary, runErr error) error {
	t0 := time.Now()
	idxErr := db.BuildIndexes(context.WithoutCancel(ctx))
	sum.Elapsed += time.Since(t0)
	if idxErr != nil && runErr == nil {
		runErr = idxErr
	}
	end := store.RunEnd{
		Status:      store.RunCompleted,
		Families:    sum.Families,
		Puzzles:     sum.Puzzles,
		DupFamilies: sum.Duplicates,
		DupPuzzles:  sum.DupPuzzles,
		Rejected:    sum.OffLevel + sum.OffGivens + sum.Invalid + sum.Failed,
	}
	switch {
	case runErr != nil:
		end.Status, end.Message = store.RunFailed, runErr.Error()
	case sum.Interrupted:
		end.Status, end.Message = store.RunInterrupted, "interrupted by a signal"
	}
	if err := db.FinishRun(context.WithoutCancel(ctx), id, end); err != nil {
		return fmt.Errorf("record the end of run %d: %w", id, err)
	}
	return idxErr
}
