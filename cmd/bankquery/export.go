package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"sudokubank/export"
	"sudokubank/store"
)

const exportUsage = `Usage: bankquery export [-db puzzles.db] [filters] -count N -format FORMAT -out FILE
                        [-pack NAME] [-client NAME] [-order rating|random|id] [-seed S]
                        [-title TEXT] [-first-number N] [-force] [-no-record]
                        [-page SIZE] [-per-page N] [-bleed] [-gutter auto|LENGTH] [-large-print]
                        [-no-answers] [-caption WHAT] [-copyright TEXT]
                        [-author NAME] [-source-name NAME] [-url URL] [-date YYYY-MM-DD]

Export writes a pack of N puzzles that match the filters, never two of
one family, to FILE in one of the formats: sdm (one puzzle a line), sdk
(SadMan/SudoCue, one puzzle a file: a pack of several is a zip of
0001.sdk, 0002.sdk, ..., or with -out DIR/ a directory of them),
opensudoku (the Android app's XML), csv (with a header), json (JSON
Lines) or pdf (a print-ready book with an answer key).

-author, -source-name and -url credit the pack, and -date dates it, in
the formats with room for them: sdk's #A, #S, #U and #B headers, and
author, source_name and url columns (keys) in csv and json; -date also
dates the OpenSudoku games and the zip's files (without it they get a
fixed time, so that the same pack gives the same bytes).

The puzzles are a random sample of those that match: the same -seed on
the same bank picks the same puzzles (without -seed one is drawn and
printed to stderr). -order sets their order in the pack: rating (the
default, rising difficulty), random (the sample's order) or id.

Every export is recorded in the bank as a pack, so that what left the
building is remembered: under -pack NAME, or else under an automatic
name "export-<UTC time>-<file name>". With -client NAME the pack's
families are reserved to that client: no later export for another
client, and none with -fresh, can pick them, and the client is not given
a family a pack already gave them. -no-record writes the file and
records nothing (the bank stays read-only); it still never picks a
reserved family, and it takes neither -pack nor -client.

The file is written whole or not at all: a temporary file beside it is
filled and synced while the pack is recorded, and it takes the name only
once the pack is committed; if anything fails, nothing is recorded and no
file is left. An existing file is replaced only with -force, and only a
regular file: never the bank or its -wal and -shm files, a device, a
named pipe or a symbolic link. -out - writes a text format to standard
output instead, once the pack is recorded, and the report to stderr.
While the file is written the bank is locked for writing (readers carry
on).

The pdf options make a book for print on demand: -page picks the trim
size, -bleed adds 0.125 in on the outer edges, -gutter widens the inside
margin for the binding (auto sizes it by page count), -large-print sets
the digits at 16 pt or more, one or two puzzles a page. The answer key
starts on a right-hand page. -first-number numbers the puzzles from N in
every format.

Exit status 1 when fewer than N puzzles match (the message says how many
did), 2 for a bad flag or value.

` + filterUsage + `
Examples:
  bankquery export -level evil -count 100 -format pdf -out evil.pdf -title "Evil Sudoku"
  bankquery export -rating 7.0-9.9 -givens 22-26 -count 500 -format csv -out acme.csv \
      -pack acme-2026-11 -client acme
  bankquery export -level easy,medium -fresh -count 10000 -format sdm -out easy.sdm -seed 7
  bankquery export -level difficult -count 60 -format pdf -page 6x9 -per-page 1 -out book.pdf
  bankquery export -level easy -count 100 -format pdf -page 8.5x11 -large-print -bleed -gutter auto \
      -title "Large Print Sudoku" -copyright "Copyright 2026 Acme Books" -out large.pdf
  bankquery export -level easy -count 20 -format json -out - -no-record | jq .puzzle
`

// maxFirstNumber bounds -first-number: numbers that fit a label.
const maxFirstNumber = 1_000_000_000

