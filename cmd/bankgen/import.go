package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"sudokubank/internal/cli"
	"sudokubank/store"
)

const importUsage = `Usage: bankgen import [-db puzzles.db] [-source NAME] [-strict] [-workers W]
                      [-quiet] [-sync normal|full] FILE|-

import reads puzzles, checks that each has exactly one solution, grades it
and stores it as given. The file's format is told by its content, not its
name: one puzzle a line (sdm, or 81 cells in any one-line form the parser
takes, '#' comments and blank lines skipped), .sdk files and other grids
of 9 lines of 9 cells, a zip of such files (what bankquery export -format
sdk writes), OpenSudoku XML, and the CSV (with a puzzle column) and JSON
Lines that bankquery list and export write. A puzzle whose family the bank
already holds adds no new family. Bad records are reported with their
place (file:line, or file:member:line in a zip) and refused; the summary
counts the records read, the puzzles among them and the records refused.
A file that cannot be read (gzip, UTF-16, a PDF, a bank, a damaged zip),
or such a file in a zip, is no record: it is reported and counted apart.
With -strict the import still stores the puzzles but exits with status 1
if any record was refused or any file not read. An import in which no
record was a puzzle with one solution (a binary file, a format it cannot
read, a file that cannot be read), or that holds no record (an empty file),
exits with status 1 too, as does one whose input fails to read partway:
the records before the failure are imported, and the error names its line.
FILE - reads standard input (a zip from a pipe is held in memory, at most
256 MiB); a directory is refused before the bank is opened.

Examples:
  bankgen import -source top1465 top1465.txt
  zcat huge.txt.gz | bankgen import -db big.db -source forum -
  bankgen import -source acme acme-pack.zip
`

// importOptions are the flags of the import command.
type importOptions struct {
	db      string
	source  string
	file    string
	workers int
	quiet   bool
	strict  bool
	sync    syncFlag
}

func parseImport(args []string, stdout io.Writer) (importOptions, error) {
	var o importOptions
	fs := flag.NewFlagSet("bankgen import", flag.ContinueOnError)
	fs.StringVar(&o.db, "db", "puzzles.db", "the bank `file`, created if missing or empty (0 bytes, with a warning)")
	fs.StringVar(&o.source, "source", "", "the collection's `name`, stored with each family (not gen, which marks generated ones); when omitted, the file's name without its directory and extension (stdin for -)")
	fs.IntVar(&o.workers, "workers", defaultWorkers(), "`W` worker goroutines, 1 to 8 per CPU")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress; refused records and the summary are still printed")
	fs.BoolVar(&o.strict, "strict", false, "exit with status 1 if any record is refused (the puzzles are still stored)")
	fs.Var(&o.sync, "sync", "`normal`: a power cut may lose the last commits; full: every commit is on disk before the next batch (slower)")
	if err := cli.ParseFlags(fs, importUsage, args, stdout); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() != 1:
		return o, usageError{Err: errors.New("import takes one FILE (or - for standard input)")}
	}
	if err := checkWorkers(o.workers); err != nil {
		return o, err
	}
	o.file = fs.Arg(0)
	if o.file != "-" {
		// Refused here, before the bank is opened or a run recorded:
		// reading a directory fails only at the first line.
		if st, err := os.Stat(o.file); err == nil && st.IsDir() {
			return o, usageError{Err: fmt.Errorf("%s is a directory: import takes one FILE (or - for standard input)", o.file)}
		}
	}
	if o.source == "" {
		o.source = strings.TrimSuffix(filepath.Base(o.file), filepath.Ext(o.file))
		if o.file == "-" {
			o.source = "stdin"
		}
		if o.source == "" {
			// A name that is all extension (".txt", a dotfile) leaves
			// nothing, and the bank refuses a family without a source.
			return o, usageError{Err: fmt.Errorf("the file's name %q gives no source name; name the source with -source", filepath.Base(o.file))}
		}
		if err := store.CheckName(o.source); err != nil {
			return o, usageError{Err: fmt.Errorf("the file's name %q cannot be the source's name: %w; name the source with -source", o.source, err)}
		}
	} else if err := store.CheckName(o.source); err != nil {
		return o, usageError{Err: fmt.Errorf("invalid value %q for flag -source: %w", o.source, err)}
	}
	if o.source == "gen" {
		// "gen" marks the generated families: imported ones under it
		// could no longer be told apart (list -source gen, stats).
		return o, usageError{Err: fmt.Errorf(`the source name "gen" is the generated families' (from %s); name the collection with -source`, o.file)}
	}
	return o, nil
}

// runImport is the import command.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseImport(args, stdout)
	if err != nil {
		return err
	}
	if o.file == "-" {
		// Refused as a named directory is (parseImport), before the
		// bank is opened: reading one fails only at the first read.
		if st, err := os.Stdin.Stat(); err == nil && st.IsDir() {
			return usageError{Err: errors.New("standard input is a directory: import takes one FILE (or - for standard input)")}
		}
	} else if _, err := os.Stat(o.file); errors.Is(err, os.ErrNotExist) {
		// Refused before the bank is opened (or made) or a run recorded,
		// as merge refuses a missing shard; here and not in parseImport,
		// which judges the line alone (the README's commands parse).
		return usageError{Err: fmt.Errorf("%s: %w", o.file, cli.Reason(err))}
	}
	// Damage any read of the bank meets is said as such.
	return store.Damaged(o.db, importFile(ctx, o, args, stdout, stderr, os.Stdin))
}
