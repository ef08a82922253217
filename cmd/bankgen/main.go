// Command bankgen builds a bank of graded Sudoku puzzles in a SQLite file,
// and imports outside puzzles into it. Run "bankgen -h" and
// "bankgen import -h" for the flags.
package main

import (
	"context"
	"fmt"
	"os"

	"sudokubank/internal/cli"
)

func main() {
	ctx, _ := cli.NotifyContext(context.Background(), func() {
		fmt.Fprintln(os.Stderr, "bankgen: stopping: writing what is done (interrupt again to quit at once)")
	})
	os.Exit(exitCode(Run(ctx, os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
}
