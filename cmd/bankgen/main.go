// Command bankgen builds a bank of graded Sudoku puzzles in a SQLite file,
// and imports outside puzzles into it. Run "bankgen -h" and
// "bankgen import -h" for the flags.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		fmt.Fprintln(os.Stderr, "bankgen: stopping: writing what is done (interrupt again to quit at once)")
		cancel()
		<-sigs
		os.Exit(130)
	}()
	os.Exit(exitCode(Run(ctx, os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
}
