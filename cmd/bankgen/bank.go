package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"sudokubank/grid"
	"sudokubank/internal/cli"
	"sudokubank/internal/version"
	"sudokubank/pipeline"
	"sudokubank/store"
)

// openBank opens (or creates) the bank as a bulk writer
// (store.BulkOptions), ends the runs of processes that died, loads its
// dedup set for grids of shape (every size for the zero Shape), and sets the GC policy for a run of familyPuzzles puzzles a
// family; syncFull makes every commit wait for the disk.
func openBank(ctx context.Context, path string, shape grid.Shape, log *slog.Logger, familyPuzzles int, syncFull bool) (*store.DB, *pipeline.Seen, pipeline.LevelCounts, error) {
	opts := store.BulkOptions(path)
	opts.SyncFull, opts.Log, opts.OnMigrate = syncFull, log, noteMigration
	db, err := store.Open(ctx, path, opts)
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
	seen, have, err := pipeline.LoadBank(ctx, db, shape)
	if err != nil {
		db.Close()
		return nil, nil, pipeline.LevelCounts{}, fmt.Errorf("bank %s: %w", path, err)
	}
	if seen.Len() > 0 {
		log.Info("loaded the bank's families for dedup", "families", seen.Len(), "took", time.Since(start).Round(time.Millisecond))
	}
	tuneGC(pipeline.MemoryBudget(familyPuzzles, opts.DeferIndexes))
	return db, seen, have, nil
}

// bankgen's garbage collection policy, unless GOGC or GOMEMLIMIT say
// otherwise (see tuneGC).
const (
	gcPercent  = 400
	gcHeadroom = 128 << 20
)

// tuneGC lets the heap grow to five times what is live between
// collections instead of twice, since a run keeps little of what its
// workers allocate, within a memory limit of the heap now plus 128 MiB
// plus extra, the room the run reaches (pipeline.MemoryBudget), so that
// the GC does not run back to back near the limit.
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
func codeVersion() string { return version.Read().Short() }

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
