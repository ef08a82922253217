package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"sudokubank/export"
	"sudokubank/internal/cli"
	"sudokubank/internal/plural"
	"sudokubank/store"
)

// outputFlags are the flags that say how and where puzzles are written:
// the format, the file, the credits and the PDF's options. export and
// packs export share them, so that a pack re-exported is written as
// carefully as it was the first time.
type outputFlags struct {
	fs                            *flag.FlagSet
	format, out, title            string
	author, sourceName, url, date string
	first                         int
	force                         bool
	pdf                           export.PDFOptions
}

// pdfFlags names the flags that only -format pdf takes.
var pdfFlags = []string{"page", "per-page", "bleed", "gutter", "large-print", "no-answers", "no-ids", "caption", "copyright", "symbols"}

// addOutputFlags registers the output flags on fs.
func addOutputFlags(fs *flag.FlagSet) *outputFlags {
	of := &outputFlags{fs: fs}
	fs.StringVar(&of.format, "format", "", "the file `format`: sdm, sdk, opensudoku, csv, json or pdf (required)")
	fs.StringVar(&of.out, "out", "", "the `file` to write (required); - for standard output")
	fs.StringVar(&of.title, "title", "", "the pack's `title`: the PDF's title page, the OpenSudoku folder, sdk's #D")
	fs.IntVar(&of.first, "first-number", 1, "number the puzzles from `N`")
	fs.StringVar(&of.pdf.Page, "page", "letter", "PDF trim `size`: "+strings.Join(export.PageSizes(), ", "))
	fs.IntVar(&of.pdf.PerPage, "per-page", 0, "PDF puzzles a page (`N`), one of "+strings.Trim(fmt.Sprint(export.PerPageCounts()), "[]")+" (default 4; in large print 2, or 1 where 2 is too small)")
	fs.BoolVar(&of.pdf.Bleed, "bleed", false, "PDF pages 0.125 in larger on their outer edges, for trimming")
	fs.StringVar(&of.pdf.Gutter, "gutter", "", "PDF extra inside margin for binding: auto (by page count) or a `length` such as 0.5in or 12mm")
	fs.BoolVar(&of.pdf.LargePrint, "large-print", false, "PDF puzzle digits of 16 pt or more, 1 or 2 puzzles a page (the answer key keeps its size)")
	fs.BoolVar(&of.pdf.NoAnswers, "no-answers", false, "PDF without the answer key")
	fs.BoolVar(&of.pdf.NoIDs, "no-ids", false, "PDF without each puzzle's bank ID under its grid and beside its answer")
	fs.StringVar(&of.pdf.Caption, "caption", export.CaptionFull, "PDF `label` beside a puzzle's number, one of "+strings.Join(export.Captions(), ", "))
	fs.StringVar(&of.pdf.Copyright, "copyright", "", "PDF copyright page `text`, after the title page")
	fs.StringVar(&of.pdf.Symbols, "symbols", export.SymbolsLetters, "PDF values above 9 in grids above 9x9 (`set`): letters (A-G), numbers (10-16) or a-p (every value a letter, A-P)")
	fs.BoolVar(&of.force, "force", false, "replace FILE if it exists")
	fs.StringVar(&of.author, "author", "", "credit the pack to this `name` (sdk, csv, json, pdf)")
	fs.StringVar(&of.sourceName, "source-name", "", "the pack's source, a collection or publisher `name` (sdk, csv, json, pdf)")
	fs.StringVar(&of.url, "url", "", "the pack's web address, http or https (`URL`; sdk, csv, json, pdf)")
	fs.StringVar(&of.date, "date", "", "the pack's `date`, YYYY-MM-DD (sdk, opensudoku, pdf; default none, a fixed time)")
	return of
}

// output is where and how n puzzles are written, its flags checked.
type output struct {
	bank   string // the bank, which the output must never replace
	path   string // -out: a file, a directory (DIR/) or - for standard output
	format export.Format
	opt    export.Options
	first  int // the first puzzle's number
	force  bool
}

