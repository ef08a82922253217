package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
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

// ParseFlags parses args with fs, adding -version. A -h or -help
// anywhere before "--", after a command's arguments too, prints usage
// and, under "Flags:", the flags' defaults to stdout, and -version the build's version
// under the program's name (fs's name up to the first space); both
// return flag.ErrHelp. Any other failure is a UsageError, for the caller
// to report.
func ParseFlags(fs *flag.FlagSet, usage string, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	showVersion := fs.Bool("version", false, "print the version and build revision, and exit")
	if !helpAsked(args) {
		err := fs.Parse(args)
		if err == nil && *showVersion {
			program, _, _ := strings.Cut(fs.Name(), " ")
			if err := version.Read().Write(stdout, program); err != nil {
				return err
			}
			return flag.ErrHelp
		}
		if !errors.Is(err, flag.ErrHelp) {
			if err != nil {
				return UsageError{Err: err}
			}
			return nil
		}
	}
	fmt.Fprint(stdout, usage+"\nFlags:\n")
	fs.SetOutput(stdout)
	fs.PrintDefaults()
	return flag.ErrHelp
}

// helpAsked reports whether args ask for help before any "--".
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--h", "--help":
			return true
		}
	}
	return false
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

// Reason returns the reason of err without the operation and path that
// an *fs.PathError adds, for a message that names the file already:
// "open bank b.db: no such file or directory", not "open bank b.db:
// stat b.db: no such file or directory".
func Reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// NetReason returns the reason of a network error without the wording of
// the operation around it ("listen tcp ...: bind: ", "Get ...: dial tcp
// ...: "), for a message that names the address already: the system's
// error, the name lookup's failure, or a URL error's own.
func NetReason(err error) error {
	var se *os.SyscallError
	var de *net.DNSError
	var ue *url.Error
	switch {
	case errors.As(err, &se):
		return se.Err
	case errors.As(err, &de):
		return de
	case errors.As(err, &ue):
		return ue.Err
	}
	return err
}
