package main

import (
	"context"
	"flag"
	"fmt"
)

const packsExportUsage = `Usage: bankquery packs export NAME -format FORMAT -out FILE [-db puzzles.db]
                             [-title TEXT] [-first-number N] [-force]
                             [-page SIZE] [-per-page N] [-bleed] [-gutter auto|LENGTH] [-large-print]
                             [-no-answers] [-no-ids] [-caption WHAT] [-copyright TEXT]
                             [-symbols letters|numbers|a-p]
                             [-author NAME] [-source-name NAME] [-url URL] [-date YYYY-MM-DD]

Packs export writes the puzzles of the recorded pack NAME (or, where no
pack has that name, the pack with that ID) again, exactly those and in
the pack's order, in any of export's formats: sdm, sdk, opensudoku, csv,
json or pdf. A pack exported as a CSV can so be printed as a PDF, and
the book holds the same puzzles as the file. Nothing is selected and
nothing is recorded: the bank is only read, and a released pack is
written as it was.

The output flags are export's, and the file is written as export writes
it: whole or not at all, an existing file replaced only with -force and
never the bank, -out - for standard output (text formats), -out DIR/
for a directory of sdk files. See bankquery export -h.

Examples:
  bankquery packs export acme-2026-11 -format pdf -out acme.pdf -title "Acme Sudoku" -page 6x9
  bankquery packs export acme-2026-11 -format csv -out acme.csv
  bankquery packs export 3 -format sdm -out -
`

func runPacksExport(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery packs export", flag.ContinueOnError)
	db := dbFlag(fs)
	of := addOutputFlags(fs)
	name, err := parsePackArgs(e, fs, packsExportUsage, args)
	if err != nil {
		return helped(err)
	}
	// The flags are checked before the bank is read; the number of
	// puzzles (for sdk on standard output) once the pack is known.
	o, err := of.output(*db, 1)
	if err != nil {
		return err
	}
	return interrupted(ctx, e, "packs export", packsExport(ctx, e, of, *db, name), o.unwritten())
}

// packsExport writes the pack name of the bank db as of asks.
func packsExport(ctx context.Context, e *env, of *outputFlags, db, name string) error {
	bank, p, err := openPack(ctx, e, openReadOnly, db, name)
	if err != nil {
		return err
	}
	defer bank.Close()
	out, err := of.output(db, p.Size)
	if err != nil {
		return err
	}
	if err := out.ready(e, p.Size); err != nil {
		return err
	}
	rows, err := packRows(ctx, bank, p)
	if err != nil {
		return err
	}
	if err := out.rowsFit(rows, fmt.Sprintf("pack %d %q", p.ID, p.Name), "export", exportEverySize); err != nil {
		return err
	}
	if err := out.save(ctx, e, rows); err != nil {
		return err
	}
	out.report(e, rows, fmt.Sprintf("pack %d %q%s, in its order", p.ID, p.Name, forClient(p.Client)))
	return nil
}
