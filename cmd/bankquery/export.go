package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokubank/export"
	"sudokubank/internal/cli"
	"sudokubank/internal/filters"
	"sudokubank/store"
)

const exportUsage = `Usage: bankquery export [-db puzzles.db] [filters] -count N|LEVEL=N,... -format FORMAT -out FILE
                        [-pack NAME] [-client NAME] [-order rating|random|id] [-seed S]
                        [-title TEXT] [-first-number N] [-force] [-no-record]
                        [-page SIZE] [-per-page N] [-bleed] [-gutter auto|LENGTH] [-large-print]
                        [-no-answers] [-no-ids] [-caption WHAT] [-copyright TEXT]
                        [-symbols letters|numbers|a-p]
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

The puzzles are a random sample of the families that match, one puzzle
a family: every family is as likely as any other however many variants
it has, and the seed picks which variant. The same -seed on the same
bank picks the same puzzles (without -seed one is drawn and printed to
stderr). -order sets their order in the pack: rating (the default,
rising difficulty), random (the sample's order) or id.

-count easy=10,medium=10,evil=5 asks for so many puzzles of each level,
exactly, in place of -level: each level is sampled on its own (the same
-seed, the same puzzles) and the pack holds them all, in the -order
asked (random mixes the levels). A level with fewer matching puzzles
than asked fails the export, naming the level and how many match.

Every export is recorded in the bank as a pack, so that what left the
building is remembered: under -pack NAME, or else under an automatic
name "export-<UTC time>-<file name>". With -client NAME the pack's
families are reserved to that client: no later export for another
client, and none with -fresh, can pick them, and the client is not given
a family a pack already gave them (bankquery packs release gives a
pack's families back). -no-record writes the file and
records nothing (the bank stays read-only); it still never picks a
reserved family, and it takes neither -pack nor -client.

The file is written whole or not at all: a temporary file beside it is
filled and synced while the pack is recorded, and it takes the name only
once the pack is committed; if anything fails, nothing is recorded and no
file is left. Interrupted (Ctrl-C, SIGTERM), the export says so, leaves
neither file nor pack, and exits with status 130. An existing file is
replaced only with -force, and only a regular file: never the bank or its
-wal and -shm files, a device, a named pipe or a symbolic link. A directory (-out DIR/) is the pack: its
files named as the pack names them (0001.sdk, ...) are all the pack's,
so one that holds an earlier export's is refused without -force, and
with -force the new pack's files replace them and the earlier export's
others (a larger pack's last puzzles) are removed once the new pack is
in place; any other file in DIR is left alone. -out - writes a text
format to standard output instead, once the pack is recorded, and the
report to stderr.
While the file is written the bank is locked for writing (readers carry
on).

The pdf options make a book for print on demand: -page picks the trim
size, -bleed adds 0.125 in on the outer edges, -gutter widens the inside
margin for the binding (auto sizes it by page count), -large-print sets
the puzzles' digits at 16 pt or more, one or two puzzles a page (the
answer key keeps its usual size). The answer key starts on a right-hand
page. Each grid, and each answer, carries its puzzle's bank ID in small
type ("ID 1234", the ID bankquery show takes), so that an editor can
find a printed puzzle in the bank; -no-ids leaves the IDs out.
-first-number numbers the puzzles from N in every format.

Every size exports as csv, json and pdf; sdm, sdk and opensudoku hold
9x9 puzzles only and refuse others before any work (without -size, where
other sizes match: add -size 9). A pdf sizes its cells by the largest
grid: without -per-page, 4x4 and 6x6 come large (6x6 and 12x12 two a
page on 6x9, 5.5x8.5 and a5), 16x16 two a page on letter, a4, 8x10 and
7x10 and one on the smaller trims, 25x25 one a page (5.5x8.5 is too
small for it), and a -per-page that would set values below 7 pt is
refused. -symbols says how grids above 9x9 show values above 9: letters
(A-G, as the text formats write them, the default), numbers (10-16, in
smaller type fitted to the cell) or a-p (every value a letter, A for 1 up
to P for 16).

Exit status 1 when fewer than N puzzles match (the message says how many
did), 2 for a bad flag or value: an -out refused (the bank, a link, a
device, a missing directory, a file that exists without -force) or a
size the format or page cannot hold.

` + filterUsage + `
Examples:
  bankquery export -level evil -count 100 -format pdf -out evil.pdf -title "Evil Sudoku"
  bankquery export -rating 7.0-9.9 -givens 22-26 -count 500 -format csv -out acme.csv \
      -pack acme-2026-11 -client acme
  bankquery export -level easy,medium -fresh -count 10000 -format sdm -out easy.sdm -seed 7
  bankquery export -count easy=10,medium=10,evil=5 -format pdf -out mixed.pdf -title "Mixed Bag"
  bankquery export -level difficult -count 60 -format pdf -page 6x9 -per-page 1 -out book.pdf
  bankquery export -level easy -count 100 -format pdf -page 8.5x11 -large-print -bleed -gutter auto \
      -title "Large Print Sudoku" -copyright "Copyright 2026 Acme Books" -out large.pdf
  bankquery export -level easy -count 20 -format json -out - -no-record | jq .puzzle
  bankquery export -size 16 -level easy -count 50 -format pdf -page 6x9 -symbols numbers -out giant.pdf
`

