package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"sudokubank/export"
	"sudokubank/grid"
	"sudokubank/internal/cli"
	"sudokubank/store"
)

const listUsage = `Usage: bankquery list [-db puzzles.db] [filters] [-available-to CLIENT] [-limit N] [-random] [-seed S]
                      [-format sdm|lines|json|csv]

List prints the puzzles that match the filters, in the bank's order (by
ID) or, with -random, a random sample: the same -seed on the same bank
gives the same sample. Without -seed a sample's seed is drawn at random
and printed to stderr so that it can be repeated. Every stored variant
of a family is a separate puzzle.

Formats: sdm, one puzzle a line (81 characters, 0 for an empty cell;
9x9 puzzles only, the default); lines, one puzzle a line of N*N cells
in any size ('.' for an empty cell; the default with -size other than
9); json, JSON Lines, one object a puzzle with number,
id, family, puzzle, solution, givens, level, level_name, rating, pearl,
diamond, score, hardest, symmetry, minimal, source and size, then cells
and solution_cells, the grids as arrays of numbers; csv, the columns up
to size with a header row. These are the layouts of bankquery export.
A grid of any size is one line of N*N cells: '.' for an empty cell,
1-9, then A for 10 up to G for 16 (P for 25). Where puzzles of other
sizes match too, sdm is refused before anything is printed: add -size 9,
or take lines, json or csv.

-available-to CLIENT keeps the puzzles an export for that client could
still pick (export -client CLIENT applies the same rule): not of a
family reserved to another client, and not of a family a pack for
CLIENT already holds. A released pack (packs release) holds none.

` + filterUsage + `
Examples:
  bankquery list -level evil -limit 10
  bankquery list -rating 7.0-9.9 -givens 22-26 -random -seed 42 -limit 5 -format json
  bankquery list -technique x-wing -symmetry rot180 -minimal -format csv -limit 0 > x-wings.csv
  bankquery list -level evil -available-to acme -limit 0 | wc -l
`

// linesFormat is list's one puzzle a line of any size: each puzzle's
// N*N cells as the bank gives them, '.' for an empty cell.
const linesFormat export.Format = "lines"

// listChunk is how many rows list hands to the formatter at a time.
const listChunk = 1024

