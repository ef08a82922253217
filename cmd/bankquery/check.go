package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"sudokubank/internal/plural"
	"sudokubank/solve"
)

const checkUsage = `Usage: bankquery check [-db puzzles.db] [-quick]

Check reads the whole bank and prints each problem it finds: damaged
pages and indexes (SQLite's integrity_check), references to missing
rows, a canonical form or a puzzle stored twice, counters that disagree
with the rows they count, runs whose records do not read, families whose
key is not their form's or whose solution does not agree with their form,
and stored puzzles whose grids do not decode, whose solution does not
agree with their givens or is not their only solution, or whose sort key
is not their string's, and values of integer columns that are not
integers (a key turned to text). It changes nothing.

-quick runs SQLite's quick_check instead of integrity_check (it does not
compare the indexes with their tables) and skips the families, the
puzzles and the integer columns; bankgen and a recorded export run quick_check alone on each bank
they open, and bankgen merge checks a shard's families and puzzles too,
but for the count of their solutions.
The exit status is 1 when a problem is found.

Examples:
  bankquery check
  bankquery check -db /data/puzzles.db -quick
`

// errProblems is check's error when the bank has problems, which it has
// printed.
var errProblems = errors.New("the bank has problems")

func runCheck(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery check", flag.ContinueOnError)
	db := dbFlag(fs)
	quick := fs.Bool("quick", false, "quick_check, and no check of each puzzle")
	bank, err := parseAndOpen(ctx, e, fs, checkUsage, args, db)
	if bank == nil {
		return err
	}
	defer bank.Close()
	r, err := bank.CheckSized(ctx, *quick, new(solve.Sized).Count)
	if err != nil {
		return err
	}
	for _, p := range r.Problems {
		fmt.Fprintln(e.stdout, p)
	}
	if r.More > 0 {
		fmt.Fprintf(e.stdout, "... and %s more\n", plural.Count(int64(r.More), "problem"))
	}
	if !r.OK() {
		return fmt.Errorf("check %s: %s: %w", *db, plural.Count(int64(len(r.Problems)+r.More), "problem"), errProblems)
	}
	fmt.Fprintf(e.stdout, "%s: ok\n", *db)
	return nil
}