// maxFirstNumber bounds -first-number: numbers that fit a label.
const maxFirstNumber = 1_000_000_000

// exportEverySize names the export formats that hold every size.
const exportEverySize = "csv, json or pdf"

func runExport(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery export", flag.ContinueOnError)
	db := dbFlag(fs)
	ff := addFilterFlags(fs)
	var count countFlag
	fs.Var(&count, "count", "the number of puzzles in the pack (`N`, required), or so many of each level: easy=10,evil=5")
	of := addOutputFlags(fs)
	packName := fs.String("pack", "", "record the pack under this `name` (default: an automatic name)")
	client := fs.String("client", "", "reserve the pack's families to this `client`")
	order := fs.String("order", "rating", "the order in the pack: `rating` (rising), random or id")
	seed := fs.Uint64("seed", 0, "the sample's `seed` (default: drawn at random and printed to stderr)")
	noRecord := fs.Bool("no-record", false, "record nothing in the bank")
	if err := cli.ParseFlags(fs, exportUsage, args, e.stdout); err != nil {
		return helped(err)
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	f, err := ff.filter()
	if err != nil {
		return err
	}
	if count.total <= 0 {
		return flagError("count", fmt.Sprint(count.total), errors.New("want the number of puzzles, 1 or more"))
	}
	if count.levels != nil && len(f.Levels) > 0 {
		return usagef("-level: -count %s names the levels; leave -level out", count.String())
	}
	out, err := of.output(*db, count.total)
	if err != nil {
		return err
	}
	if err := sizeFits(out.format, f.Size, "export", exportEverySize); err != nil {
		return err
	}
	if out.format == export.PDF && f.Size != 0 {
		// A large grid may not fit the page as the flags ask.
		if err := out.opt.PDF.ValidateSize(f.Size); err != nil {
			if oe := (*export.OptionError)(nil); errors.As(err, &oe) {
				return optionError(oe)
			}
			return err
		}
	}
	ord, err := parseOrder(*order)
	if err != nil {
		return flagError("order", *order, err)
	}
	arrange := func(rows []store.Row) { store.SortRows(rows, ord) }
	if *noRecord && (*packName != "" || *client != "") {
		return usagef("-no-record: records nothing, so it takes neither -pack nor -client")
	}
	if strings.TrimSpace(*client) != *client || (isSet(fs, "client") && *client == "") {
		return flagError("client", *client, errors.New("want a non-empty name without surrounding spaces"))
	}
	// packs show, export and release take the name as an argument: one
	// that starts with '-' would be read there as a flag.
	if strings.TrimSpace(*packName) != *packName || (isSet(fs, "pack") && *packName == "") || strings.HasPrefix(*packName, "-") {
		return flagError("pack", *packName, errors.New("want a non-empty name without surrounding spaces, not starting with '-'"))
	}
	for _, n := range []struct{ flag, value string }{{"pack", *packName}, {"client", *client}} {
		if err := store.CheckName(n.value); err != nil {
			return flagError(n.flag, n.value, err)
		}
	}
	o := store.QueryOptions{Order: store.OrderRandom, Limit: count.total, OnePerFamily: true}
	if o.Seed, err = seedFlag(e, fs, *seed); err != nil {
		return err
	}
	if err := out.ready(e, count.total); err != nil {
		return err
	}
	if count.levels != nil {
		// The levels' samples come one level after the other; a random
		// order mixes them, as one sample of the levels would be.
		arrange = count.arranger(arrange, ord == store.OrderRandom, o.Seed)
	}

	x := exportJob{
		out: out, filter: f, options: o, count: count, arrange: arrange,
		spec: store.PackSpec{Name: *packName, Client: *client, Format: string(out.format), FilterText: ff.text()},
	}
	if *noRecord {
		return interrupted(ctx, e, "export", x.unrecorded(ctx, e), out.unwritten())
	}
	if x.spec.Name == "" {
		file := out.path
		if file == export.Stdout {
			file = "stdout"
		}
		x.spec.Name = store.AutoPackName(time.Now(), file)
		x.autoName = true
	}
	if x.spec.Client != "" {
		x.filter.NotForClient = x.spec.Client
	}
	// The record says how to pick the same puzzles again.
	if count.levels != nil {
		x.spec.FilterText += " -count=" + strconv.Quote(count.String())
	}
	x.spec.FilterText = strings.TrimSpace(x.spec.FilterText + fmt.Sprintf(" -seed=%d", o.Seed))
	// The pack is recorded in the transaction that writes the file, and
	// the file is named only after the commit: an interrupt leaves neither.
	return interrupted(ctx, e, "export", x.recorded(ctx, e), out.unwritten()+" and no pack was recorded")
}

// exportJob is one export, its flags checked.
type exportJob struct {
	out     output
	filter  store.Filter
	options store.QueryOptions
	count   countFlag
	arrange func([]store.Row)
	spec    store.PackSpec
	// autoName is set when the pack's name was made up rather than given
	// with -pack: a name taken already then gets a number instead of
	// failing the export.
	autoName bool
}

// parts returns the selection's parts: the filter and the count, or
// with per-level counts the filter narrowed to each level and its count.
func (x exportJob) parts() []store.PackPart {
	if x.count.levels == nil {
		return []store.PackPart{{Filter: x.filter, N: x.count.total}}
	}
	return store.LevelParts(x.filter, x.count.levels)
}

// recorded selects, records and writes the pack. The file is written to
// a temporary name inside the pack's transaction; it takes its name
// after the commit, and if that fails the pack is deleted again.
func (x exportJob) recorded(ctx context.Context, e *env) error {
	bank, err := openWriter(ctx, e, x.out.bank)
	if errors.Is(err, store.ErrReadOnly) {
		return fmt.Errorf("%w; -no-record exports without writing to the bank", err)
	}
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
		named, err := bank.PacksNamed(ctx, x.spec.Name)
		if err != nil {
			return err
		}
		if len(named) > 0 {
			p := named[0]
			return usageError{Err: fmt.Errorf("-pack %q: the bank already has a pack of that name (pack %d, %s)", x.spec.Name, p.ID, p.CreatedAt.Format(time.DateTime))}
		}
	}
	if err := nineOnlyFits(ctx, bank, x.out.format, x.levelsFilter(), exportEverySize); err != nil {
		return err
	}
	// A technique no family uses matches nothing: no pack to try.
	// CreatePackParts would say the same, but only after its write
	// transaction has begun, which waits while a bankgen run is writing.
	unused, err := techniqueUnused(ctx, e, "export", bank, x.levelsFilter())
	if err != nil {
		return err
	}
	if unused {
		return exportError(fmt.Errorf("create pack %q: %w", x.spec.Name, x.notEnough(0, 0, 0)))
	}
	pf := x.out.destination(e)
	defer pf.Discard()
	selected()
	pack, rows, err := bank.CreatePackParts(ctx, x.spec, x.parts(), x.options, store.PackHooks{
		Arrange: x.arrange,
		BeforeCommit: func(ctx context.Context, _ store.Pack, rows []store.Row) error {
			// Another export may have taken the name meanwhile: write
			// checks before the commit rather than delete the pack after it.
			return x.out.write(ctx, pf, rows)
		},
	})
	if short := (*store.ShortError)(nil); errors.As(err, &short) {
		return exportError(fmt.Errorf("create pack %q: %w", x.spec.Name, x.notEnough(short.Part, short.Found, short.Matching)))
	}
	if err != nil {
		return exportError(x.nineHint(err))
	}
	if err := forceHint(pf.Publish()); err != nil {
		e.log.Warn("the output could not be handed over; deleting the pack recorded for it", "file", x.out.path, "pack", pack.ID, "err", err)
		if derr := bank.DeletePack(context.WithoutCancel(ctx), pack.ID); derr != nil {
			return handOverError{fmt.Errorf("%w; and the pack %d it was recorded as could not be deleted: %v", err, pack.ID, derr)}
		}
		return handOverError{fmt.Errorf("%w (the pack was not recorded)", err)}
	}
	x.out.report(e, rows, fmt.Sprintf("recorded as pack %d %q%s", pack.ID, pack.Name, forClient(pack.Client)))
	return nil
}

