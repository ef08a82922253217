package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sudokubank/store"
)

const packsUsage = `Usage: bankquery packs [-db puzzles.db]

Packs lists the packs exported so far, oldest first: ID, name, client
(whose families the pack reserved), format, number of puzzles, when it
was made (UTC) and the filters it was chosen with.

Examples:
  bankquery packs
  bankquery packs -db /data/puzzles.db
`

func runPacks(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "packs", packsUsage)
	db := dbFlag(fs)
	if err := parseFlags(e, fs, args); err != nil {
		return helped(err)
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	bank, err := openReadOnly(ctx, *db)
	if err != nil {
		return err
	}
	defer bank.Close()
	packs, err := bank.Packs(ctx)
	if err != nil {
		return err
	}
	var b strings.Builder
	if len(packs) == 0 {
		fmt.Fprintln(&b, "no packs")
	} else {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tname\tclient\tformat\tpuzzles\tcreated\tfilters")
		for _, p := range packs {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\t%s\n", p.ID, printable(p.Name), orDash(printable(p.Client)), orDash(p.Format),
				p.Size, p.CreatedAt.UTC().Format(time.DateTime), orDash(p.FilterText))
		}
		tw.Flush()
	}
	_, err = io.WriteString(e.stdout, b.String())
	return err
}

// printable returns a name as it is, or quoted with its control
// characters escaped if it is not a valid name (store.CheckName), as one
// a bank recorded before names were checked may be: it must not forge a
// row or reorder the line.
func printable(name string) string {
	if store.CheckName(name) != nil {
		return strconv.Quote(name)
	}
	return name
}
