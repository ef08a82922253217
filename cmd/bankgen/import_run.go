package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"sudokubank/grid"
	"sudokubank/internal/cli"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

// importCounts tallies an import's lines by outcome.
type importCounts struct {
	lines, unparseable, noSolution, several, undecided, failed int64
}

// importFile runs an import with options o.
func importFile(ctx context.Context, o importOptions, args []string, stdout, stderr io.Writer, stdin io.Reader) (err error) {
	log := newLogger(stderr)
	in := stdin
	if o.file != "-" {
		f, err := os.Open(o.file)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	db, seen, _, err := openBank(ctx, o.db, grid.Shape{}, log, 1, o.sync.full)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close bank %s: %w", o.db, cerr)
		}
	}()
	runID, err := db.StartRun(ctx, store.Run{
		Kind: store.RunImport, Source: o.source, Args: append([]string{"import"}, args...),
		Params: "import " + strings.Join(args, " "), CodeVersion: codeVersion(),
	})
	if err != nil {
		return fmt.Errorf("bank %s: %w", o.db, err)
	}

	var n importCounts
	stats := new(pipeline.Stats)
	stop := startProgress(ctx, o.quiet, stats, -1, stderr, log)
	sum, runErr := pipeline.Execute(ctx, pipeline.Config[pipeline.Line, store.NewFamily]{
		Workers: o.workers,
		Produce: pipeline.Records(in),
		NewWorker: func() pipeline.Work[pipeline.Line, store.NewFamily] {
			return pipeline.NewImporter(o.source, seen).Import
		},
		Seen:           seen,
		KeepDuplicates: true,
		Write:          pipeline.Writer(db),
		OnResult: func(l pipeline.Line, r *pipeline.Result[store.NewFamily]) {
			n.lines++
			switch r.Reason {
			case pipeline.Failed:
				n.failed++
			case pipeline.Invalid:
				switch {
				case errors.Is(r.Err, solve.ErrNoSolution):
					n.noSolution++
				case errors.Is(r.Err, solve.ErrMultipleSolutions):
					n.several++
				case errors.Is(r.Err, pipeline.ErrUndecided):
					n.undecided++
				default:
					n.unparseable++
				}
				fmt.Fprintf(stderr, "%s: %v; skipped\n", l.Where(o.file), r.Err)
			}
		},
		Describe: func(l pipeline.Line) []any { return []any{"at", l.Where(o.file), "text", l.Text} },
		Log:      log,
		Stats:    stats,
	})
	stop()
	if runErr == nil && !sum.Interrupted && n.puzzles() == 0 {
		// Nothing was a puzzle: most likely a file of another kind. The
		// run is recorded as failed, with the reason.
		runErr = fmt.Errorf("no line of %s was a puzzle with one solution (%d lines read)", o.file, n.lines)
	}
	if err := pipeline.FinishRun(ctx, db, runID, &sum, runErr); err != nil && runErr == nil {
		runErr = err
	}
	// The new families are the ones this run committed: another run
	// importing the same file at the same time stores some of them first.
	fmt.Fprintf(stdout, "bankgen import: %s: %d puzzles read from %s in %s: %d new families, %d of families the bank had (%d puzzles stored in all, %d already stored)\n",
		runStatus(sum, runErr), n.lines, o.file, seconds(sum.Elapsed), sum.Families, sum.Duplicates, sum.Puzzles, sum.DupPuzzles)
	undecided := ""
	if n.undecided > 0 {
		undecided = fmt.Sprintf(", %d whose uniqueness was not decided", n.undecided)
	}
	fmt.Fprintf(stdout, "  skipped: %d unparseable, %d with no solution, %d with several solutions%s, %d failed\n",
		n.unparseable, n.noSolution, n.several, undecided, n.failed)
	fmt.Fprintf(stdout, "  new families per level: %s; source %q, run %d\n", cli.LevelString(sum.Levels), o.source, runID)
	if runErr != nil {
		return runErr
	}
	if sum.Interrupted {
		return errInterrupted
	}
	if rejected := n.lines - n.puzzles(); o.strict && rejected > 0 {
		return fmt.Errorf("-strict: %d of %d lines rejected (the others are stored)", rejected, n.lines)
	}
	return nil
}

// puzzles is how many lines were puzzles with one solution that the
// import graded or found in the bank.
func (n importCounts) puzzles() int64 {
	return n.lines - n.unparseable - n.noSolution - n.several - n.undecided - n.failed
}