// nineHint adds to the refusal of a puzzle of another size by a 9x9-only
// format, in an export without -size, the flag that keeps to 9x9
// puzzles: which sizes a sample draws depends on its seed.
func (x exportJob) nineHint(err error) error {
	if x.filter.Size == 0 && errors.Is(err, export.ErrNineOnly) {
		return fmt.Errorf("%w (or add -size 9 to pick 9x9 puzzles only)", err)
	}
	return err
}

// levelsFilter is the filter with per-level counts' levels as its
// levels, for the check of a technique no family of them uses.
func (x exportJob) levelsFilter() store.Filter {
	f := x.filter
	for _, lc := range x.count.levels {
		f.Levels = append(f.Levels, lc.Level)
	}
	return f
}

// unrecorded selects read-only among the unreserved families and writes
// the file; the bank is not changed.
func (x exportJob) unrecorded(ctx context.Context, e *env) error {
	bank, err := openReadOnly(ctx, e, x.out.bank)
	if err != nil {
		return err
	}
	defer bank.Close()
	x.filter.Unreserved = true
	if err := nineOnlyFits(ctx, bank, x.out.format, x.levelsFilter(), exportEverySize); err != nil {
		return err
	}
	// A technique no family uses gets its warning here; the query then
	// reads nothing and the count below refuses the export.
	if _, err := techniqueUnused(ctx, e, "export", bank, x.levelsFilter()); err != nil {
		return err
	}
	selected()
	rows, err := bank.SelectParts(ctx, x.parts(), x.options)
	if short := (*store.ShortError)(nil); errors.As(err, &short) {
		return exportError(x.notEnough(short.Part, short.Found, short.Matching))
	}
	if err != nil {
		return err
	}
	x.arrange(rows)
	if err := x.out.save(ctx, e, rows); err != nil {
		return x.nineHint(err)
	}
	x.out.report(e, rows, "not recorded")
	return nil
}

