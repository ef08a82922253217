package main_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bankquery "sudokubank/cmd/bankquery"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/readme"
	"sudokubank/pipeline"
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
	mustAddSizes(t, bank)
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

// mustAddSizes adds to the bank at path the families of other sizes that
// the README's commands of those sizes ask for: 6x6 of any level, and
// 16x16 easy ones.
func mustAddSizes(tb testing.TB, path string) {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		n, count int
		levels   []grade.Level
	}{{6, 30, nil}, {16, 10, []grade.Level{grade.Easy}}} {
		shape, err := grid.ShapeOf(c.n)
		if err != nil {
			tb.Fatal(err)
		}
		seen, _, err := pipeline.LoadBank(ctx, db, shape)
		if err != nil {
			tb.Fatal(err)
		}
		_, err = pipeline.Generate(ctx, db, pipeline.GenerateConfig{
			BuildOptions: pipeline.BuildOptions{Shape: shape, Seen: seen},
			Seed:         1, Target: pipeline.Count(c.count, c.levels), Workers: 2,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}
