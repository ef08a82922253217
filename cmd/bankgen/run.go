package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"

	"sudokubank/internal/version"
)

var (
	// errInterrupted reports a run stopped by a signal after writing what
	// was done; the process exits with status 130.
	errInterrupted = errors.New("interrupted")
)

// usageError is a bad command line; the process exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// Run runs bankgen with the arguments after the program name, as main
// does, writing reports to stdout and logs to stderr. It returns
// flag.ErrHelp after printing usage for -h or the version for -version,
// a usageError for a bad command line, and errInterrupted when ctx was
// cancelled mid-run.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var err error
	if len(args) > 0 && args[0] == "import" {
		err = runImport(ctx, args[1:], stdout, stderr)
	} else {
		err = runGenerate(ctx, args, stdout, stderr)
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		// Interrupted before the pipeline started, while loading the bank.
		return errInterrupted
	}
	return err
}

// exitCode reports err on stderr and returns the process's exit status.
func exitCode(err error, stderr io.Writer) int {
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errInterrupted):
		return 130
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "bankgen: %v\nRun 'bankgen -h' or 'bankgen import -h' for usage.\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "bankgen: %v\n", err)
		return 1
	}
}

// parseFlags parses args with fs, printing usage (to stdout) for -h and
// the build's version for -version, both returning flag.ErrHelp (exit
// status 0), and turning any other failure into a usageError. It adds
// -version to fs.
func parseFlags(fs *flag.FlagSet, usage string, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	showVersion := fs.Bool("version", false, "print the version and build revision, and exit")
	err := fs.Parse(args)
	if err == nil && *showVersion {
		if err := version.Read().Write(stdout, "bankgen"); err != nil {
			return err
		}
		return flag.ErrHelp
	}
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return flag.ErrHelp
	}
	if err != nil {
		return usageError{err}
	}
	return nil
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
