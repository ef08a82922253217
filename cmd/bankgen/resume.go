package main

import (
	"context"
	"io"
	"log/slog"
	"reflect"
	"strings"

	"sudokubank/pipeline"
	"sudokubank/store"
)

// loadResume returns the families that earlier runs of o's job stored
// in the bank, for a -shard run of -count: -count is then the whole
// job's total, and the shard's share of it counts the families its
// earlier runs stored, so that the same command run again after an
// interruption or a kill finishes the shard as one run would have made
// it. A run without -shard keeps -count's meaning, N new families; a
// -quota run counts the bank's families already. It returns nil for
// those.
func loadResume(ctx context.Context, db *store.DB, o generateOptions, log *slog.Logger) (*pipeline.Resume, error) {
	if o.shard.N == 0 || o.quota.set {
		return nil, nil
	}
	runs, err := db.Runs(ctx)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, r := range runs {
		if r.Kind == store.RunGenerate && r.Seed == o.seed && sameJob(r.Args, o) {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	res, err := pipeline.LoadResume(ctx, db, o.seed, ids)
	if err != nil {
		return nil, err
	}
	switch n := res.Families(); {
	case n > o.count:
		log.Warn("the shard holds more families of its job than its share: reruns by a bankgen from before they counted the earlier runs' families made a new share on top; build it again into a new bank for the shard one run makes",
			"runs", ids, "families", n, "share", o.count)
	case n > 0:
		log.Info("resuming the shard: the families its earlier runs stored count toward its share", "runs", ids, "families", n)
	}
	return res, nil
}

// sameJob reports whether a run with the command line args was a run of
// o's job: the same seed, shard and flags that decide which families
// its items make. The bank's name, -workers (any number makes the same
// bank), -quiet, -sync and the profiles do not.
func sameJob(args []string, o generateOptions) bool {
	p, ok := recordedJob(args)
	return ok && reflect.DeepEqual(p.job(), o.job())
}

// recordedJob reads the options of a generating run from the command
// line it recorded; false where there is none, or it does not parse.
func recordedJob(args []string) (generateOptions, bool) {
	if len(args) == 0 {
		return generateOptions{}, false
	}
	// A -workers too many for this machine's CPUs would not parse.
	var kept []string
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if strings.HasPrefix(args[i], "-") && name == "workers" {
			if !hasValue {
				i++
			}
			continue
		}
		kept = append(kept, args[i])
	}
	p, err := parseGenerate(kept, io.Discard)
	return p, err == nil
}

// job returns o without the flags that leave a run's families as they
// are.
func (o generateOptions) job() generateOptions {
	o.db, o.workers, o.quiet, o.sync, o.cpuprof, o.memprof = "", 0, false, syncFlag{}, "", ""
	// -givens as written: its bounds say the range.
	o.givens.text = ""
	return o
}