func runList(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery list", flag.ContinueOnError)
	db := dbFlag(fs)
	ff := addFilterFlags(fs)
	limit := fs.Int("limit", 100, "print at most `N` puzzles; 0 prints all (not with -random)")
	random := fs.Bool("random", false, "print a random sample instead of the first puzzles")
	seed := fs.Uint64("seed", 0, "the random sample's `seed` (default: drawn at random and printed to stderr)")
	format := fs.String("format", "", "output `format`: sdm, lines, json or csv (default sdm, or lines with a -size other than 9)")
	availableTo := fs.String("available-to", "", "only puzzles an export for this `client` could pick")
	if err := cli.ParseFlags(fs, listUsage, args, e.stdout); err != nil {
		return helped(err)
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	f, err := ff.filter()
	if err != nil {
		return err
	}
	if isSet(fs, "available-to") {
		if strings.TrimSpace(*availableTo) != *availableTo || *availableTo == "" {
			return flagError("available-to", *availableTo, errors.New("want a client's name, without surrounding spaces"))
		}
		if err := store.CheckName(*availableTo); err != nil {
			return flagError("available-to", *availableTo, err)
		}
		f.NotForClient = *availableTo
	}
	if *format == "" {
		*format = string(export.SDM)
		if f.Size != 0 && f.Size != 9 {
			*format = string(linesFormat)
		}
	}
	fmtv, err := export.ParseFormat(*format)
	if strings.EqualFold(strings.TrimSpace(*format), string(linesFormat)) {
		fmtv, err = linesFormat, nil
	}
	if err != nil || (fmtv != export.SDM && fmtv != linesFormat && fmtv != export.JSON && fmtv != export.CSV) {
		return flagError("format", *format, fmt.Errorf("want sdm, lines, json or csv"))
	}
	if err := sizeFits(fmtv, f.Size, "list", "lines, json or csv"); err != nil {
		return err
	}
	if *limit < 0 {
		return flagError("limit", fmt.Sprint(*limit), fmt.Errorf("want 0 (all) or more"))
	}
	o := store.QueryOptions{Limit: *limit, Order: store.OrderID}
	if *random {
		if *limit == 0 {
			return flagError("limit", "0", fmt.Errorf("a random sample needs a limit"))
		}
		o.Order = store.OrderRandom
		o.Seed, err = seedFlag(e, fs, *seed)
		if err != nil {
			return err
		}
	} else if isSet(fs, "seed") {
		return usagef("-seed: only with -random")
	}

	bank, err := openReadOnly(ctx, e, *db)
	if err != nil {
		return err
	}
	defer bank.Close()

	if err := nineOnlyFits(ctx, bank, fmtv, f, "lines, json or csv"); err != nil {
		return err
	}
	lw := &listWriter{w: e.stdout, format: fmtv}
	unused, err := techniqueUnused(ctx, e, "list", bank, f)
	if err != nil {
		return err
	}
	if unused {
		return lw.flush(ctx)
	}
	err = bank.Query(ctx, f, o, func(r store.Row) error { return lw.add(ctx, r) })
	if err != nil {
		return err
	}
	return lw.flush(ctx)
}

// listWriter formats rows in chunks through package export, so that a
// list of millions streams in constant memory and prints exactly what an
// export of the same puzzles would.
type listWriter struct {
	w      io.Writer
	format export.Format
	buf    []export.Item
	n      int // rows formatted so far
	chunks int // chunks written so far
}

func (lw *listWriter) add(ctx context.Context, r store.Row) error {
	if lw.format == linesFormat {
		if _, err := io.WriteString(lw.w, r.Puzzle+"\n"); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		return nil
	}
	lw.buf = append(lw.buf, item(lw.n+len(lw.buf)+1, r))
	if len(lw.buf) >= listChunk {
		return lw.flush(ctx)
	}
	return nil
}

func (lw *listWriter) flush(ctx context.Context) error {
	if lw.format == linesFormat || len(lw.buf) == 0 && (lw.chunks > 0 || lw.format != export.CSV) {
		return nil
	}
	var b bytes.Buffer
	if err := export.Write(ctx, &b, lw.format, lw.buf, export.Options{}); err != nil {
		return err
	}
	out := b.Bytes()
	if lw.format == export.CSV && lw.chunks > 0 {
		// Only the first chunk keeps the header row.
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			out = out[i+1:]
		}
	}
	lw.n += len(lw.buf)
	lw.buf = lw.buf[:0]
	lw.chunks++
	if _, err := lw.w.Write(out); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// seedFlag returns the -seed value if it was set, and otherwise draws a
// seed and tells the user on stderr how to repeat the sample.
func seedFlag(e *env, fs *flag.FlagSet, seed uint64) (uint64, error) {
	if isSet(fs, "seed") {
		return seed, nil
	}
	seed = cli.RandomSeed() >> 1 // the store takes seeds as SQLite integers
	fmt.Fprintf(e.stderr, "bankquery %s: -seed %d\n", fs.Name()[len("bankquery "):], seed)
	return seed, nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// techniqueUnused reports whether the bank's technique counts say that
// no family of the filter's levels uses its technique, and if so tells
// the user on stderr why nothing matches: such a query is answered
// without reading a puzzle.
func techniqueUnused(ctx context.Context, e *env, cmd string, bank *store.DB, f store.Filter) (bool, error) {
	if f.Technique == "" {
		return false, nil
	}
	fams, _, err := bank.TechniqueTotals(ctx, f.Technique, f.Levels)
	if err != nil || fams > 0 {
		return false, err
	}
	of := ""
	if len(f.Levels) > 0 {
		names := make([]string, len(f.Levels))
		for i, l := range f.Levels {
			names[i] = levelName(l)
		}
		of = " of level " + strings.Join(names, ", ")
	}
	fmt.Fprintf(e.stderr, "bankquery %s: no family%s in the bank uses technique %s: nothing matches\n", cmd, of, f.Technique)
	return true, nil
}

// nineOnlyFits refuses, before anything is printed or drawn, a list or
// export in a 9x9-only format (sdm, list's default) without -size from a
// bank where puzzles of another size match: a list would stop with an
// error at the first of them, the 9x9 puzzles before it printed, and
// whether an export's sample drew one would depend on its seed. others
// names the formats that hold every size.
func nineOnlyFits(ctx context.Context, bank *store.DB, format export.Format, f store.Filter, others string) error {
	if f.Size != 0 || !export.NineOnly(format) {
		return nil
	}
	for _, sh := range grid.Shapes {
		if sh.N == 9 {
			continue
		}
		g := f
		g.Size = sh.N
		n, err := bank.Count(ctx, g)
		if err != nil {
			return err
		}
		if n > 0 {
			return usagef("-format %s holds 9x9 puzzles only, and %d %dx%d puzzles match too: add -size 9, or take every size with -format %s", format, n, sh.N, sh.N, others)
		}
	}
	return nil
}
