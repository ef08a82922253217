// Command bankquery answers questions about a puzzle bank and exports
// puzzle packs from it: statistics, lists by difficulty, single puzzles
// with their grade, pack exports in every format of package export, and
// the record of the packs made so far.
package main

import (
	"context"
	"fmt"
	"os"

	"sudokubank/internal/cli"
)

func main() {
	ctx, stop := cli.NotifyContext(context.Background(), nil)
	err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bankquery: %v\n", err)
	}
	os.Exit(ExitCode(err))
}