// notEnough is the error of an export whose part found only n of its
// puzzles, worded as CreatePack words it; with per-level counts it names
// the part's level. all is how many families the part's filters match
// with the families the export may not pick counted (all, or the part's
// count where at least that many match), 0 if not known.
func (x exportJob) notEnough(part, n, all int) error {
	want := x.count.total
	where := ""
	if x.count.levels != nil {
		lc := x.count.levels[part]
		want, where = lc.N, "level "+levelName(lc.Level)+": "
	}
	why := ""
	if all > n {
		taken := "reserved to clients"
		if x.spec.Client != "" {
			taken = "reserved to other clients or in packs for " + x.spec.Client + " already"
		}
		match := " families match"
		switch {
		case all >= want:
			match = " or more" + match
		case all == 1:
			match = " family matches"
		}
		why = fmt.Sprintf(" (%d%s, but the others are %s)", all, match, taken)
	}
	// A pack takes one puzzle a family: the count is of families, which
	// many more puzzles (variants) may share.
	return fmt.Errorf("%s%d of %d puzzles match, one a family%s: %w", where, n, want, why, store.ErrNotEnough)
}

// selectHook, when set, is called each time an export reads its
// selection from the bank: a test counts that a short export reads it
// once, its shortfall explained from the same read (ShortError.Matching).
var selectHook func()

