package cli

import (
	"context"
	"fmt"
	"io"
	"os"
)

// Main runs a command's Run with the process's arguments and standard
// streams, cancelling its context on SIGINT or SIGTERM (a second signal
// ends the process), prints a failure as "name: error" on stderr, and
// exits with the status ExitCode gives.
func Main(name string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	ctx, stop := NotifyContext(context.Background(), nil)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	}
	os.Exit(ExitCode(err))
}