func runExport(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "export", exportUsage)
	db := dbFlag(fs)
	ff := addFilterFlags(fs)
	count := fs.Int("count", 0, "the number of puzzles in the pack (`N`, required)")
	format := fs.String("format", "", "the file `format`: sdm, sdk, opensudoku, csv, json or pdf (required)")
	out := fs.String("out", "", "the `file` to write (required); - for standard output")
	packName := fs.String("pack", "", "record the pack under this `name` (default: an automatic name)")
	client := fs.String("client", "", "reserve the pack's families to this `client`")
	order := fs.String("order", "rating", "the order in the pack: `rating` (rising), random or id")
	seed := fs.Uint64("seed", 0, "the sample's `seed` (default: drawn at random and printed to stderr)")
	title := fs.String("title", "", "the pack's `title`: the PDF's title page, the OpenSudoku folder, sdk's #D")
	firstNumber := fs.Int("first-number", 1, "number the puzzles from `N`")
	var pdf export.PDFOptions
	fs.StringVar(&pdf.Page, "page", "letter", "PDF trim `size`: "+strings.Join(export.PageSizes(), ", "))
	fs.IntVar(&pdf.PerPage, "per-page", 0, "PDF puzzles a page (`N`), one of "+strings.Trim(fmt.Sprint(export.PerPageCounts()), "[]")+" (default 4; in large print 2, or 1 where 2 is too small)")
	fs.BoolVar(&pdf.Bleed, "bleed", false, "PDF pages 0.125 in larger on their outer edges, for trimming")
	fs.StringVar(&pdf.Gutter, "gutter", "", "PDF extra inside margin for binding: auto (by page count) or a `length` such as 0.5in or 12mm")
	fs.BoolVar(&pdf.LargePrint, "large-print", false, "PDF digits of 16 pt or more, 1 or 2 puzzles a page")
	fs.BoolVar(&pdf.NoAnswers, "no-answers", false, "PDF without the answer key")
	fs.StringVar(&pdf.Caption, "caption", export.CaptionFull, "PDF `label` beside a puzzle's number, one of "+strings.Join(export.Captions(), ", "))
	fs.StringVar(&pdf.Copyright, "copyright", "", "PDF copyright page `text`, after the title page")
	force := fs.Bool("force", false, "replace FILE if it exists")
	noRecord := fs.Bool("no-record", false, "record nothing in the bank")
	author := fs.String("author", "", "credit the pack to this `name` (sdk, csv, json)")
	sourceName := fs.String("source-name", "", "the pack's source, a collection or publisher `name` (sdk, csv, json)")
	packURL := fs.String("url", "", "the pack's web address, http or https (`URL`; sdk, csv, json)")
	date := fs.String("date", "", "the pack's `date`, YYYY-MM-DD (sdk, opensudoku; default none, a fixed time)")
	if err := parseFlags(e, fs, args); err != nil {
		return helped(err)
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	f, err := ff.filter()
	if err != nil {
		return err
	}
	switch {
	case *count <= 0:
		return flagError("count", fmt.Sprint(*count), errors.New("want the number of puzzles, 1 or more"))
	case *format == "":
		return usagef("-format: required (sdm, sdk, opensudoku, csv, json or pdf)")
	case *out == "":
		return usagef("-out: required (a file, or - for standard output)")
	}
	fmtv, err := export.ParseFormat(*format)
	if err != nil {
		return flagError("format", *format, errors.New("want sdm, sdk, opensudoku, csv, json or pdf"))
	}
	if *out == stdoutName && fmtv == export.PDF {
		return usagef("-out -: standard output takes the text formats; write a pdf to a file")
	}
	if *out == stdoutName && fmtv == export.SDK && *count > 1 {
		return usagef("-out -: %d sdk puzzles make a zip, not text; write it to a file, or to a directory with -out DIR/", *count)
	}
	if isDirOut(*out) && fmtv != export.SDK {
		return usagef("-out %s: a directory takes -format sdk (a file a puzzle); name a file for %s", *out, fmtv)
	}
	arrange, err := arranger(*order)
	if err != nil {
		return flagError("order", *order, err)
	}
	opt := export.Options{Title: *title, Author: *author, SourceName: *sourceName, URL: *packURL,
		SDKZip: strings.EqualFold(filepath.Ext(*out), ".zip"),
		PDF:    pdf}
	if *date != "" {
		d, err := time.Parse(time.DateOnly, *date)
		if err == nil {
			err = export.CheckDate(d)
		} else {
			err = errors.New("want a date as YYYY-MM-DD")
		}
		if err != nil {
			return flagError("date", *date, err)
		}
		opt.Date = d
	}
	if *packURL != "" {
		if err := export.CheckURL(*packURL); err != nil {
			return flagError("url", *packURL, err)
		}
	}
	if fmtv != export.PDF {
		for _, name := range []string{"page", "per-page", "bleed", "gutter", "large-print", "no-answers", "caption", "copyright"} {
			if isSet(fs, name) {
				return usagef("-%s: only with -format pdf", name)
			}
		}
	}
	if err := opt.Validate(fmtv); err != nil {
		if oe := (*export.OptionError)(nil); errors.As(err, &oe) {
			return flagError(oe.Name, oe.Value, oe.Err)
		}
		return err
	}
	if *firstNumber < 1 || *firstNumber > maxFirstNumber {
		return flagError("first-number", fmt.Sprint(*firstNumber), fmt.Errorf("want 1 to %d", maxFirstNumber))
	}
	if *noRecord && (*packName != "" || *client != "") {
		return usagef("-no-record: records nothing, so it takes neither -pack nor -client")
	}
	if strings.TrimSpace(*client) != *client || (isSet(fs, "client") && *client == "") {
		return flagError("client", *client, errors.New("want a non-empty name without surrounding spaces"))
	}
	for _, n := range []struct{ flag, value string }{{"pack", *packName}, {"client", *client}, {"title", *title},
		{"author", *author}, {"source-name", *sourceName}} {
		if err := store.CheckName(n.value); err != nil {
			return flagError(n.flag, n.value, err)
		}
	}
	o := store.QueryOptions{Order: store.OrderRandom, Limit: *count, OnePerFamily: true}
	if o.Seed, err = seedFlag(e, fs, *seed); err != nil {
		return err
	}
	if err := checkDestination(*out, *db, *force); err != nil {
		return err
	}
	if fmtv == export.SDK && *count > 1 && !isDirOut(*out) && *out != stdoutName && !strings.EqualFold(filepath.Ext(*out), ".zip") {
		e.log.Warn("several sdk puzzles are written as a zip of .sdk files; name the file .zip, or end -out with / for a directory", "out", *out, "count", *count)
	}

	x := exportJob{
		db: *db, out: *out, format: fmtv, opt: opt, filter: f, options: o, n: *count, first: *firstNumber,
		arrange: arrange, force: *force,
		spec: store.PackSpec{Name: *packName, Client: *client, Format: string(fmtv), FilterText: ff.text()},
	}
	if *noRecord {
		return x.unrecorded(ctx, e)
	}
	if x.spec.Name == "" {
		x.spec.Name = autoPackName(time.Now(), *out)
		x.autoName = true
	}
	if x.spec.Client != "" {
		x.filter.NotForClient = x.spec.Client
	}
	// The record says how to pick the same puzzles again.
	x.spec.FilterText = strings.TrimSpace(x.spec.FilterText + fmt.Sprintf(" -seed=%d", o.Seed))
	return x.recorded(ctx, e)
}

