package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Program is a command as its main runs it.
type Program struct {
	Name string // the program's name, which starts its messages
	// UsageHint is printed after a mistake in the command line, to say
	// where the usage is.
	UsageHint string
	// Stopping, when set, is printed on the first SIGINT or SIGTERM, and a
	// second signal ends the process at once: for a command whose stopping
	// takes a while.
	Stopping string
	// StoppingNow, when set, returns the line to print on the first
	// signal in place of Stopping, for a command whose stopping differs
	// by what it is doing at that moment; "" leaves Stopping's. It is
	// called on the signal's goroutine.
	StoppingNow func() string
	// Run is the command itself; Main turns its error into the exit
	// status (ExitCode).
	Run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// Main runs p.Run with the process's arguments and standard streams,
// cancelling its context on SIGINT or SIGTERM, reports its error with
// Report and exits with the status ExitCode gives.
func (p Program) Main() {
	var onStop func()
	if p.Stopping != "" || p.StoppingNow != nil {
		onStop = func() { fmt.Fprint(os.Stderr, p.stoppingLine(IsTerminal(os.Stderr))) }
	}
	ctx, stop := NotifyContext(context.Background(), onStop)
	code := p.Exec(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// stoppingLine is the line Main prints on the first signal. On a
// terminal it clears the line first: a progress bar may be drawn there.
func (p Program) stoppingLine(terminal bool) string {
	line := p.Stopping
	if p.StoppingNow != nil {
		if now := p.StoppingNow(); now != "" {
			line = now
		}
	}
	if terminal {
		return "\r\x1b[K" + line + "\n"
	}
	return line + "\n"
}

// Exec runs p.Run, reports its error with Report and returns the exit
// status. An error returned once ctx is cancelled counts as an
// interruption (ExitInterrupted), whatever it says: SQLite reports a
// statement that the context stopped as "interrupted (9)", not as the
// context's error, and which of the two a command sees depends on where
// the signal lands.
func (p Program) Exec(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := p.Run(ctx, args, stdout, stderr)
	if err != nil && ctx.Err() != nil {
		err = stoppedError{err}
	}
	return p.Report(stderr, err)
}

// stoppedError is an error that a command returned after its context
// was cancelled: it reads as the command's error and is context.Canceled.
type stoppedError struct{ error }

func (e stoppedError) Is(target error) bool { return target == context.Canceled }

func (e stoppedError) Unwrap() error { return e.error }

// Report prints err on stderr as "name: error", followed by the usage
// hint for a mistake in the command line, and returns the exit status
// ExitCode gives. It prints nothing for success, help, or ErrInterrupted,
// which the command has reported as it stopped. A command stopped by a
// signal that did not say so is reported as "name: interrupted", with
// the error it returned unless that is the context's own: "context
// canceled" tells the user nothing.
func (p Program) Report(stderr io.Writer, err error) int {
	code := ExitCode(err)
	if code == ExitOK || errors.Is(err, ErrInterrupted) {
		return code
	}
	if code == ExitInterrupted {
		var s stoppedError
		if errors.As(err, &s) && !errors.Is(s.error, context.Canceled) {
			// An error at the stop, SQLite's "interrupted (9)" most often,
			// but it may be a failure the user must hear of.
			fmt.Fprintf(stderr, "%s: interrupted: %v\n", p.Name, s.error)
		} else {
			fmt.Fprintf(stderr, "%s: interrupted\n", p.Name)
		}
		return code
	}
	fmt.Fprintf(stderr, "%s: %v\n", p.Name, err)
	if code == ExitUsage && p.UsageHint != "" {
		fmt.Fprintln(stderr, p.UsageHint)
	}
	return code
}

// RunParsed runs run on what parse reads from args. Help and -version,
// which parse answers on stdout with flag.ErrHelp, return nil; any other
// error of parse is returned as it is.
func RunParsed[C any](args []string, stdout io.Writer, parse func([]string, io.Writer) (C, error), run func(C) error) error {
	c, err := parse(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	return run(c)
}