// output checks the flags for writing n puzzles next to the bank at
// bank, and returns the output they ask for or a usage error naming the
// first bad flag.
func (of *outputFlags) output(bank string, n int) (output, error) {
	switch {
	case of.format == "":
		return output{}, usagef("-format: required (sdm, sdk, opensudoku, csv, json or pdf)")
	case of.out == "":
		return output{}, usagef("-out: required (a file, or - for standard output)")
	}
	fmtv, err := export.ParseFormat(of.format)
	if err != nil {
		return output{}, flagError("format", of.format, errors.New("want sdm, sdk, opensudoku, csv, json or pdf"))
	}
	if of.out == export.Stdout && fmtv == export.PDF {
		return output{}, usagef("-out -: standard output takes the text formats; write a pdf to a file")
	}
	if of.out == export.Stdout && fmtv == export.SDK && n > 1 {
		return output{}, usagef("-out -: %d sdk puzzles make a zip, not text; write it to a file, or to a directory with -out DIR/", n)
	}
	if export.IsDirOutput(of.out) && fmtv != export.SDK {
		return output{}, usagef("-out %s: a directory takes -format sdk (a file a puzzle); name a file for %s", of.out, fmtv)
	}
	opt := export.Options{Title: of.title, Author: of.author, SourceName: of.sourceName, URL: of.url,
		SDKZip: strings.EqualFold(filepath.Ext(of.out), ".zip"),
		PDF:    of.pdf}
	if of.date != "" {
		d, err := time.Parse(time.DateOnly, of.date)
		if err == nil {
			err = export.CheckDate(d)
		} else {
			err = errors.New("want a date as YYYY-MM-DD")
		}
		if err != nil {
			return output{}, flagError("date", of.date, err)
		}
		opt.Date = d
	}
	if of.url != "" {
		if err := export.CheckURL(of.url); err != nil {
			return output{}, flagError("url", of.url, err)
		}
	}
	if fmtv != export.PDF {
		for _, name := range pdfFlags {
			if isSet(of.fs, name) {
				return output{}, usagef("-%s: only with -format pdf", name)
			}
		}
	}
	if err := opt.Validate(fmtv); err != nil {
		if oe := (*export.OptionError)(nil); errors.As(err, &oe) {
			return output{}, optionError(oe)
		}
		return output{}, err
	}
	if of.first < 1 || of.first > maxFirstNumber {
		return output{}, flagError("first-number", fmt.Sprint(of.first), fmt.Errorf("want 1 to %d", maxFirstNumber))
	}
	for _, f := range []struct{ flag, value string }{{"title", of.title}, {"author", of.author}, {"source-name", of.sourceName}} {
		if err := store.CheckName(f.value); err != nil {
			return output{}, flagError(f.flag, f.value, err)
		}
	}
	return output{bank: bank, path: of.out, format: fmtv, opt: opt, first: of.first, force: of.force}, nil
}

// optionError is the usage error of an option export refuses, named as
// its flag: with its value, or for a switch (-large-print) without.
func optionError(oe *export.OptionError) error {
	if oe.Value == "" {
		return usagef("-%s: %w", oe.Name, oe.Err)
	}
	return flagError(oe.Name, oe.Value, oe.Err)
}

// ready fails early, with a usage error, when the output cannot go where
// it is asked to (see checkDestination): -out names something to fix on
// the command line. It warns of several sdk puzzles written as a zip
// under a name that does not say so.
func (o output) ready(e *env, n int) error {
	if err := checkDestination(o.path, o.bank, o.force); err != nil {
		return usageError{Err: err}
	}
	if o.format == export.SDK && n > 1 && !export.IsDirOutput(o.path) && o.path != export.Stdout && !strings.EqualFold(filepath.Ext(o.path), ".zip") {
		e.log.Warn("several sdk puzzles are written as a zip of .sdk files; name the file .zip, or end -out with / for a directory", "out", o.path, "count", n)
	}
	return nil
}

// destination returns the output's destination, for write and then
// Publish or Discard.
func (o output) destination(e *env) export.Pending {
	return export.NewPending(o.path, e.stdout, o.force)
}

// write makes rows, numbered from o.first, whole in dest, and then checks
// again that the destination may take them: the file may have been
// replaced by something else while it was written (Publish itself
// refuses only what force may not replace).
func (o output) write(ctx context.Context, dest export.Pending, rows []store.Row) error {
	if err := dest.Write(ctx, o.format, items(rows, o.first), o.opt); err != nil {
		// A directory's files are named only once the puzzles are
		// picked, so a pack file there that exists without -force, or
		// is a link or a device, is refused here and not by ready: it is
		// the same mistake on the command line, a usage error.
		if errors.Is(err, export.ErrExists) || errors.Is(err, export.ErrNotRegular) {
			return usageError{Err: forceHint(err)}
		}
		return forceHint(err)
	}
	return checkDestination(o.path, o.bank, o.force)
}

