package cli_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"sudokubank/internal/cli"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"Nil", nil, cli.ExitOK},
		{"Help", flag.ErrHelp, cli.ExitOK},
		{"Interrupted", fmt.Errorf("run: %w", cli.ErrInterrupted), cli.ExitInterrupted},
		{"Cancelled", fmt.Errorf("export: %w", context.Canceled), cli.ExitInterrupted},
		{"Usage", fmt.Errorf("flags: %w", cli.UsageError{Err: errors.New("bad -count")}), cli.ExitUsage},
		{"Failure", errors.New("no bank"), cli.ExitFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cli.ExitCode(tt.err); got != tt.want {
				t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

func TestParseFlags(t *testing.T) {
	const usage = "Usage: prog sub [-n N] ARG\n"
	tests := []struct {
		name    string
		args    []string
		wantErr error  // nil, flag.ErrHelp, or a UsageError
		stdout  string // a part of what is printed
	}{
		{"Flags", []string{"-n", "3", "arg"}, nil, ""},
		{"Help", []string{"-h"}, flag.ErrHelp, usage + "\nFlags:\n"},
		{"HelpAfterArgument", []string{"arg", "-help"}, flag.ErrHelp, "  -n N"},
		{"HelpAfterDashes", []string{"--", "-h"}, nil, ""},
		{"Version", []string{"-n", "3", "-version"}, flag.ErrHelp, "prog "},
		{"UnknownFlag", []string{"-colour"}, cli.UsageError{}, ""},
		{"BadValue", []string{"-n", "x"}, cli.UsageError{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("prog sub", flag.ContinueOnError)
			fs.Int("n", 0, "`N` things")
			var out strings.Builder
			err := cli.ParseFlags(fs, usage, tt.args, &out)
			var ue cli.UsageError
			switch {
			case tt.wantErr == nil && err != nil,
				tt.wantErr == flag.ErrHelp && !errors.Is(err, flag.ErrHelp),
				tt.wantErr == cli.UsageError{} && !errors.As(err, &ue):
				t.Fatalf("ParseFlags(%q) = %v, want %v", tt.args, err, tt.wantErr)
			}
			if !strings.Contains(out.String(), tt.stdout) || tt.stdout == "" && out.Len() > 0 {
				t.Errorf("ParseFlags(%q) printed %q, want %q in it", tt.args, out.String(), tt.stdout)
			}
			if tt.name == "Version" && strings.HasPrefix(out.String(), "prog sub") {
				t.Errorf("-version printed %q, want the program's name alone", out.String())
			}
		})
	}
}

func TestReport(t *testing.T) {
	p := cli.Program{Name: "prog", UsageHint: "Run 'prog -h' for usage."}
	tests := []struct {
		name string
		err  error
		code int
		want string
	}{
		{"OK", nil, cli.ExitOK, ""},
		{"Help", flag.ErrHelp, cli.ExitOK, ""},
		{"Interrupted", cli.ErrInterrupted, cli.ExitInterrupted, ""},
		{"Cancelled", fmt.Errorf("export: %w", context.Canceled), cli.ExitInterrupted, "prog: interrupted\n"},
		{"Usage", cli.UsageError{Err: errors.New("bad -n")}, cli.ExitUsage, "prog: bad -n\nRun 'prog -h' for usage.\n"},
		{"Failure", errors.New("no bank"), cli.ExitFailure, "prog: no bank\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if code := p.Report(&b, tt.err); code != tt.code || b.String() != tt.want {
				t.Errorf("Report(%v) = %d, printing %q; want %d, %q", tt.err, code, b.String(), tt.code, tt.want)
			}
		})
	}
}
