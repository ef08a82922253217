package cli_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"

	"sudokubank/internal/cli"
)

// TestRunParsed checks that help ends a command with no error and no
// run, a bad command line ends it with parse's error, and otherwise run
// gets what parse read.
func TestRunParsed(t *testing.T) {
	bad := cli.UsageError{Err: errors.New("bad flag")}
	failed := errors.New("run failed")
	for _, tc := range []struct {
		name     string
		parseErr error
		runErr   error
		want     error
		ran      bool
	}{
		{"Help", flag.ErrHelp, nil, nil, false},
		{"Usage", bad, nil, bad, false},
		{"Ran", nil, nil, nil, true},
		{"RunFailed", nil, failed, failed, true},
	} {
		ran := false
		parse := func(args []string, _ io.Writer) (string, error) { return args[0], tc.parseErr }
		run := func(c string) error {
			ran = c == "x"
			return tc.runErr
		}
		if err := cli.RunParsed([]string{"x"}, io.Discard, parse, run); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s: RunParsed = %v, want %v", tc.name, err, tc.want)
		}
		if ran != tc.ran {
			t.Errorf("%s: ran %v, want %v", tc.name, ran, tc.ran)
		}
	}
}

// TestExecInterrupted checks that an error a command returns once its
// context is cancelled exits as an interruption and is printed as one,
// with the error unless it is the context's own, and that the same
// error without a cancelled context is a failure.
func TestExecInterrupted(t *testing.T) {
	sqliteErr := errors.New(`create pack "p": interrupted (9)`)
	for _, tc := range []struct {
		name   string
		cancel bool
		err    error
		want   int
		stderr string
	}{
		{"error after a signal", true, sqliteErr, cli.ExitInterrupted, "prog: interrupted: " + sqliteErr.Error() + "\n"},
		{"the context's error", true, fmt.Errorf("open bank b.db: %w", context.Canceled), cli.ExitInterrupted, "prog: interrupted\n"},
		{"the same error without one", false, sqliteErr, cli.ExitFailure, "prog: " + sqliteErr.Error() + "\n"},
		{"no error after a signal", true, nil, cli.ExitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p := cli.Program{Name: "prog", Run: func(context.Context, []string, io.Writer, io.Writer) error {
				if tc.cancel {
					cancel()
				}
				return tc.err
			}}
			var stderr strings.Builder
			if got := p.Exec(ctx, nil, io.Discard, &stderr); got != tc.want {
				t.Errorf("exit %d, want %d", got, tc.want)
			}
			if stderr.String() != tc.stderr {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
		})
	}
}