// exportJob is one export, its flags checked.
type exportJob struct {
	db, out string
	format  export.Format
	opt     export.Options
	filter  store.Filter
	options store.QueryOptions
	n       int
	first   int // the first puzzle's number
	arrange func([]store.Row)
	force   bool
	spec    store.PackSpec
	// autoName is set when the pack's name was made up rather than given
	// with -pack: a name taken already then gets a number instead of
	// failing the export.
	autoName bool
}

// recorded selects, records and writes the pack. The file is written to
// a temporary name inside the pack's transaction; it takes its name
// after the commit, and if that fails the pack is deleted again.
func (x exportJob) recorded(ctx context.Context, e *env) error {
	bank, err := openWriter(ctx, e, x.db)
	if err != nil {
		return err
	}
	defer bank.Close()
	if x.autoName {
		// Two exports to one file name within a second make the same
		// automatic name.
		if x.spec.Name, err = bank.FreePackName(ctx, x.spec.Name); err != nil {
			return err
		}
	} else {
		packs, err := bank.Packs(ctx)
		if err != nil {
			return err
		}
		for _, p := range packs {
			if p.Name == x.spec.Name {
				return usageError{Err: fmt.Errorf("-pack %q: the bank already has a pack of that name (pack %d, %s)", x.spec.Name, p.ID, p.CreatedAt.Format(time.DateTime))}
			}
		}
	}
	// A technique no family uses matches nothing: no pack to try.
	// CreatePackWith would say the same, but only after its write
	// transaction has begun, which waits while a bankgen run is writing.
	unused, err := techniqueUnused(ctx, e, "export", bank, x.filter)
	if err != nil {
		return err
	}
	if unused {
		return exportError(fmt.Errorf("create pack %q: %w", x.spec.Name, x.notEnough(0)))
	}
	pf := newDestination(e, x.out, x.force)
	defer pf.Discard()
	pack, rows, err := bank.CreatePackWith(ctx, x.spec, x.filter, x.options, x.n, store.PackHooks{
		Arrange: x.arrange,
		BeforeCommit: func(ctx context.Context, _ store.Pack, rows []store.Row) error {
			if err := pf.Write(ctx, x.format, items(rows, x.first), x.opt); err != nil {
				return err
			}
			// Another export may have taken the name meanwhile: give up
			// before the commit rather than delete the pack after it.
			return checkDestination(x.out, x.db, x.force)
		},
	})
	if err != nil {
		return exportError(err)
	}
	if err := pf.Publish(); err != nil {
		e.log.Warn("the output could not be handed over; deleting the pack recorded for it", "file", x.out, "pack", pack.ID, "err", err)
		if derr := bank.DeletePack(context.WithoutCancel(ctx), pack.ID); derr != nil {
			return fmt.Errorf("%w; and the pack %d it was recorded as could not be deleted: %v", err, pack.ID, derr)
		}
		return fmt.Errorf("%w (the pack was not recorded)", err)
	}
	x.report(e, rows, fmt.Sprintf("recorded as pack %d %q%s", pack.ID, pack.Name, forClient(pack.Client)))
	return nil
}