// forceHint adds to a refusal to replace a file (a file of an sdk
// directory, or one that appeared while the output was written) the flag
// that allows it.
func forceHint(err error) error {
	if errors.Is(err, export.ErrExists) {
		return fmt.Errorf("%w (use -force to replace it)", err)
	}
	return err
}

// save writes rows to the output and hands them over: the whole output
// or nothing.
func (o output) save(ctx context.Context, e *env, rows []store.Row) error {
	dest := o.destination(e)
	defer dest.Discard()
	if err := o.write(ctx, dest, rows); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write %s: %w", o.path, err)
	}
	if err := dest.Publish(); err != nil {
		// Part of a directory may be named by now: an interrupt at the
		// same moment must not hide it.
		return handOverError{forceHint(err)}
	}
	return nil
}

// unwritten says, for an interrupted command, that the output was left
// as it was: what Pending promises for any write that is not published.
func (o output) unwritten() string {
	if o.path == export.Stdout {
		return "nothing was written to standard output"
	}
	return o.path + " was not written"
}

// handOverError is a failure to hand over a finished output, or to undo
// the pack recorded for it: the user must hear of it even if a signal
// came at the same moment, since files or a pack may be left.
type handOverError struct{ error }

func (e handOverError) Unwrap() error { return e.error }

// interrupted turns err, the failure of the command named command once a
// signal has cancelled ctx, into cli.ErrInterrupted (exit status 130),
// after saying on stderr that it was interrupted and what it left, as
// bankgen reports its interrupted runs: the error itself ("context
// canceled", SQLite's "interrupted (9)") tells the user nothing. A
// handOverError is returned as it is.
func interrupted(ctx context.Context, e *env, command string, err error, left string) error {
	if err == nil || ctx.Err() == nil || errors.Is(err, cli.ErrInterrupted) || errors.As(err, new(handOverError)) {
		return err
	}
	msg := "bankquery " + command + ": interrupted"
	if left != "" {
		msg += ": " + left
	}
	fmt.Fprintln(e.stderr, msg)
	return cli.ErrInterrupted
}

// rowsFit refuses, as a usage error before any work, rows that the
// output cannot hold, as export refuses its -size: puzzles of another
// size than 9x9 in a format that holds 9x9 only, and grids too large for
// the PDF's page, -per-page or -large-print. what names the rows ("pack
// 3 \"acme\"") and command the command, for the formats it has.
func (o output) rowsFit(rows []store.Row, what, command, formats string) error {
	largest := 0
	for _, r := range rows {
		largest = max(largest, r.Size)
	}
	if largest == 0 {
		return nil
	}
	for _, r := range rows {
		if r.Size != 9 && export.NineOnly(o.format) {
			return usagef("-format %s: holds 9x9 puzzles only, and %s holds %dx%d puzzles; %s it as %s", o.format, what, r.Size, r.Size, command, formats)
		}
	}
	if o.format == export.PDF {
		if err := o.opt.PDF.ValidateSize(largest); err != nil {
			if oe := (*export.OptionError)(nil); errors.As(err, &oe) {
				return optionError(oe)
			}
			return err
		}
	}
	return nil
}

// sizeFits refuses, as a usage error, a -size that format f cannot hold
// (sdm, sdk and opensudoku hold 9x9 puzzles only), before any work; the
// message names the command and the formats it has that take the size.
func sizeFits(f export.Format, size int, command, formats string) error {
	if size != 0 && size != 9 && export.NineOnly(f) {
		return usagef("-format %s: holds 9x9 puzzles only; %s -size %d as %s", f, command, size, formats)
	}
	return nil
}

// report tells the user what was written: on stdout, or on stderr when
// stdout holds the puzzles.
func (o output) report(e *env, rows []store.Row, how string) {
	n := len(rows)
	what := plural.Count(int64(n), "puzzle")
	if o.format == export.PDF {
		if pages, err := export.PDFPagesOf(items(rows, o.first), o.opt); err == nil {
			what += ", " + plural.Count(int64(pages), "page")
		}
	}
	w, name := e.stdout, o.path
	if o.path == export.Stdout {
		// Standard output holds the pack; the report must not join it.
		w, name = e.stderr, "standard output"
	}
	fmt.Fprintf(w, "wrote %s (%s, %s); %s\n", name, o.format, what, how)
}
