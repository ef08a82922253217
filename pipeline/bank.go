package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/solve"
	"sudokubank/store"
)

// LoadBank reads what a run of grids of shape s needs of the bank before
// it starts: the dedup set of the canonical forms of that size and the
// count of families per level of that size. The zero Shape means every
// size, as an import of lines of any size needs.
func LoadBank(ctx context.Context, db *store.DB, s grid.Shape) (*Seen, LevelCounts, error) {
	var have LevelCounts
	// A run's quotas, like the store's caps, count one size.
	counts, each := db.LevelCounts, db.ForEachCanon
	if s.N != 0 {
		counts = func(ctx context.Context) ([6]int64, error) { return db.SizeLevelCounts(ctx, s.N) }
		each = func(ctx context.Context, fn func(string) error) error { return db.EachCanon(ctx, s.N, fn) }
	}
	n, err := counts(ctx)
	if err != nil {
		return nil, have, fmt.Errorf("count the bank's families: %w", err)
	}
	for l := range have {
		have[l] = int(n[l])
	}
	seen, err := loadSeen(ctx, have.Total(), func(ctx context.Context, add func(uint64)) error {
		return each(ctx, func(canon string) error {
			if len(canon) == 81 {
				add(Hash(solve.GridOf(canon)))
			} else {
				add(HashText(canon))
			}
			return nil
		})
	})
	if err != nil {
		return nil, have, fmt.Errorf("load the bank's canonical forms: %w", err)
	}
	return seen, have, nil
}

// Writer returns a Config.Write that stores each batch in one transaction
// of db. A batch that has started is written to the end (see
// store.WriteBatch); Config.BatchFamilies and BatchPuzzles bound it.
func Writer(db *store.DB) func(ctx context.Context, batch []store.NewFamily) (Written, error) {
	return limitedWriter(db, store.Limits{Levels: store.NoCaps()})
}

// limitedWriter is Writer for a run that must not take the bank past
// lim, as -quota must not: the store judges them in each batch's
// transaction, so that runs writing at the same time stop on them
// together (store.WriteBatchLimited).
func limitedWriter(db *store.DB, lim store.Limits) func(ctx context.Context, batch []store.NewFamily) (Written, error) {
	return func(ctx context.Context, batch []store.NewFamily) (Written, error) {
		r, err := db.WriteBatchLimited(ctx, batch, lim)
		return Written{Families: r.Families, Puzzles: r.Puzzles, DupFamilies: r.DupFamilies, DupPuzzles: r.DupPuzzles,
			OverCap: r.OverCap, Levels: LevelCounts(r.Levels)}, err
	}
}

// QuotaCaps returns the caps of a quota run (see Quota): the bank may
// hold want[l] families of each level l, and none more.
func QuotaCaps(want LevelCounts) store.Caps {
	var c store.Caps
	for l := range want {
		c[l] = int64(want[l])
	}
	c[0] = -1
	return c
}

// GenerateConfig is a generating run: what to make, and from which seed.
type GenerateConfig struct {
	BuildOptions
	Seed uint64
	// Shard is the share of the seed's item stream the run makes; the
	// zero value makes the whole stream.
	Shard   Shard
	Target  *Target
	Workers int // 0 means GOMAXPROCS
	Log     *slog.Logger
	Stats   *Stats // live counters for progress; nil for none
	// Caps, if not nil, bound the bank's families per level, as a
	// quota run's must be (QuotaCaps).
	Caps *store.Caps
	// KeyCap, if not nil, bounds the bank's families of one kind, as a
	// pass of GenerateKeys must be; it belongs to this run's writer.
	KeyCap *store.KeyCap
	// Write stores a batch; nil means Writer(db), judging Caps and
	// KeyCap in each batch's transaction when they are set.
	Write func(ctx context.Context, batch []store.NewFamily) (Written, error)
	// FromBank makes a searching run walk from the bank's families
	// nearest its target too (LoadStarts), read when it starts, where
	// BuildOptions.Starts has none; the log says how many.
	FromBank bool
	// Resume, if not nil, holds the families earlier runs of the same job
	// stored, which the run counts toward its target as it meets them
	// again rather than making other families (see Resume).
	Resume *Resume
	// BuildIndexes builds the indexes a fresh bank deferred, during the
	// run (see Generate); nil means db.BuildIndexes. It runs in a
	// goroutine of its own, so benchmarks wrap it too, to count it in the
	// writer's share.
	BuildIndexes func(ctx context.Context) error
}

