package main_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bankquery "sudokubank/cmd/bankquery"
	"sudokubank/internal/readme"
	"sudokubank/store"
)

// TestReadmeCommands runs every bankquery command of the README and the
// docs, in order and as written, in a directory that holds the fixture
// bank as puzzles.db (and under any other name a command's -db gives).
// A command must succeed. An export of more puzzles than the fixture's
// 150 families can fill fails after it has taken every flag and run its
// query; it is run again with -count 10, and must then write its file.
func TestReadmeCommands(t *testing.T) {
	bank := MustBank(t)
	dir := filepath.Dir(bank)
	cmds, err := readme.ToolCommands("../..", "bankquery")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, c := range cmds {
		args := c.ToolArgs
		if db := dbOf(args); db != "" {
			MustCopyBank(t, bank, db)
		}
		var stderr strings.Builder
		err := bankquery.Run(context.Background(), args, io.Discard, &stderr)
		if errors.Is(err, store.ErrNotEnough) && len(args) > 0 && args[0] == "export" {
			t.Logf("%s:%d: %s: %v; again with -count 10", c.File, c.Line, c.Command, err)
			err = bankquery.Run(context.Background(), withCount(args, "10"), io.Discard, &stderr)
		}
		if err != nil {
			t.Errorf("%s:%d: %s: %v\n%s", c.File, c.Line, c.Command, err, stderr.String())
		}
	}
	if len(cmds) == 0 {
		t.Error("the README shows no bankquery command")
	}
}

// dbOf returns the bank a command line names with -db, or "".
func dbOf(args []string) string {
	for i, a := range args {
		switch {
		case a == "--":
			return ""
		case a == "-db" || a == "--db":
			if i+1 < len(args) {
				return args[i+1]
			}
		case strings.HasPrefix(a, "-db=") || strings.HasPrefix(a, "--db="):
			_, v, _ := strings.Cut(a, "=")
			return v
		}
	}
	return ""
}

// withCount returns args with the value of -count replaced by n.
func withCount(args []string, n string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		switch {
		case (a == "-count" || a == "--count") && i+1 < len(out):
			out[i+1] = n
		case strings.HasPrefix(a, "-count=") || strings.HasPrefix(a, "--count="):
			out[i] = "-count=" + n
		}
	}
	return out
}

// MustCopyBank copies the closed bank at from to the file to, unless it
// exists.
func MustCopyBank(tb testing.TB, from, to string) {
	tb.Helper()
	if _, err := os.Stat(to); err == nil {
		return
	}
	b, err := os.ReadFile(from)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}