func selected() {
	if selectHook != nil {
		selectHook()
	}
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

// parseOrder reads -order: rating, random or id.
func parseOrder(s string) (store.Order, error) {
	switch strings.ToLower(s) {
	case "rating":
		return store.OrderRating, nil
	case "id":
		return store.OrderID, nil
	case "random":
		return store.OrderRandom, nil
	}
	return 0, errors.New("want rating, random or id")
}

// countFlag is -count: a number of puzzles, or so many puzzles of each
// level ("easy=10,medium=10,evil=5").
type countFlag struct {
	total  int
	levels []store.LevelCount // nil for a plain number
}

func (c *countFlag) String() string {
	if c == nil || c.levels == nil {
		if c == nil || c.total == 0 {
			return ""
		}
		return strconv.Itoa(c.total)
	}
	parts := make([]string, len(c.levels))
	for i, lc := range c.levels {
		parts[i] = fmt.Sprintf("%s=%d", levelName(lc.Level), lc.N)
	}
	return strings.Join(parts, ",")
}

// Set reads a number (checked later, so that 0 and negatives get the
// same message as a missing -count) or a list of LEVEL=N.
func (c *countFlag) Set(s string) error {
	*c = countFlag{}
	if !strings.Contains(s, "=") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return errors.New("want a number of puzzles, or LEVEL=N,... such as easy=10,evil=5")
		}
		c.total = n
		return nil
	}
	c.levels = []store.LevelCount{}
	for part := range strings.SplitSeq(s, ",") {
		name, num, _ := strings.Cut(strings.TrimSpace(part), "=")
		levels, err := filters.ParseLevels(name)
		if err != nil || len(levels) != 1 {
			return fmt.Errorf("%q: want one level (extremely-easy, easy, medium, difficult, evil or 1-5) and =N", part)
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil || n < 1 {
			return fmt.Errorf("%q: want the number of puzzles of level %s, 1 or more", part, levelName(levels[0]))
		}
		if slices.ContainsFunc(c.levels, func(lc store.LevelCount) bool { return lc.Level == levels[0] }) {
			return fmt.Errorf("level %s given twice", levelName(levels[0]))
		}
		if c.total > math.MaxInt32-n {
			return errors.New("too many puzzles")
		}
		c.levels = append(c.levels, store.LevelCount{Level: levels[0], N: n})
		c.total += n
	}
	return nil
}

// arranger returns the arrangement of a per-level pack: the -order one,
// after mixing the levels' samples (which come one level after the
// other) when the order is random, by a shuffle drawn from the seed.
func (c countFlag) arranger(arrange func([]store.Row), random bool, seed uint64) func([]store.Row) {
	if !random {
		return arrange
	}
	return func(rows []store.Row) {
		store.MixParts(rows, seed)
		arrange(rows)
	}
}
