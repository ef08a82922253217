package cli_test

import (
	"errors"
	"flag"
	"io"
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
