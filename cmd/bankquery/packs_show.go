package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"sudokubank/export"
)

const packsShowUsage = `Usage: bankquery packs show NAME [-db puzzles.db] [-json]

Packs show lists the puzzles of the pack NAME (or, where no pack has
that name, the pack with that ID) in the pack's order: the record of the
pack, then a puzzle a line with its number in the pack, ID, family,
level, rating (SE), givens and the puzzle (N*N characters, 81 for a
9x9 grid, . for an empty cell, values above 9 as letters). A released
pack lists the puzzles it held.

-json prints one JSON object a puzzle, a line each, in the layout of
bankquery list -format json, numbered in the pack's order.

Examples:
  bankquery packs show acme-2026-11
  bankquery packs show 3 -json | jq -r .puzzle
`

func runPacksShow(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery packs show", flag.ContinueOnError)
	db := dbFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object a puzzle, a line each")
	name, err := parsePackArgs(e, fs, packsShowUsage, args)
	if err != nil {
		return helped(err)
	}
	bank, p, err := openPack(ctx, e, openReadOnly, *db, name)
	if err != nil {
		return err
	}
	defer bank.Close()
	rows, err := packRows(ctx, bank, p)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if *asJSON {
		if err := export.Write(ctx, &b, export.JSON, items(rows, 1), export.Options{}); err != nil {
			return err
		}
		_, err = e.stdout.Write(b.Bytes())
		return err
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "pack\t%d\n", p.ID)
	fmt.Fprintf(tw, "name\t%s\n", printable(p.Name))
	fmt.Fprintf(tw, "client\t%s\n", orDash(printable(p.Client)))
	fmt.Fprintf(tw, "format\t%s\n", orDash(p.Format))
	fmt.Fprintf(tw, "puzzles\t%d\n", p.Size)
	fmt.Fprintf(tw, "created\t%s\n", p.CreatedAt.UTC().Format(time.DateTime))
	fmt.Fprintf(tw, "released\t%s\n", released(p))
	fmt.Fprintf(tw, "filters\t%s\n", orDash(p.FilterText))
	tw.Flush()
	b.WriteByte('\n')
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "number\tid\tfamily\tlevel\trating\tgivens\tpuzzle")
	for i, r := range rows {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%.1f\t%d\t%s\n", i+1, r.ID, r.FamilyID, levelName(r.Level), tenths(r.ER), r.Givens, r.Puzzle)
	}
	tw.Flush()
	_, err = e.stdout.Write(b.Bytes())
	return err
}
