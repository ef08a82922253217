package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"sudokubank/internal/cli"
	"sudokubank/internal/version"
	"sudokubank/store"
)

// exitUsage is the exit status of a mistake in the command line.
const exitUsage = cli.ExitUsage

// usageError is an error in the command line; it exits with status 2.
type usageError = cli.UsageError

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return usageError{Err: fmt.Errorf(format, args...)}
}

// ExitCode returns the process exit status for an error Run returned:
// 0 for nil, 2 for a mistake in the command line, 130 when it was
// interrupted, 1 for anything else (not enough matching puzzles among
// them).
func ExitCode(err error) int { return cli.ExitCode(err) }

// program is bankquery as its main runs it.
var program = cli.Program{
	Name:      "bankquery",
	UsageHint: "Run 'bankquery -h' or 'bankquery COMMAND -h' for usage.",
	Run:       Run,
}

// command is one subcommand: its name, a one-line summary for the main
// usage text, and the function that runs it with the arguments after its
// name.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// env is what every subcommand gets: the standard streams and the
// logger.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	log            *slog.Logger
	// bank is the bank the command opened, for Run to name when the
	// command fails on damage to it.
	bank string
}

func commands() []command {
	return []command{
		{"stats", "counts per level and givens, families, packs and runs", runStats},
		{"list", "list the puzzles that match the filters", runList},
		{"show", "show one puzzle, its solution, grade and step-by-step hint path", runShow},
		{"grade", "grade any puzzles, and say whether the bank holds them or an isomorph", runGrade},
		{"export", "write a pack of puzzles to a file and record it", runExport},
		{"packs", "list, show, re-export and release the packs exported so far", runPacks},
		{"runs", "list the runs that wrote to the bank: generations, imports and merges", runRuns},
		{"check", "check the whole bank for damage and counters that disagree with the rows", runCheck},
	}
}

const mainUsage = `bankquery answers questions about a puzzle bank and exports puzzle packs.

Usage:

	bankquery <command> [flags] [arguments]

Commands:
%s
Run "bankquery <command> -h" for the flags and examples of a command,
and "bankquery -version" for the version and build revision.

Exit status: 0 when done, 1 when the command failed (no bank, not
enough matching puzzles, a write error), 2 for a mistake in the command
line (unknown flag, bad filter value), 130 when interrupted.
`

func printMainUsage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&b, "\t%-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, mainUsage, b.String())
}

// Run runs bankquery with the command-line arguments args (without the
// program name), writing results to stdout and messages to stderr. Its
// error, if any, is for the caller to print; ExitCode maps it to the
// process's exit status. Run never exits the process.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	e := &env{
		stdin:  os.Stdin,
		stdout: stdout,
		stderr: stderr,
		log:    slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if len(args) == 0 {
		printMainUsage(stderr)
		return usagef("no command given")
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		printMainUsage(stdout)
		return nil
	case "-version", "--version", "version":
		return version.Read().Write(stdout, "bankquery")
	}
	var names []string
	for _, c := range commands() {
		if c.name == name {
			// The commands that write say what an interrupt left
			// themselves; the others only read.
			err := interrupted(ctx, e, name, c.run(ctx, e, args[1:]), "")
			if e.bank != "" && name != "check" {
				// Damage any read met is said as such, with the command
				// that lists it all: check reports its own.
				err = store.Damaged(e.bank, err)
			}
			return err
		}
		names = append(names, c.name)
	}
	return usagef("unknown command %q (commands: %s)", name, strings.Join(names, ", "))
}

// helped turns flag.ErrHelp, which cli.ParseFlags returns after -h or
// -version, into success.
func helped(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

// parseAndOpen parses the flags of a subcommand that takes no arguments
// and opens the bank *db names for reading. After -h it returns a nil
// bank and no error: the caller has nothing more to do.
func parseAndOpen(ctx context.Context, e *env, fs *flag.FlagSet, usage string, args []string, db *string) (*store.DB, error) {
	if err := cli.ParseFlags(fs, usage, args, e.stdout); err != nil {
		return nil, helped(err)
	}
	if err := noArgs(fs); err != nil {
		return nil, err
	}
	return openReadOnly(ctx, e, *db)
}

// openReadOnly opens the bank at path for reading. A missing file is an
// error, and the bank is never created.
func openReadOnly(ctx context.Context, e *env, path string) (*store.DB, error) {
	if err := checkBankPath(path); err != nil {
		return nil, err
	}
	e.bank = path
	return store.OpenReadOnly(ctx, path)
}

// openWriter opens the bank at path for writing. As openReadOnly does,
// it refuses, unchanged, a missing or empty file and one that is not a
// bank: bankquery uses banks, and only bankgen makes them.
func openWriter(ctx context.Context, e *env, path string) (*store.DB, error) {
	if err := checkBankPath(path); err != nil {
		return nil, err
	}
	e.bank = path
	// The store logs a migration at Info, which e.log (Warn: bankquery's
	// answers are its output) would drop; a migration is one-way (an older
	// bankgen refuses the bank after it) and takes seconds on a big bank,
	// so a writer says so, as bankgen does.
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	return store.Open(ctx, path, store.Options{Log: log, MustExist: true})
}

// checkBankPath is the check both opens make before the store's: a bank
// is named, and the file is there.
func checkBankPath(path string) error {
	if path == "" {
		return usagef("-db: no bank named")
	}
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("open bank %s: %w", path, cli.Reason(err))
	}
	if st.Mode().IsRegular() && st.Size() == 0 {
		// bankgen makes a new bank in an empty file, as in a missing one.
		return fmt.Errorf("open bank %s: empty file (0 bytes), no bank yet (bankgen -db %s makes one in it): %w", path, path, store.ErrNotBank)
	}
	return nil
}

// dbFlag registers the -db flag every subcommand has.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "puzzles.db", "the bank `file` to read")
}

// noArgs fails when fs has positional arguments left.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (flags go before arguments; see -h)", fs.Arg(0))
	}
	return nil
}
