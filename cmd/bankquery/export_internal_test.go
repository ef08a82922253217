package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sudokubank/internal/cli"
)

// -count's parser never panics, and a per-level count it accepts names
// each level once with 1 or more puzzles, adds up, and reads back the
// same from its own text.
func FuzzCountFlag(f *testing.F) {
	for _, s := range []string{"10", "-4", "easy=10,medium=10,evil=5", "2=6,4=6", "easy=0", "easy=1,easy=2", "hard=3",
		"easy=", "=3", "easy=3,", "Evil = 2", "1=2147483647,2=2147483647", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var c countFlag
		if err := c.Set(s); err != nil {
			return
		}
		if c.levels == nil {
			return
		}
		sum := 0
		var seen []int
		for _, lc := range c.levels {
			if lc.Level < 1 || lc.Level > 5 || lc.N < 1 || slices.Contains(seen, lc.Level) {
				t.Fatalf("Set(%q) = %+v", s, c.levels)
			}
			seen = append(seen, lc.Level)
			sum += lc.N
		}
		if sum != c.total || c.total < 1 {
			t.Errorf("Set(%q): total %d, levels add up to %d", s, c.total, sum)
		}
		var again countFlag
		if err := again.Set(c.String()); err != nil || !slices.Equal(again.levels, c.levels) {
			t.Errorf("Set(%q) reads %q back as %+v, %v", s, c.String(), again.levels, err)
		}
	})
}

// A failure to hand over a finished output, or to undo its pack, is
// reported as it is even when a signal came at the same moment: a pack
// or files may be left, which "interrupted" would hide.
func TestInterruptedKeepsHandOverErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr strings.Builder
	e := &env{stderr: &stderr}
	left := handOverError{errors.New("write a.pdf: file exists; and the pack 3 it was recorded as could not be deleted")}
	if err := interrupted(ctx, e, "export", fmt.Errorf("export: %w", left), "a.pdf was not written"); !errors.As(err, new(handOverError)) || stderr.Len() > 0 {
		t.Errorf("interrupted(hand-over failure) = %v, printing %q; want the failure, nothing printed", err, stderr.String())
	}
	if err := interrupted(ctx, e, "export", context.Canceled, "a.pdf was not written"); !errors.Is(err, cli.ErrInterrupted) || stderr.String() != "bankquery export: interrupted: a.pdf was not written\n" {
		t.Errorf("interrupted(context.Canceled) = %v, printing %q", err, stderr.String())
	}
}
