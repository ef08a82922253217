package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"sudokubank/grid"
	"sudokubank/internal/cli"
	"sudokubank/internal/plural"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

// importCounts tallies an import's records by outcome.
type importCounts struct {
	lines, unparseable, noSolution, several, undecided, failed int64
	// files counts the files that could not be read, the input itself
	// (a gzip, a PDF, a zip that cannot be opened) or a file in a zip:
	// such a file is no record, and is counted neither read nor refused.
	files int64
	// whole is why the input itself could not be read, or nil.
	whole error
}

// importFile runs an import with options o.
func importFile(ctx context.Context, o importOptions, args []string, stdout, stderr io.Writer, stdin io.Reader) (err error) {
	log := newLogger(stderr)
	in := stdin
	if o.file != "-" {
		// Opened before the bank, so that a file this process may not
		// read fails the import before a bank is made or a run recorded.
		f, err := os.Open(o.file)
		if err != nil {
			return fmt.Errorf("%s: %w", o.file, cli.Reason(err))
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
			if l.No == 0 && r.Reason == pipeline.Invalid {
				// A whole file, not a record: the input's reason is the
				// import's error; a zip's file's says it was not read.
				n.files++
				if l.Member == "" {
					n.whole = r.Err
					return
				}
				fmt.Fprintf(stderr, "%s: %v\n", l.Where(o.file), r.Err)
				return
			}
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
				fmt.Fprintf(stderr, "%s: %v; refused\n", l.Where(o.file), r.Err)
			}
		},
		Describe: func(l pipeline.Line) []any { return []any{"at", l.Where(o.file), "text", l.Text} },
		// A record that failed is counted as refused, as the summary
		// says, not skipped as a generated item is.
		Dropped: "refused",
		Log:     log,
		Stats:   stats,
	})
	stop()
	// The pipeline counted each file not read as an invalid record; the
	// run records the records it rejected.
	sum.Invalid -= n.files
	var inputErr *pipeline.InputError
	switch {
	case errors.As(runErr, &inputErr):
		// The records read before the failure were imported, as if the
		// input had ended there: the summary counts them.
		runErr = readError(o.file, inputErr.Err, n.lines)
	case runErr != nil || sum.Interrupted:
	case n.whole != nil:
		runErr = fmt.Errorf("%s: %w", inputName(o.file), n.whole)
	case n.lines == 0:
		// An empty file, or one of comments or of files not read: no
		// record to be a puzzle. The run is recorded as failed.
		runErr = fmt.Errorf("%s holds no record%s", inputName(o.file), n.notRead(": "))
	case n.puzzles() == 0:
		// Nothing was a puzzle: most likely a file of another kind. The
		// run is recorded as failed, with the reason.
		runErr = fmt.Errorf("no record of %s was a puzzle with one solution (%s read%s)", o.file, plural.Count(n.lines, "record"), n.notRead(", "))
	}
	if err := pipeline.FinishRun(ctx, db, runID, &sum, runErr); err != nil && runErr == nil {
		runErr = err
	}
	printImportSummary(stdout, o, runID, n, sum, runErr)
	if runErr != nil {
		return runErr
	}
	if sum.Interrupted {
		return errInterrupted
	}
	if refused := n.refused(); o.strict && (refused > 0 || n.files > 0) {
		return fmt.Errorf("-strict: %d of %s refused%s (the others were imported)", refused, plural.Count(n.lines, "record"), n.notRead(" and "))
	}
	return nil
}

// readError is the error of an import whose input failed to read after
// records records: it names the input once, as inputName does (not its
// path again, nor /dev/stdin), and says what the import did.
func readError(file string, err error, records int64) error {
	msg := err.Error()
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		msg = strings.Replace(msg, pe.Error(), pe.Err.Error(), 1)
	}
	if records == 0 {
		return fmt.Errorf("%s: %s: nothing was imported", inputName(file), msg)
	}
	return fmt.Errorf("%s: %s: the import stopped there, after %s; the puzzles among them are stored",
		inputName(file), msg, plural.Count(records, "record"))
}

// inputName names the input file in a message: "standard input" for -.
func inputName(file string) string {
	if file == "-" {
		return "standard input"
	}
	return file
}

// notRead is ", 2 files could not be read" after sep, or "" when every
// file was read.
func (n importCounts) notRead(sep string) string {
	if n.files == 0 {
		return ""
	}
	return sep + plural.Count(n.files, "file") + " could not be read"
}

// printImportSummary reports what an import did: the records read, how
// many were puzzles and what became of them, and how many were refused
// and why. Each refusal was reported on stderr as it was met.
func printImportSummary(w io.Writer, o importOptions, runID int64, n importCounts, sum pipeline.Summary, runErr error) {
	fmt.Fprintf(w, "bankgen import: %s: %s read from %s in %s: %s, %d refused%s\n",
		runStatus(sum, runErr), plural.Count(n.lines, "record"), o.file, seconds(sum.Elapsed), plural.Count(n.puzzles(), "puzzle"), n.refused(), n.notRead("; "))
	// The new families are the ones this run committed: another run
	// importing the same file at the same time stores some of them first.
	fmt.Fprintf(w, "  puzzles: %s, %s the bank had (%s stored in all, %d already stored)\n",
		plural.Count(sum.Families, "new family"), plural.Count(sum.Duplicates, "family"), plural.Count(sum.Puzzles, "puzzle"), sum.DupPuzzles)
	undecided := ""
	if n.undecided > 0 {
		undecided = fmt.Sprintf(", %d whose uniqueness was not decided", n.undecided)
	}
	where := ""
	if n.refused() > 0 {
		where = "; each reported on stderr with its place"
	}
	fmt.Fprintf(w, "  refused: %d unparseable, %d with no solution, %d with several solutions%s, %d failed%s\n",
		n.unparseable, n.noSolution, n.several, undecided, n.failed, where)
	fmt.Fprintf(w, "  new families per level: %s; source %q, run %d\n", cli.LevelString(sum.Levels), o.source, runID)
}

// refused is how many records were not taken: not a puzzle, not one
// with one solution, or failed.
func (n importCounts) refused() int64 { return n.lines - n.puzzles() }

// puzzles is how many records were puzzles with one solution that the
// import graded or found in the bank.
func (n importCounts) puzzles() int64 {
	return n.lines - n.unparseable - n.noSolution - n.several - n.undecided - n.failed
}
