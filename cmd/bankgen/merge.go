package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sudokubank/internal/cli"
	"sudokubank/internal/filekind"
	"sudokubank/internal/plural"
	"sudokubank/store"
)

const mergeUsage = `Usage: bankgen merge -db OUT.db [-packs refuse|drop] SHARD.db...

merge adds to the bank OUT.db (created if missing) every family of each
shard bank that OUT.db lacks, by canonical form, with its puzzles and
grades: the banks that bankgen -shard I/N built, on one machine or many, or
any other banks. Each shard is merged in one transaction and recorded in
OUT.db as a run of kind merge whose message lists the shard's own runs
(seeds, arguments and code versions). Merging a shard again adds nothing,
the order of the shards does not change what OUT.db holds, and a merge
that is stopped, or fails at a shard, leaves OUT.db as its last merged
shard left it, and says which shards were merged and which not: run it
again to finish.

A shard that is missing, not a regular file, or OUT.db itself is refused
before any shard is merged. A file that is not a bank, a bank of a newer
bankgen and a damaged bank are refused when the merge reaches them; a bank
of an older bankgen is migrated in place first. A shard is damaged if
SQLite's quick check fails on it, or if a stored grid no longer reads as a
puzzle that agrees with its solution (a complete grid) under its key: the
message names the shard and the family or puzzle, and bankquery check -db
SHARD says all that is wrong. A shard that holds packs is refused: -packs
drop merges its families and leaves its packs behind.

Examples:
  bankgen merge -db bank.db shard-*.db
  bankgen merge -db bank.db -packs drop client-bank.db
`

// mergeOptions are the flags of the merge command.
type mergeOptions struct {
	db        string
	shards    []string
	dropPacks bool
}

// packsFlag is -packs: what to do with a shard that holds packs.
type packsFlag struct{ drop bool }

func (f *packsFlag) String() string {
	if f.drop {
		return "drop"
	}
	return "refuse"
}

func (f *packsFlag) Set(s string) error {
	switch s {
	case "refuse":
		f.drop = false
	case "drop":
		f.drop = true
	default:
		return errors.New("want refuse or drop")
	}
	return nil
}

func parseMerge(args []string, stdout io.Writer) (mergeOptions, error) {
	var o mergeOptions
	var packs packsFlag
	fs := flag.NewFlagSet("bankgen merge", flag.ContinueOnError)
	fs.StringVar(&o.db, "db", "", "the bank `file` to merge into, created if missing")
	fs.Var(&packs, "packs", "a shard holding packs is refused (`refuse`), or merged without them (drop)")
	if err := cli.ParseFlags(fs, mergeUsage, args, stdout); err != nil {
		return o, err
	}
	o.dropPacks = packs.drop
	// Flags end at the first shard name: a flag after it would be taken
	// for a shard, and met only once the shards before it were merged.
	for _, a := range fs.Args() {
		if len(a) > 1 && a[0] == '-' {
			return o, usageError{Err: fmt.Errorf("flag %s after the shard names: flags go before them (bankgen merge -db OUT.db [-packs drop] SHARD.db...; a shard whose name starts with - is ./%s)", a, a)}
		}
	}
	switch {
	case o.db == "":
		return o, usageError{Err: errors.New("merge needs -db OUT.db, the bank to merge into")}
	case fs.NArg() == 0:
		return o, usageError{Err: errors.New("merge takes one SHARD.db or more")}
	}
	o.shards = fs.Args()
	return o, nil
}

// checkShardFile refuses a shard that is the bank merged into (out), is
// missing or is no regular file, as a usage error, and one this process
// may not read. Whether it is a bank is the store's to judge.
func checkShardFile(shard, out string) error {
	st, err := os.Stat(shard)
	switch {
	case sameFile(shard, out) || err != nil && filepath.Clean(shard) == filepath.Clean(out):
		return usageError{Err: fmt.Errorf("shard %s is the bank merged into (-db %s): leave it out of the shards", shard, out)}
	case errors.Is(err, fs.ErrNotExist):
		return usageError{Err: fmt.Errorf("shard %s: %w", shard, cli.Reason(err))}
	case err != nil:
		return fmt.Errorf("shard %s: %w", shard, cli.Reason(err))
	case !st.Mode().IsRegular():
		return usageError{Err: fmt.Errorf("shard %s is %s, not a bank", shard, filekind.Of(st.Mode()))}
	}
	f, err := os.Open(shard)
	if err != nil {
		return fmt.Errorf("shard %s: %w", shard, cli.Reason(err))
	}
	return f.Close()
}

