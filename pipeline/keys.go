package pipeline

import (
	"context"
	"fmt"
	"time"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/store"
)

// QuotaKey is a quota of the bank's families of one kind: those whose
// hardest step is a technique, or whose rating is in a band.
type QuotaKey struct {
	Name                 string          // as the user gave it, for messages
	Hardest              grade.Technique // NoTechnique for a rating band
	RatingMin, RatingMax grade.Rating    // tenths; 0 is an open end
	Want                 int             // the families of the kind the bank should hold
}

// Filter selects the bank's families of every size the key counts; a
// run counts those of its own size (KeysConfig.keyFilter).
func (k QuotaKey) Filter() store.Filter {
	f := store.Filter{RatingMin: int(k.RatingMin), RatingMax: int(k.RatingMax)}
	if k.Hardest != grade.NoTechnique {
		f.Hardest = k.Hardest.Slug()
	}
	return f
}

// cap returns the store's cap on the key's families of size n, for one
// run's writer.
func (k QuotaKey) cap(n int) *store.KeyCap {
	f := k.Filter()
	return &store.KeyCap{Size: n, Hardest: f.Hardest, RatingMin: f.RatingMin, RatingMax: f.RatingMax, Max: int64(k.Want)}
}

// KeysConfig is a run that tops up the bank to quotas of techniques and
// rating bands (GenerateKeys).
type KeysConfig struct {
	// GenerateConfig is each pass's run; its Target, Caps, KeyCap,
	// Starts, and the Hardest and rating range of its BuildOptions are
	// the pass's key's.
	GenerateConfig
	Keys []QuotaKey
	// Start, if set, is called before the first pass with the families
	// the keys lack, and the func it returns after the last: progress.
	Start func(total int) (stop func())
}

// size is the N of the grids the run makes.
func (c *KeysConfig) size() int {
	if c.Shape.Valid() {
		return c.Shape.N
	}
	return grid.Nine.N
}

// keyFilter selects the bank's families key k counts: those of the run's
// size, as a level quota counts them (LoadBank, store.Caps), so that a
// 6x6 run tops up the 6x6 families whatever 9x9 ones the bank holds.
func (c *KeysConfig) keyFilter(k QuotaKey) store.Filter {
	f := k.Filter()
	f.Size = c.size()
	return f
}

// keyPass returns the run of the pass of key k, with the key's target.
func (c *KeysConfig) keyPass(k QuotaKey) GenerateConfig {
	gc := c.GenerateConfig
	gc.Hardest, gc.RatingMin, gc.RatingMax = nil, k.RatingMin, k.RatingMax
	if k.Hardest != grade.NoTechnique {
		gc.Hardest = []grade.Technique{k.Hardest}
	}
	return gc
}

// GenerateKeys tops up the bank to c.Keys, one key after another: each
// pass is a Generate of the families its key lacks, counted when the
// pass starts, so that what an earlier pass made counts for the later
// keys it meets. Pass i draws its items from seed c.Seed+i; with
// c.FromBank, its walks start from the bank's families nearest its key
// too, as the bank was before the first pass. The passes
// share c.Stats; the summary is the last pass's, with the time of all.
func GenerateKeys(ctx context.Context, db *store.DB, c KeysConfig) (Summary, error) {
	var sum Summary
	lacks := func(k QuotaKey) (int, error) {
		have, err := db.CountFamilies(ctx, c.keyFilter(k))
		if err != nil {
			return 0, fmt.Errorf("count the bank's families of %s: %w", k.Name, err)
		}
		return max(k.Want-int(have), 0), nil
	}
	// The progress counts against what the keys lack at the start: the
	// passes may make fewer, where one key's families meet another's.
	total := 0
	starts := make([][]Start, len(c.Keys))
	for i, k := range c.Keys {
		need, err := lacks(k)
		if err != nil {
			return sum, err
		}
		total += need
		// Each unmet key's walks start from the bank's families nearest
		// it, read before the first pass: the start points depend on the
		// bank the run found alone, and a run on an empty bank makes what
		// it made without them.
		if c.FromBank && need > 0 {
			o := c.keyPass(k).BuildOptions
			if starts[i], err = LoadStarts(ctx, db, &o); err != nil {
				return sum, fmt.Errorf("quota %s: %w", k.Name, err)
			}
			logStarts(c.Log, starts[i], "quota", k.Name)
		}
	}
	if c.Start != nil {
		defer c.Start(total)()
	}
	var elapsed time.Duration
	for i, k := range c.Keys {
		need, err := lacks(k)
		if err != nil {
			return sum, err
		}
		if need == 0 {
			continue
		}
		gc := c.keyPass(k)
		// The store holds the bank to the key whatever other runs write
		// meanwhile: need is what it lacked when the pass began.
		gc.Seed, gc.Target, gc.Caps, gc.KeyCap = c.Seed+uint64(i), Count(need, nil), nil, k.cap(c.size())
		gc.Starts, gc.FromBank = starts[i], false
		s, err := Generate(ctx, db, gc)
		elapsed += s.Elapsed
		sum = s
		sum.Elapsed = elapsed
		if err != nil || s.Interrupted {
			return sum, err
		}
	}
	return sum, nil
}
