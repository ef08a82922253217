package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"sudokubank/internal/plural"
	"sudokubank/store"
)

const runsUsage = `Usage: bankquery runs [-db puzzles.db] [-json]

Runs lists the runs that wrote to the bank, oldest first: each one's
kind (generate, import or merge), how it ended (completed, interrupted,
failed, or still running), its source ("gen" for the generator, the
collection's name for an import), when it started and ended, what it
added and what it skipped, its command line, seed and the code that
ran it. A run that added nothing is listed all the same and says so.
Runs recorded before the bank kept their command lines (schema 11) show
their parameters instead. -json prints one JSON object a line.

Examples:
  bankquery runs
  bankquery runs -json | jq 'select(.kind == "import")'
`

func runRuns(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery runs", flag.ContinueOnError)
	db := dbFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object a run, a line each")
	bank, err := parseAndOpen(ctx, e, fs, runsUsage, args, db)
	if bank == nil {
		return err
	}
	defer bank.Close()
	runs, err := bank.Runs(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, r := range runs {
			if err := enc.Encode(makeRunJSON(r)); err != nil {
				return err
			}
		}
		return nil
	}
	return printRuns(e.stdout, *db, runs)
}

// makeRunJSON is run r as runs -json and stats -json print it.
func makeRunJSON(r store.Run) runJSON {
	j := runJSON{
		ID: r.ID, Kind: r.Kind, Source: r.Source, Args: r.Args, Status: r.Status, Seed: r.Seed,
		CodeVersion: r.CodeVersion, StartedAt: r.StartedAt.UTC().Format(time.RFC3339),
		Families: r.Families, Puzzles: r.Puzzles, DupFamilies: r.DupFamilies, DupPuzzles: r.DupPuzzles,
		Rejected: r.Rejected, AddedNothing: r.AddedNothing(), Message: r.Message, Params: r.Params,
		ProcessEnded: r.Gone,
	}
	if j.Args == nil {
		j.Args = []string{}
	}
	if !r.EndedAt.IsZero() {
		j.EndedAt = r.EndedAt.UTC().Format(time.RFC3339)
	}
	return j
}

// runTime is how runs prints a run's start and end: UTC to the second.
const runTime = "2006-01-02 15:04:05 UTC"

// printRuns prints the runs of the bank at path as text, a block each.
func printRuns(w io.Writer, path string, runs []store.Run) error {
	var b strings.Builder
	if len(runs) == 0 {
		fmt.Fprintf(&b, "no runs have written to %s\n", path)
	}
	for i, r := range runs {
		if i > 0 {
			b.WriteByte('\n')
		}
		status := r.Status
		if r.Gone {
			status += ", but its process has ended (killed?): the next bankgen on the bank records it"
		}
		fmt.Fprintf(&b, "run %d: %s, %s\n", r.ID, r.Kind, status)
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  source\t%s\n", orDash(printable(r.Source)))
		ended := "-"
		if !r.EndedAt.IsZero() {
			ended = r.EndedAt.UTC().Format(runTime)
		}
		fmt.Fprintf(tw, "  started\t%s, ended %s\n", r.StartedAt.UTC().Format(runTime), ended)
		if r.AddedNothing() {
			fmt.Fprintf(tw, "  added\tnothing\n")
		} else {
			fmt.Fprintf(tw, "  added\t%s, %s\n", plural.Count(r.Families, "family"), plural.Count(r.Puzzles, "puzzle"))
		}
		fmt.Fprintf(tw, "  skipped\t%s and %s the bank had, %d rejected\n", plural.Count(r.DupFamilies, "family"), plural.Count(r.DupPuzzles, "puzzle"), r.Rejected)
		if len(r.Args) > 0 || r.Params == "" {
			fmt.Fprintf(tw, "  command\t%s\n", commandLine(r.Args))
		} else {
			fmt.Fprintf(tw, "  parameters\t%s\n", printable(r.Params))
		}
		if r.Kind == store.RunGenerate {
			fmt.Fprintf(tw, "  seed\t%d\n", r.Seed)
		}
		fmt.Fprintf(tw, "  code\t%s\n", orDash(printable(r.CodeVersion)))
		if r.Message != "" {
			fmt.Fprintf(tw, "  message\t%s\n", printable(r.Message))
		}
		tw.Flush()
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// commandLine writes a run's arguments as a shell command a user can
// paste: "bankgen" and each argument, quoted where the shell would
// split or expand it.
func commandLine(args []string) string {
	parts := []string{"bankgen"}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell: as it is when it holds only
// characters no shell treats specially, else in single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/=:+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
