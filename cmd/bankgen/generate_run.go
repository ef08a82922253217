package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"sudokubank/internal/cli"
	"sudokubank/internal/plural"
	"sudokubank/pipeline"
	"sudokubank/store"
)

// generate runs the generating pipeline with options o.
func generate(ctx context.Context, o generateOptions, args []string, stdout, stderr io.Writer) (err error) {
	log := newLogger(stderr)
	// The profile starts before the run is recorded, so that a bad
	// -cpuprofile path leaves no run behind that never ends.
	for _, prof := range []struct {
		path  string
		start func(string) (func() error, error)
	}{{o.cpuprof, startCPUProfile}, {o.memprof, startMemProfile}} {
		if prof.path == "" {
			continue
		}
		stopProf, perr := prof.start(prof.path)
		if perr != nil {
			return perr
		}
		defer func() {
			if perr := stopProf(); perr != nil && err == nil {
				err = perr
			}
		}()
	}
	db, seen, have, err := openBank(ctx, o.db, o.size.shape, log, 1+o.variants, o.sync.full)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close bank %s: %w", o.db, cerr)
		}
	}()

	resume, err := loadResume(ctx, db, o, log)
	if err != nil {
		return fmt.Errorf("bank %s: %w", o.db, err)
	}
	target := pipeline.Count(o.count, o.levels)
	var caps *store.Caps
	if o.quota.set {
		// The target is what the bank lacked at open; the caps hold the
		// bank to the quota whatever other runs write meanwhile.
		target = pipeline.Quota(o.quota.want, have)
		c := pipeline.QuotaCaps(o.quota.want)
		caps = &c
	}
	build := pipeline.BuildOptions{
		Shape: o.size.shape, Variants: o.variants, Symmetry: o.symmetry.sym, RandomSymmetry: o.symmetry.random,
		MinGivens: o.givens.lo, MaxGivens: o.givens.hi,
		Hardest: o.hardest, Uses: o.uses, RatingMin: o.rating.lo, RatingMax: o.rating.hi,
		NoSearch: !o.search, Seen: seen,
	}
	runID, err := db.StartRun(ctx, store.Run{
		Kind: store.RunGenerate, Source: "gen", Args: args,
		Params: strings.Join(args, " "), Seed: o.seed, CodeVersion: codeVersion(),
	})
	if err != nil {
		return fmt.Errorf("bank %s: %w", o.db, err)
	}
	if o.shard.Whole() {
		fmt.Fprintf(stderr, "bankgen: run %d, seed %d (-seed %d repeats it)\n", runID, o.seed, o.seed)
	} else {
		fmt.Fprintf(stderr, "bankgen: run %d, seed %d, shard %s (-seed %d -shard %s repeats it)\n", runID, o.seed, o.shard, o.seed, o.shard)
	}

	build.RunID = runID
	stats := new(pipeline.Stats)
	var sum pipeline.Summary
	var runErr error
	if len(o.quota.keys) == 0 {
		stop := startProgress(ctx, o.quiet, stats, max(target.Remaining()-resume.Families(), 0), stderr, log)
		sum, runErr = pipeline.Generate(ctx, db, pipeline.GenerateConfig{
			BuildOptions: build,
			Seed:         o.seed, Shard: o.shard, Target: target, Caps: caps, Workers: o.workers, Log: log, Stats: stats,
			FromBank: true, Resume: resume,
		})
		stop()
	} else {
		sum, runErr = pipeline.GenerateKeys(ctx, db, pipeline.KeysConfig{
			GenerateConfig: pipeline.GenerateConfig{
				BuildOptions: build,
				Seed:         o.seed, Shard: o.shard, Workers: o.workers, Log: log, Stats: stats,
				FromBank: true,
			},
			Keys:  o.quota.keys,
			Start: func(total int) func() { return startProgress(ctx, o.quiet, stats, total, stderr, log) },
		})
	}
	if err := pipeline.FinishRun(ctx, db, runID, &sum, runErr); err != nil && runErr == nil {
		runErr = err
	}
	printSummary(stdout, o, runID, sum, runErr)
	if runErr != nil {
		return runErr
	}
	if sum.Interrupted {
		return errInterrupted
	}
	return nil
}

