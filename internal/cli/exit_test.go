package cli_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
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
