// Command bankserve serves a puzzle bank to apps over HTTP, as JSON:
// statistics, pages of puzzles by filter, random picks, a puzzle with its
// hints, a puzzle of the day and exports. It opens the bank read-only, so
// it may run while bankgen adds to the same bank.
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
		fmt.Fprintf(os.Stderr, "bankserve: %v\n", err)
	}
	os.Exit(cli.ExitCode(err))
}