// unrecorded selects read-only among the unreserved families and writes
// the file; the bank is not changed.
func (x exportJob) unrecorded(ctx context.Context, e *env) error {
	bank, err := openReadOnly(ctx, x.db)
	if err != nil {
		return err
	}
	defer bank.Close()
	x.filter.Unreserved = true
	// A technique no family uses gets its warning here; the query then
	// reads nothing and the count below refuses the export.
	if _, err := techniqueUnused(ctx, e, "export", bank, x.filter); err != nil {
		return err
	}
	var rows []store.Row
	err = bank.Query(ctx, x.filter, x.options, func(r store.Row) error {
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return err
	}
	if len(rows) < x.n {
		return exportError(x.notEnough(len(rows)))
	}
	x.arrange(rows)
	dest := newDestination(e, x.out, x.force)
	defer dest.Discard()
	if err := dest.Write(ctx, x.format, items(rows, x.first), x.opt); err != nil {
		return err
	}
	// The file may have been replaced by something else while it was
	// written; Publish itself refuses only what force may not replace.
	if err := checkDestination(x.out, x.db, x.force); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write %s: %w", x.out, err)
	}
	if err := dest.Publish(); err != nil {
		return err
	}
	x.report(e, rows, "not recorded")
	return nil
}

// notEnough is the error of an export that found only n of its puzzles,
// worded as CreatePack words it.
func (x exportJob) notEnough(n int) error {
	return fmt.Errorf("%d of %d puzzles match: %w", n, x.n, store.ErrNotEnough)
}

// report tells the user what was written.
func (x exportJob) report(e *env, rows []store.Row, how string) {
	what := fmt.Sprintf("%d puzzles", len(rows))
	if x.format == export.PDF {
		if pages, err := export.PDFPages(len(rows), x.opt); err == nil {
			what += fmt.Sprintf(", %d pages", pages)
		}
	}
	w, name := e.stdout, x.out
	if x.out == stdoutName {
		// Standard output holds the pack; the report must not join it.
		w, name = e.stderr, "standard output"
	}
	fmt.Fprintf(w, "wrote %s (%s, %s); %s\n", name, x.format, what, how)
}

// autoPackName is the name of a pack recorded without -pack: the time
// and the file's name, which is left out where it could not be part of
// a name (store.CheckName), and shortened to keep the name in bounds
// with room for the number recorded adds to a name taken.
func autoPackName(now time.Time, out string) string {
	const numberRoom = len("-1000000")
	name := "export-" + now.UTC().Format("20060102T150405Z")
	base := filepath.Base(out)
	if out == stdoutName {
		base = "stdout"
	}
	for room := store.MaxNameLen - len(name) - 1 - numberRoom; len(base) > room; {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	if base == "" || store.CheckName(base) != nil {
		return name
	}
	return name + "-" + base
}

// exportError explains a shortfall of matching puzzles.
func exportError(err error) error {
	if errors.Is(err, store.ErrNotEnough) {
		return fmt.Errorf("export: %w (relax the filters or lower -count)", err)
	}
	return fmt.Errorf("export: %w", err)
}

func forClient(c string) string {
	if c == "" {
		return ""
	}
	return " for client " + c
}

// arranger returns the function that puts a sample in the -order asked.
func arranger(order string) (func([]store.Row), error) {
	switch strings.ToLower(order) {
	case "rating":
		return func(rows []store.Row) {
			// IDs are unique, so the order is total and needs no stable sort.
			slices.SortFunc(rows, func(a, b store.Row) int {
				return cmp.Or(cmp.Compare(a.ER, b.ER), cmp.Compare(a.ID, b.ID))
			})
		}, nil
	case "id":
		return func(rows []store.Row) {
			slices.SortFunc(rows, func(a, b store.Row) int { return cmp.Compare(a.ID, b.ID) })
		}, nil
	case "random":
		return func([]store.Row) {}, nil
	}
	return nil, errors.New("want rating, random or id")
}
