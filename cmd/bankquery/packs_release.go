package main

import (
	"context"
	"flag"
	"fmt"
	"time"
)

const packsReleaseUsage = `Usage: bankquery packs release NAME [-db puzzles.db] [-force]

Packs release gives the families of the pack NAME (or, where no pack
has that name, the pack with that ID) back, as when an order is
cancelled: they are no longer reserved to the pack's client, so another
client's export may pick them; -fresh exports no longer count them as
packed; and the client may be given them again. A family the client
holds from another pack stays reserved to them. The pack's record and
its puzzles stay (packs show, packs export), marked with the time of the
release.

Without -force nothing changes: it says what the release would free and
exits with status 2.

Examples:
  bankquery packs release acme-2026-11
  bankquery packs release acme-2026-11 -force
`

func runPacksRelease(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery packs release", flag.ContinueOnError)
	db := dbFlag(fs)
	force := fs.Bool("force", false, "release the pack (without it, say what the release would free)")
	name, err := parsePackArgs(e, fs, packsReleaseUsage, args)
	if err != nil {
		return helped(err)
	}
	// The release is one transaction: an interrupt rolls it back.
	return interrupted(ctx, e, "packs release", releasePack(ctx, e, *db, name, *force), "pack "+printable(name)+" was not released")
}

// releasePack releases the pack name of the bank db, or with force
// false says what the release would free.
func releasePack(ctx context.Context, e *env, db, name string, force bool) error {
	// Without -force nothing is written, so the bank is only read.
	open := openReadOnly
	if force {
		open = openWriter
	}
	bank, p, err := openPack(ctx, e, open, db, name)
	if err != nil {
		return err
	}
	defer bank.Close()
	if p.Released() {
		return fmt.Errorf("pack %d %s was released already, %s UTC", p.ID, printable(p.Name), p.ReleasedAt.Format(time.DateTime))
	}
	if !force {
		n, err := bank.PackReservations(ctx, p.ID)
		if err != nil {
			return err
		}
		return usagef("packs release: would release pack %d %s, freeing %s; run again with -force to release it", p.ID, printable(p.Name), frees(p.Client, p.Size, n))
	}
	p, n, err := bank.ReleasePack(ctx, p.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "released pack %d %s, freeing %s\n", p.ID, printable(p.Name), frees(p.Client, p.Size, n))
	return nil
}

// frees says what releasing a pack of size families for client frees,
// n of them reserved by the pack.
func frees(client string, size, n int) string {
	if client == "" {
		return fmt.Sprintf("its %d families for -fresh", size)
	}
	return fmt.Sprintf("%d families reserved to %s for other clients, and its %d families for -fresh and for %s",
		n, printable(client), size, printable(client))
}