// rate is n in secs a second, whole, but with as many decimals as a
// slow run (16x16 and 25x25 families take seconds each) needs to show
// two digits that are not zero: 0.43, not 0.
func rate(n int64, secs float64) string {
	r := float64(n) / secs
	switch {
	case r == 0 || r >= 10:
		return fmt.Sprintf("%.0f", r)
	case r >= 1:
		return fmt.Sprintf("%.1f", r)
	case r >= 0.1:
		return fmt.Sprintf("%.2f", r)
	}
	return fmt.Sprintf("%.2g", r)
}

// printSummary reports what a generating run did; a run that failed
// with runErr says so, and the caller reports the reason.
func printSummary(w io.Writer, o generateOptions, runID int64, s pipeline.Summary, runErr error) {
	// A run counts as at least a millisecond, so that the rates stay
	// finite for one interrupted at once.
	secs := max(s.Elapsed.Seconds(), 0.001)
	status := runStatus(s, runErr)
	fmt.Fprintf(w, "bankgen: %s: %s and %s written to %s in %s (%s families/s, %s puzzles/s)\n",
		status, plural.Count(s.Families, "family"), plural.Count(s.Puzzles-s.Families, "variant"), o.db,
		seconds(s.Elapsed), rate(s.Families, secs), rate(s.Puzzles, secs))
	if s.Exhausted != "" {
		fmt.Fprintf(w, "  ended early: %s\n", s.Exhausted)
	}
	if short := s.Families*int64(o.variants) - (s.Puzzles - s.Families); short > 0 {
		fmt.Fprintf(w, "  %s fewer than -variants %d asks: no more distinct puzzles with the families' symmetry were found\n", plural.Count(short, "variant"), o.variants)
	}
	fmt.Fprintf(w, "  per level: %s\n", cli.LevelString(s.Levels))
	if s.Resumed > 0 {
		fmt.Fprintf(w, "  resumed: %d families that earlier runs of this shard stored count toward its share\n", s.Resumed)
	}
	skipped := fmt.Sprintf("%s, %d of unwanted levels", plural.Count(s.Duplicates, "duplicate"), s.OffLevel)
	switch {
	case o.givens.lo > 0:
		skipped += fmt.Sprintf(", %d outside %d-%d givens", s.OffGivens, o.givens.lo, o.givens.hi)
	case s.OffGivens > 0:
		// Digs that could not be brought to their level's givens
		// (pipeline.DefaultGivens): rare, but counted.
		skipped += fmt.Sprintf(", %d outside their level's givens", s.OffGivens)
	}
	if o.rating != (ratingFlag{}) || len(o.hardest) > 0 || len(o.uses) > 0 || len(o.quota.keys) > 0 {
		skipped += fmt.Sprintf(", %d off target", s.OffTarget)
	}
	if o.quota.set {
		// Made for what the bank lacked, and left out by the store because
		// another run on the bank filled the quota first.
		skipped += fmt.Sprintf(", %d over quota", s.OverQuota)
	}
	fmt.Fprintf(w, "  skipped: %s, %d failed (see the log)\n", skipped, s.Failed)
	if o.shard.Whole() {
		fmt.Fprintf(w, "  run %d, seed %d\n", runID, o.seed)
	} else {
		fmt.Fprintf(w, "  run %d, seed %d, shard %s\n", runID, o.seed, o.shard)
	}
}

// runStatus is the word a summary starts with: how the run ended.
func runStatus(s pipeline.Summary, runErr error) string {
	switch {
	case runErr != nil:
		return "failed"
	case s.Interrupted:
		return "interrupted"
	}
	return "done"
}

// seconds formats a run's duration for its summary: to the hundredth of
// a second under ten seconds, so that a short run does not read "0.0s",
// and to the tenth above.
func seconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}
