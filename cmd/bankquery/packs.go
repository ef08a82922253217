package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sudokubank/internal/cli"
	"sudokubank/store"
)

const packsUsage = `Usage: bankquery packs [-db puzzles.db] [-json]
       bankquery packs show NAME [-db puzzles.db] [-json]
       bankquery packs export NAME -format FORMAT -out FILE [-db puzzles.db] [export's output flags]
       bankquery packs release NAME [-db puzzles.db] [-force]

Packs lists the packs exported so far, oldest first: ID, name, client
(whose families the pack reserved), format, number of puzzles, when it
was made and when it was released (UTC), and the filters it was chosen
with. -json prints one JSON object a pack, a line each.

A pack is named by its name or, where no pack has that name, by its ID.

  show      lists a pack's puzzles in the pack's order
  export    writes a pack's puzzles again, in the pack's order, in any
            format: a PDF and a CSV of one pack hold the same puzzles
  release   gives a pack's families back: they are no longer reserved to
            its client, and -fresh and the client's own exports may pick
            them again; the pack's record stays, marked released

Run "bankquery packs show -h" (export, release) for each one's flags.

Examples:
  bankquery packs
  bankquery packs -db /data/puzzles.db -json | jq 'select(.client == "acme")'
  bankquery packs show acme-2026-11
  bankquery packs export acme-2026-11 -format pdf -out acme.pdf -title "Acme Sudoku"
  bankquery packs release acme-2026-11 -force
`

// packsSubcommands are the subcommands of packs, by the name that
// follows "packs".
var packsSubcommands = map[string]func(context.Context, *env, []string) error{
	"show":    runPacksShow,
	"export":  runPacksExport,
	"release": runPacksRelease,
}

func runPacks(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 {
		if sub, ok := packsSubcommands[args[0]]; ok {
			return interrupted(ctx, e, "packs "+args[0], sub(ctx, e, args[1:]), "")
		}
		if !strings.HasPrefix(args[0], "-") {
			return usagef("unknown packs command %q: want show, export or release, or none to list the packs", args[0])
		}
	}
	fs := flag.NewFlagSet("bankquery packs", flag.ContinueOnError)
	db := dbFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object a pack, a line each")
	if err := cli.ParseFlags(fs, packsUsage, args, e.stdout); err != nil {
		return helped(err)
	}
	if _, ok := packsSubcommands[fs.Arg(0)]; ok {
		// The commands take their own flags: the name must come first.
		return usagef("%q comes first, right after packs: bankquery packs %s NAME [flags]", fs.Arg(0), fs.Arg(0))
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	bank, err := openReadOnly(ctx, e, *db)
	if err != nil {
		return err
	}
	defer bank.Close()
	packs, err := bank.Packs(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		for _, p := range packs {
			if err := enc.Encode(makePackJSON(p)); err != nil {
				return err
			}
		}
		_, err = io.WriteString(e.stdout, b.String())
		return err
	}
	var b strings.Builder
	if len(packs) == 0 {
		fmt.Fprintln(&b, "no packs")
	} else {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tname\tclient\tformat\tpuzzles\tcreated\treleased\tfilters")
		for _, p := range packs {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", p.ID, printable(p.Name), orDash(printable(p.Client)), orDash(p.Format),
				p.Size, p.CreatedAt.UTC().Format(time.DateTime), released(p), orDash(p.FilterText))
		}
		tw.Flush()
	}
	_, err = io.WriteString(e.stdout, b.String())
	return err
}

// packJSON is a pack as packs -json prints it.
type packJSON struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Client   string `json:"client"`
	Format   string `json:"format"`
	Puzzles  int    `json:"puzzles"`
	Created  string `json:"created"`            // RFC 3339, UTC
	Released string `json:"released,omitempty"` // RFC 3339, UTC; absent while the pack holds its families
	Filters  string `json:"filters"`
}

func makePackJSON(p store.Pack) packJSON {
	j := packJSON{ID: p.ID, Name: p.Name, Client: p.Client, Format: p.Format, Puzzles: p.Size,
		Created: p.CreatedAt.UTC().Format(time.RFC3339), Filters: p.FilterText}
	if p.Released() {
		j.Released = p.ReleasedAt.UTC().Format(time.RFC3339)
	}
	return j
}

// released is when pack p was released, or "-".
func released(p store.Pack) string {
	if !p.Released() {
		return "-"
	}
	return p.ReleasedAt.UTC().Format(time.DateTime)
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

// parsePackArgs parses the flags of a packs subcommand, which may come
// before or after the pack's name ("packs show acme -json", as the
// examples write it), and returns the name: exactly one is wanted.
func parsePackArgs(e *env, fs *flag.FlagSet, usage string, args []string) (string, error) {
	if err := cli.ParseFlags(fs, usage, args, e.stdout); err != nil {
		return "", err
	}
	var names []string
	for rest := args; ; {
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		if n := len(rest) - len(left); n > 0 && rest[n-1] == "--" {
			// After "--" everything is an argument.
			names = append(names, left...)
			break
		}
		names = append(names, left[0])
		rest = left[1:]
		if err := fs.Parse(rest); err != nil {
			return "", usageError{Err: err}
		}
	}
	switch len(names) {
	case 0:
		return "", usagef("no pack named (give its name or ID; bankquery packs lists them)")
	case 1:
		return names[0], nil
	}
	return "", usagef("unexpected argument %q: one pack at a time", names[1])
}

// openPack opens the bank at path with open and finds the pack name in
// it; the caller closes the bank.
func openPack(ctx context.Context, e *env, open func(context.Context, *env, string) (*store.DB, error), path, name string) (*store.DB, store.Pack, error) {
	bank, err := open(ctx, e, path)
	if err != nil {
		return nil, store.Pack{}, err
	}
	p, err := findPack(ctx, bank, name)
	if err != nil {
		bank.Close()
		return nil, store.Pack{}, err
	}
	return bank, p, nil
}

// findPack returns the pack named name or, where no pack has that name
// and it is a number, the pack with that ID (store.FindPack), with the
// messages a user sees.
func findPack(ctx context.Context, bank *store.DB, name string) (store.Pack, error) {
	p, err := bank.FindPack(ctx, name)
	if shared := (*store.SharedNameError)(nil); errors.As(err, &shared) {
		ids := make([]string, len(shared.IDs))
		for i, id := range shared.IDs {
			ids[i] = strconv.FormatInt(id, 10)
		}
		return store.Pack{}, usageError{Err: fmt.Errorf("%d packs are named %s (IDs %s): name one by its ID", len(ids), printable(name), strings.Join(ids, ", "))}
	}
	if errors.Is(err, store.ErrNotFound) {
		return store.Pack{}, fmt.Errorf("no pack named %s: %w (bankquery packs lists them)", printable(name), store.ErrNotFound)
	}
	return p, err
}

// packRows returns the puzzles of pack p, in the pack's order.
func packRows(ctx context.Context, bank *store.DB, p store.Pack) ([]store.Row, error) {
	rows, err := bank.PackRows(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	if len(rows) != p.Size {
		return nil, fmt.Errorf("pack %d %s: %d puzzles recorded of its %d: the record is damaged", p.ID, printable(p.Name), len(rows), p.Size)
	}
	return rows, nil
}