// runMerge is the merge command.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseMerge(args, stdout)
	if err != nil {
		return err
	}
	// Every shard is looked at before any is merged, not when the merge
	// reaches it: a mistyped name, or the bank merged into among the
	// shards (banks/*.db), would otherwise fail the merge only after the
	// shards before it were merged.
	for _, sh := range o.shards {
		if err := checkShardFile(sh, o.db); err != nil {
			return err
		}
	}
	// A bank to be made where there is no directory fails as the first
	// shard is merged, which the summary would blame.
	if _, err := os.Stat(o.db); errors.Is(err, fs.ErrNotExist) {
		if dir := filepath.Dir(o.db); !isDir(dir) {
			return fmt.Errorf("open bank %s: no directory %s to make it in", o.db, dir)
		}
	}
	return merge(ctx, o, args, stdout, stderr)
}

// merge merges o.shards into o.db in turn, stopping at the first that
// fails or when ctx is cancelled: the shards merged by then stay.
func merge(ctx context.Context, o mergeOptions, args []string, stdout, stderr io.Writer) (err error) {
	log := newLogger(stderr)
	// A fresh bank defers its secondary indexes to its close, as a bulk
	// load does; an existing one keeps them live.
	opts := store.BulkOptions(o.db)
	opts.Log, opts.OnMigrate = log, noteMigration
	// A missing bank is made of the first shard's pages (store.MergeNew),
	// indexes included: with no shard after it, none is deferred.
	var db *store.DB
	if _, err := os.Stat(o.db); errors.Is(err, fs.ErrNotExist) {
		opts.DeferIndexes = len(o.shards) > 1
	} else if db, err = store.Open(ctx, o.db, opts); err != nil {
		return err
	}
	defer func() {
		if db == nil {
			return
		}
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close bank %s: %w", o.db, cerr)
		}
	}()
	var total store.MergeResult
	merged := 0 // the shards merged and committed, o.shards[:merged]
	start := time.Now()
	// A merge that ends early says what OUT holds: the shards merged
	// and committed, and those not merged.
	stopped := func() error {
		printUnfinished(stdout, nil, o, merged, db != nil, total, time.Since(start))
		return errInterrupted
	}
	failed := func(err error) error {
		printUnfinished(stdout, err, o, merged, db != nil, total, time.Since(start))
		return err
	}
	// Each shard is checked (a quick check that reads all of it) while
	// the one before is merged: the check takes the other core.
	type checked struct {
		shard *store.CheckedShard
		err   error
	}
	next := make(chan checked, 1)
	pending := false
	check := func(i int) {
		pending = true
		into := db // nil until the bank is made
		go func() {
			var c checked
			switch {
			case into != nil:
				c.shard, c.err = into.CheckShard(ctx, o.shards[i], o.dropPacks)
			case i == 0:
				// The bank is made of this shard's pages (store.MergeNew),
				// which checks them while it copies them.
				c.shard, c.err = store.PrepareShard(ctx, o.shards[i], o.dropPacks)
			default:
				c.shard, c.err = store.CheckShard(ctx, o.shards[i], o.dropPacks)
			}
			next <- c
		}()
	}
	defer func() {
		if pending {
			<-next // the shard is closed before the bank is
		}
	}()
	check(0)
	for i, shard := range o.shards {
		c := <-next
		pending = false
		// A merge holds its shard's write lock, and a check opens its
		// shard as a writer: the same file named twice in a row is
		// checked after the merge, not waiting on it.
		early := i+1 < len(o.shards) && !sameFile(shard, o.shards[i+1])
		if c.err == nil && early && ctx.Err() == nil {
			check(i + 1)
		}
		if ctx.Err() != nil {
			return stopped()
		}
		if c.err != nil {
			return failed(c.err)
		}
		t0 := time.Now()
		mo := store.MergeOptions{Args: append([]string{"merge"}, args...), CodeVersion: codeVersion()}
		var res store.MergeResult
		db, res, err = mergeShard(ctx, db, o.db, c.shard, opts, mo)
		if err != nil {
			// A signal that lands inside the shard's transaction may
			// come back as SQLite's "interrupted (9)", not as the
			// context's error: the shard is rolled back either way.
			if ctx.Err() != nil {
				return stopped()
			}
			return failed(fmt.Errorf("bank %s: %w", o.db, err))
		}
		for i, r := range res.ShardRuns {
			if r.Status != store.RunCompleted && !ranAgain(res.ShardRuns[i+1:], r) {
				// Its committed families are merged; the job may be short.
				log.Warn("a run of the shard did not complete: build the shard again (same command) and merge it again to finish it",
					"shard", shard, "run", r.ID, "status", r.Status, "args", r.Args)
			}
		}
		fmt.Fprintf(stdout, "bankgen: merged %s: %s and %s added, %s already held (run %d, %s)\n",
			shard, plural.Count(res.Families, "family"), plural.Count(res.Puzzles, "puzzle"), plural.Count(res.DupFamilies, "family"), res.RunID, seconds(time.Since(t0)))
		if !early && i+1 < len(o.shards) && ctx.Err() == nil {
			check(i + 1)
		}
		total.Families += res.Families
		total.Puzzles += res.Puzzles
		total.DupFamilies += res.DupFamilies
		merged = i + 1
	}
	// The indexes a fresh bank deferred are built now rather than at
	// Close, so that the summary's time is the whole merge's: on four
	// shards of 500,000 puzzles the build is a third of it.
	if db != nil {
		if err := db.BuildIndexes(ctx); err != nil {
			if ctx.Err() != nil {
				return stopped()
			}
			return failed(err)
		}
	}
	fmt.Fprintf(stdout, "bankgen: done: %s merged into %s: %s and %s added, %s already held, in %s\n",
		plural.Count(int64(len(o.shards)), "shard"), o.db, plural.Count(total.Families, "family"), plural.Count(total.Puzzles, "puzzle"),
		plural.Count(total.DupFamilies, "family"), seconds(time.Since(start)))
	return nil
}

