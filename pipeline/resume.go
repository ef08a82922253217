package pipeline

import (
	"context"
	"fmt"
	"slices"

	"sudokubank/grade"
	"sudokubank/solve"
	"sudokubank/store"
)

// Resume is what earlier runs of a job stored in the bank. A job is a
// seed, a shard and the options that decide its families, so that each
// of its runs makes the same families from the same items; a rerun of
// one that was interrupted or killed counts them toward its target
// rather than making others in their place, and ends with the families
// one uninterrupted run makes (GenerateConfig.Resume).
type Resume struct {
	runs []int64
	fams []resumed // in the order stored
}

// resumed is a family an earlier run of the job stored.
type resumed struct {
	hash  uint64
	level grade.Level
	index uint64 // the item that made it
}

// LoadResume reads the families that runs, the earlier runs of a job
// with the given seed, stored.
func LoadResume(ctx context.Context, db *store.DB, seed uint64, runs []int64) (*Resume, error) {
	r := &Resume{runs: slices.Clone(runs)}
	err := db.RunFamilies(ctx, runs, func(f store.RunFamily) error {
		h := HashText(f.Canon)
		if len(f.Canon) == 81 {
			h = Hash(solve.GridOf(f.Canon))
		}
		r.fams = append(r.fams, resumed{hash: h, level: grade.Level(f.Level), index: itemIndex(seed, f.Seed)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load the families of the job's earlier runs: %w", err)
	}
	return r, nil
}

// Families returns how many families the earlier runs stored.
func (r *Resume) Families() int {
	if r == nil {
		return 0
	}
	return len(r.fams)
}

// exceptRuns returns the earlier runs, whose families a rerun's start
// points leave out.
func (r *Resume) exceptRuns() []int64 {
	if r == nil {
		return nil
	}
	return r.runs
}

// resume prepares c, a rerun of the job of c.Resume, and returns the
// first item to make and the hashes of the families the collector counts
// without writing them (Config.Resumed).
//
// The workers must make the earlier runs' families as the first run
// made them, so those leave the bank's part of the dedup set (a walk
// passes over the bank's families). A run stores the families of its
// items in item order, so the earlier runs stored those of a prefix of
// the items, the last item's perhaps only in part: the families of the
// items before the last count at once, and the run starts at that item.
// Where the run would judge its give-up budget (Target.GiveUpAfter)
// within the prefix, it cannot count that prefix's items without making
// them, and starts from the first.
func (c *GenerateConfig) resume() (first uint64, claim map[uint64]struct{}) {
	first = c.Shard.first()
	if c.Resume.Families() == 0 {
		return first, nil
	}
	all := make(map[uint64]struct{}, len(c.Resume.fams))
	last, inShard := uint64(0), true
	for _, f := range c.Resume.fams {
		all[f.hash] = struct{}{}
		last = max(last, f.index)
		inShard = inShard && c.Shard.holds(f.index)
	}
	c.Seen.forget(all)
	if c.Target == nil {
		c.Target = Unlimited()
	}
	if !inShard || c.Target.budget > 0 && c.Shard.position(last) < uint64(c.Target.budget) {
		return first, all
	}
	claim = make(map[uint64]struct{})
	for _, f := range c.Resume.fams {
		if f.index == last {
			claim[f.hash] = struct{}{}
			continue
		}
		c.Seen.Add(f.hash)
		// Past the target are the families of reruns that made a new
		// share on top, before reruns counted the earlier runs'.
		if c.Target.Wants(f.level) {
			c.Target.Take(f.level)
			c.Stats.Resumed.Add(1)
		}
	}
	// The first run judged its budget before the last item, and met it:
	// a level it then had it keeps.
	c.Target.GiveUpAfter(0)
	return last, claim
}
