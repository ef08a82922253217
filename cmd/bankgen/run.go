package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
	"sync/atomic"

	"sudokubank/internal/cli"
)

var (
	// errInterrupted reports a run stopped by a signal after writing what
	// was done; the process exits with status 130.
	errInterrupted = cli.ErrInterrupted
)

// usageError is a bad command line; the process exits with status 2.
type usageError = cli.UsageError

// Run runs bankgen with the arguments after the program name, as main
// does, writing reports to stdout and logs to stderr. It returns
// flag.ErrHelp after printing usage for -h or the version for -version,
// a usageError for a bad command line, and errInterrupted when ctx was
// cancelled mid-run.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var err error
	switch {
	case len(args) > 0 && args[0] == "import":
		err = runImport(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "merge":
		err = runMerge(ctx, args[1:], stdout, stderr)
	default:
		err = runGenerate(ctx, args, stdout, stderr)
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		// Interrupted before the pipeline started, while loading the bank.
		return errInterrupted
	}
	return err
}

// program is bankgen as its main runs it: the first signal stops the
// run after writing what is done, or a migration of the bank at the last
// schema it reached.
var program = cli.Program{
	Name:        "bankgen",
	UsageHint:   "Run 'bankgen -h', 'bankgen import -h' or 'bankgen merge -h' for usage.",
	Stopping:    "bankgen: stopping: writing what is done (interrupt again to quit at once)",
	StoppingNow: stoppingNow,
	Run:         Run,
}

// migrating is set while the bank bankgen opened is being migrated
// (store.Options.OnMigrate): a migration has no run's work to write,
// and an interrupt rolls back only the migration step under way.
var migrating atomic.Bool

// noteMigration is the OnMigrate of the banks bankgen writes to; a test
// wraps it to look on during a migration.
var noteMigration = func(on bool) { migrating.Store(on) }

// stoppingNow is bankgen's line for the first signal during a migration,
// where Stopping's "writing what is done" would be wrong.
func stoppingNow() string {
	if migrating.Load() {
		return "bankgen: stopping the migration: the bank stays whole at the last schema it reached (interrupt again to quit at once)"
	}
	return ""
}

// newLogger returns the text logger bankgen writes to stderr.
func newLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, nil))
}

// startCPUProfile writes a CPU profile of the rest of the run to path;
// the returned func stops it and closes the file, reporting a file that
// could not be written whole.
func startCPUProfile(path string) (func() error, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	// The profiler writes from a goroutine of its own and drops its
	// write errors: w keeps the first, for the stop to report.
	w := &errWriter{w: f}
	if err := pprof.StartCPUProfile(w); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile %s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		err := w.err
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("cpu profile %s: %w", path, err)
		}
		return nil
	}, nil
}

// errWriter writes to w until a write fails, and keeps that error.
// StopCPUProfile returns only once the profiler's last write is done,
// so err is safe to read after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// startMemProfile samples the allocations of the rest of the run eight
// times as often as Go's default (one per 64 KiB allocated, a small CPU
// cost next to the allocations themselves at bankgen's rates) and
// returns a func that writes the profile to path; the file is created
// first, so that a bad path fails before the run.
func startMemProfile(path string) (func() error, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("memory profile: %w", err)
	}
	rate := runtime.MemProfileRate
	runtime.MemProfileRate = 64 << 10
	return func() error {
		// The profile holds the allocations up to the last completed
		// GC only; a collection now brings in the rest of the run's,
		// as testing's -memprofile does (with bankgen's GOGC and
		// memory limit, half a run's allocations may come after the
		// last GC). The profile scales its samples by the rate when it
		// is written, so the rate they were taken at must still hold.
		runtime.GC()
		err := pprof.Lookup("allocs").WriteTo(f, 0)
		runtime.MemProfileRate = rate
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("memory profile %s: %w", path, err)
		}
		return nil
	}, nil
}