// mergeShard merges the checked shard c into db, or makes the bank path
// of it when db is nil (store.MergeNew), and returns the bank. A test
// replaces it to fail as SQLite fails when a signal lands mid-merge.
var mergeShard = func(ctx context.Context, db *store.DB, path string, c *store.CheckedShard, opts store.Options, mo store.MergeOptions) (*store.DB, store.MergeResult, error) {
	if db == nil {
		return store.MergeNew(ctx, path, c, opts, mo)
	}
	res, err := db.MergeShard(ctx, c, mo)
	return db, res, err
}

// printUnfinished reports a merge that ended after merged of its shards,
// stopped by a signal (failure nil) or by failure at the next shard (or
// at the indexes, once all are merged): those merged are committed and
// stay; the others are not merged, not even in part (a shard is one
// transaction), and the same merge run again adds them, the merged ones
// adding nothing the second time. made is whether the bank exists: a
// missing one is made with its first shard.
func printUnfinished(w io.Writer, failure error, o mergeOptions, merged int, made bool, total store.MergeResult, took time.Duration) {
	how := "interrupted"
	if failure != nil {
		how = "failed"
	}
	fmt.Fprintf(w, "bankgen: %s: %d of %s merged into %s: %s and %s added, %s already held, in %s\n",
		how, merged, plural.Count(int64(len(o.shards)), "shard"), o.db, plural.Count(total.Families, "family"),
		plural.Count(total.Puzzles, "puzzle"), plural.Count(total.DupFamilies, "family"), seconds(took))
	notMade := ""
	if !made {
		notMade = fmt.Sprintf(" (%s was not made)", o.db)
	}
	fmt.Fprintf(w, "  merged and committed: %s%s\n", shardList(o.shards[:merged]), notMade)
	switch {
	case merged == len(o.shards) && failure == nil:
		fmt.Fprintf(w, "  not merged: none (%s builds its indexes as it closes)\n", o.db)
	case merged == len(o.shards):
		fmt.Fprintf(w, "  not merged: none\n")
	case failure == nil:
		fmt.Fprintf(w, "  not merged: %s; run the same merge again to finish (a merged shard adds nothing again)\n", shardList(o.shards[merged:]))
	default:
		// A shard a run still writes (an older bankgen's, which its
		// migration waits for, or a current one's) is whole: it needs
		// that run's end, not mending.
		advice := "mend it or leave it out"
		if errors.Is(failure, store.ErrLiveOlderRun) || errors.Is(failure, store.ErrShardBusy) {
			advice = "let that run finish or stop it"
		}
		fmt.Fprintf(w, "  not merged: %s; the merge stopped at %s: %s, and run the merge again to finish (a merged shard adds nothing again)\n",
			shardList(o.shards[merged:]), o.shards[merged], advice)
	}
}

// shardList names shards for a summary, "none" for none.
func shardList(shards []string) string {
	if len(shards) == 0 {
		return "none"
	}
	return strings.Join(shards, ", ")
}

// ranAgain reports whether one of later, a shard's runs after r, is r's
// command run again to its end, as the merge's warning about r asks: for
// a -shard run, a run of its job (sameJob), which finishes it whatever
// its -workers.
func ranAgain(later []store.Run, r store.Run) bool {
	o, ok := recordedJob(r.Args)
	shard := ok && r.Kind == store.RunGenerate && o.shard.N > 0
	return slices.ContainsFunc(later, func(l store.Run) bool {
		return l.Status == store.RunCompleted && l.Kind == r.Kind && len(r.Args) > 0 &&
			(slices.Equal(l.Args, r.Args) || shard && sameJob(l.Args, o))
	})
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// sameFile reports whether the paths a and b name one file that exists.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
