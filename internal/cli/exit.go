package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sudokubank/internal/version"
	"syscall"
)

// Exit statuses of both commands.
const (
	ExitOK          = 0   // done
	ExitFailure     = 1   // the command ran and failed
	ExitUsage       = 2   // the command line is wrong: unknown subcommand, bad flag or value
	ExitInterrupted = 130 // stopped by SIGINT or SIGTERM, as shells report it
)

// ErrInterrupted reports a command stopped by a signal after finishing
// what it could; it exits with status ExitInterrupted.
var ErrInterrupted = errors.New("interrupted")

// UsageError is a mistake in the command line; it exits with status
// ExitUsage.
type UsageError struct{ Err error }

// Error returns the mistake's message.
func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the mistake.
func (e UsageError) Unwrap() error { return e.Err }

// ParseFlags parses args with fs, adding -version. For -h it prints usage
// and the flags' defaults to stdout, for -version the build's version
// under fs's name, and returns flag.ErrHelp; any other failure is a
// UsageError, for the caller to report.
func ParseFlags(fs *flag.FlagSet, usage string, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	showVersion := fs.Bool("version", false, "print the version and build revision, and exit")
	err := fs.Parse(args)
	if err == nil && *showVersion {
		if err := version.Read().Write(stdout, fs.Name()); err != nil {
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
		return UsageError{Err: err}
	}
	return nil
}

// ExitCode returns the exit status for an error a command's Run
// returned: ExitOK for nil or flag.ErrHelp, ExitInterrupted for
// ErrInterrupted or context.Canceled, ExitUsage for a UsageError, and
// ExitFailure for anything else.
func ExitCode(err error) int {
	var u UsageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.Is(err, ErrInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.As(err, &u):
		return ExitUsage
	default:
		return ExitFailure
	}
}

// NotifyContext returns a copy of parent that the first SIGINT or
// SIGTERM cancels, and a func that stops catching them. With onStop set,
// the first signal calls it too, and a second one exits the process at
// once with status ExitInterrupted, for a command whose stopping takes
// a while.
func NotifyContext(parent context.Context, onStop func()) (context.Context, context.CancelFunc) {
	if onStop == nil {
		return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	}
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		onStop()
		cancel()
		<-sigs
		os.Exit(ExitInterrupted)
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel()
	}
}