// generateChunk is Generate's Config.Chunk: 16 items to a hand-off make
// the producer, workers, collector and writer wake each other a
// sixteenth as often, and the last chunks of a met target waste little.
const generateChunk = 16

// Generate runs the generating pipeline into db: each worker builds
// families of items seed/0, seed/1, ... (of the shard's items only, for
// a run with a Shard) and the collector admits them in
// item order until the target is met or ctx is cancelled; a rerun of a
// job (c.Resume) starts at the last item its earlier runs reached. c.Seen
// must be the bank's (see LoadBank).
func Generate(ctx context.Context, db *store.DB, c GenerateConfig) (Summary, error) {
	if c.Variants < 0 || c.Variants > MaxVariants {
		return Summary{}, fmt.Errorf("generate: %d variants a family, want 0 to %d", c.Variants, MaxVariants)
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Target != nil {
		c.Levels = c.Target.Wanted()
	}
	// A target that rules itself out fails at once, rather than after
	// the give-up budget of searches for the rarest families. No family
	// rates above the unfinished ones, at the top of the scale.
	f, ce := c.floor(), c.ceiling()
	if ce == 0 || ce > grade.UnfinishedER {
		ce = grade.UnfinishedER
	}
	if f > ce && (c.Target == nil || !c.Target.Done()) {
		e := &ImpossibleError{Target: c.TargetString(), Floor: f, Ceiling: ce}
		if len(c.Levels) > 0 && len(c.Levels) < int(grade.Evil) {
			names := make([]string, len(c.Levels))
			for i, l := range c.Levels {
				names[i] = l.String()
			}
			e.Levels = strings.Join(names, " or ")
		}
		return Summary{}, e
	}
	if c.Seen == nil {
		c.Seen = NewSeen(nil)
	}
	if c.Stats == nil {
		c.Stats = new(Stats)
	}
	if c.FromBank && len(c.Starts) == 0 {
		starts, err := loadStarts(ctx, db, &c.BuildOptions, c.Resume.exceptRuns())
		if err != nil {
			return Summary{}, err
		}
		c.Starts = starts
		logStarts(c.Log, starts)
	}
	// A search's item may make many families: no more than the run wants.
	if c.Target != nil {
		if n := c.Target.Remaining(); n > 0 && (c.SearchFamilies == 0 || n < c.SearchFamilies) {
			c.SearchFamilies = n
		}
	}
	if c.Write == nil {
		lim := store.Limits{Levels: store.NoCaps(), Key: c.KeyCap}
		if c.Caps != nil {
			lim.Levels = *c.Caps
		}
		c.Write = limitedWriter(db, lim)
	}
	if c.BuildIndexes == nil {
		c.BuildIndexes = db.BuildIndexes
	}
	// A run with a givens range may ask for a level those givens cannot
	// have (evil with 50), or almost never have, and a rating or
	// technique target for one no puzzle reaches: it gives up rather
	// than spin. The budget is a few seconds of two workers, and many
	// times what the rarest level of the default ranges needs.
	if c.Target != nil && (c.MinGivens > 0 || c.Targeted()) {
		c.Target.GiveUpAfter(GiveUpItems)
		if c.Searches() {
			c.Target.GiveUpAfter(GiveUpSearchItems)
		}
	}
	// The smaller sizes hold few essentially different puzzles: a run
	// that asks for more than exist ends once it finds only those it has.
	if c.Target != nil && c.Shape.Valid() && c.Shape != grid.Nine {
		c.Target.ExhaustAfter(GiveUpItems)
	}
	first, claim := c.resume()
	// The indexes a fresh bank deferred are built while the workers make
	// the last sixteenth of the families, rather than after them with one
	// core idle: a sixteenth of the families takes the workers longer than
	// the build, so the build ends first. A run that stops early, or whose
	// writer is behind, builds them at its end (db.BuildIndexes); a bank
	// with its indexes live has nothing to build.
	var finish func(context.Context) error
	finishAfter := 0
	if c.Target != nil && c.Target.Remaining()-len(claim) > 0 && db.IndexesDeferred() {
		n := c.Target.Remaining() - len(claim)
		finish, finishAfter = c.BuildIndexes, n-n/16
	}
	// A searching item walks for a second or so, and a chunk's results
	// reach the collector together: a run that hands out one item at a
	// time sees its target met as soon as it is, rather than a chunk of
	// walks later.
	chunk := generateChunk
	if c.Searches() {
		chunk = 1
	}
	sum, err := Execute(ctx, Config[Item, store.NewFamily]{
		Workers: c.Workers,
		Chunk:   chunk,
		Produce: c.Shard.itemsFrom(c.Seed, first),
		NewWorker: func() Work[Item, store.NewFamily] {
			if c.Shape.Valid() && c.Shape != grid.Nine {
				return NewSizedBuilder(c.BuildOptions).Build
			}
			return NewBuilder(c.BuildOptions).Build
		},
		Seen:    c.Seen,
		Target:  c.Target,
		Resumed: claim,
		Write:   c.Write,
		Finish:  finish, FinishAfter: finishAfter,
		// A commit writes every page its batch changed, and a batch's
		// families land all over the index of their keys, so fewer,
		// bigger batches write fewer pages a family; the time bound
		// grows with them. BatchPuzzles still bounds a batch with many
		// variants.
		BatchFamilies: 4000,
		FlushEvery:    time.Second,
		Describe:      func(it Item) []any { return []any{"seed", it.Seed, "item", it.Index, "item_seed", it.ItemSeed()} },
		Log:           c.Log,
		Stats:         c.Stats,
	})
	if ee, ok := errors.AsType[*ExhaustedError](err); ok {
		// Not a failure: the run stored what exists, and a rerun would
		// find no more.
		ee.Shape = c.Shape.String()
		sum.Exhausted, err = ee.Error(), nil
	}
	if ue, ok := errors.AsType[*UnreachableError](err); ok {
		ue.MinGivens, ue.MaxGivens, ue.Target = c.MinGivens, c.MaxGivens, c.TargetString()
	}
	return sum, err
}

// GiveUpItems is how many items a run with a givens range, or a rating
// or technique target, makes before it gives up on a level it has not
// made once within them (see Target.GiveUpAfter).
const GiveUpItems = 20000

// logStarts says, when there are any, how many start points a run walks
// from and their ratings.
func logStarts(log *slog.Logger, starts []Start, attrs ...any) {
	if len(starts) == 0 {
		return
	}
	if log == nil {
		log = slog.Default()
	}
	log.Info("searching from the bank's hardest families too", append(attrs, "families", len(starts),
		"hardest", float64(starts[0].ER)/10, "easiest", float64(starts[len(starts)-1].ER)/10)...)
}

// LoadStarts returns the start points of a run with options o (see
// Start): the startPoints families of the bank of the run's size that
// are nearest its target, ordered by ER, highest first, then by
// canonical form, so that the same bank gives the same start points.
// For a run with a symmetry they are families whose givens have it, each
// started from a stored puzzle of the family that shows it (a canonical
// form need not), and with -symmetry random families of any true
// symmetry, each walking in its own; for a technique used anywhere
// (Uses), families using one of them. It returns none for a run that
// does not search, and for one of 12x12 or more whose target has no
// ceiling below the forcing chains (sizedWalkCeiling).
func LoadStarts(ctx context.Context, db *store.DB, o *BuildOptions) ([]Start, error) {
	return loadStarts(ctx, db, o, nil)
}

// loadStarts is LoadStarts leaving out the families the runs except
// stored.
func loadStarts(ctx context.Context, db *store.DB, o *BuildOptions, except []int64) ([]Start, error) {
	if !o.Searches() {
		return nil, nil
	}
	shape := grid.Nine
	if o.Shape.Valid() {
		shape = o.Shape
	}
	if c := o.ceiling(); shape.N > 9 && (c == 0 || c >= sizedWalkCeiling) {
		return nil, nil
	}
	q := store.HardestQuery{Size: shape.N, RatingMin: int(max(o.floor()-startBelow, 1)), RatingMax: int(o.ceiling()), ExceptRuns: except, Limit: startPoints}
	if o.MinGivens > 0 {
		q.GivensMin, q.GivensMax = o.MinGivens, o.MaxGivens
	}
	for _, l := range o.Levels {
		q.Levels = append(q.Levels, int(l))
	}
	for _, t := range o.Hardest {
		q.Hardest = append(q.Hardest, t.Slug())
	}
	for _, t := range o.Uses {
		q.Uses = append(q.Uses, t.Slug())
	}
	q.Symmetries = startSymmetries(o, shape)
	fams, err := db.HardestFamilies(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("load the search's start points: %w", err)
	}
	var sized solve.Sized
	starts := make([]Start, 0, len(fams))
	for _, f := range fams {
		text := f.Canon
		sym := gen.NoSymmetry
		if q.Symmetries != nil {
			row, err := db.FirstPuzzleOf(ctx, f)
			if err != nil {
				return nil, fmt.Errorf("load the search's start points: %w", err)
			}
			text = row.Puzzle
		}
		g, err := grid.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("load the search's start points: family %d: %w", f.ID, err)
		}
		if q.Symmetries != nil {
			sym = o.Symmetry
			if o.RandomSymmetry {
				sym = gen.DetectSymmetrySized(g)
			}
			// The family's symmetry field is that of its puzzles; one
			// that does not show it (a hand-made row) is passed over.
			if sym == gen.NoSymmetry || !sym.HoldsSized(g) {
				continue
			}
		}
		sol, ok := sized.Solution(g)
		if !ok {
			return nil, fmt.Errorf("load the search's start points: family %d (%s) has no solution", f.ID, f.Canon)
		}
		st := Start{ER: grade.Rating(f.ER)}
		if shape == grid.Nine {
			st.Puzzle = gen.Puzzle{Grid: solve.GridOf(g.String()), Solution: solve.GridOf(sol.String()), Symmetry: sym}
		} else {
			st.Sized = gen.SizedPuzzle{Grid: g, Solution: sol, Symmetry: sym}
		}
		starts = append(starts, st)
	}
	return starts, nil
}

// sizedWalkCeiling is the rating from which the sized grader searches
// forcing chains, seconds a grade on 12x12 and up (docs/performance.md):
// a walk, which grades hundreds of neighbours in full, runs there only
// for a target whose ceiling stops each grade below it; up to 9x9 every
// grade is cheap enough.
const sizedWalkCeiling grade.Rating = 75

// startSymmetries returns the symmetries of the families a run with
// options o, of shape s, may start from, as the bank names them
// (gen.DetectSymmetrySized): nil for any, for a run without a symmetry,
// whose walks move single cells; the run's own, and rot90 for rot180,
// which it implies; every true symmetry of the shape for -symmetry
// random.
func startSymmetries(o *BuildOptions, s grid.Shape) []string {
	switch {
	case o.RandomSymmetry:
		var names []string
		for _, sym := range symmetries {
			if sym.ValidFor(s) {
				names = append(names, sym.String())
			}
		}
		return names
	case o.Symmetry == gen.NoSymmetry:
		return nil
	case o.Symmetry == gen.Rot180:
		return []string{gen.Rot180.String(), gen.Rot90.String()}
	}
	return []string{o.Symmetry.String()}
}
