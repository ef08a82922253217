package pipeline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/solve"
	"sudokubank/store"
)

// genSource is the source the bank records for generated families.
const genSource = "gen"

// BuildOptions say what families a generating run makes.
type BuildOptions struct {
	// Shape is the size of the grids; the zero value means 9x9. Other
	// shapes are built by SizedBuilder.
	Shape grid.Shape
	// Levels are the levels wanted; a family of another level is skipped
	// before its variants are made. Empty means all.
	Levels []grade.Level
	// Variants is how many more distinct puzzles each family stores.
	Variants int
	// Symmetry is the symmetry of the givens; RandomSymmetry draws one of
	// the six true symmetries per item instead.
	Symmetry       gen.Symmetry
	RandomSymmetry bool
	// MinGivens and MaxGivens, when MinGivens is set, are the givens of
	// every puzzle the run stores: each level is dug to a count in the
	// range, and a puzzle whose dig ends outside it is skipped
	// (OffGivens). Zero means each level's DefaultGivens, unchecked.
	MinGivens, MaxGivens int
	// Hardest, RatingMin-RatingMax and Uses are the run's target: a
	// family whose hardest step is none of Hardest, whose ER is outside
	// the range, or whose solve uses none of Uses is skipped (OffTarget)
	// before its variants are made. Empty, and a zero bound, mean any.
	Hardest              []grade.Technique
	Uses                 []grade.Technique
	RatingMin, RatingMax grade.Rating
	// NoSearch turns off the neighbourhood search a rare target gets
	// (Searches), leaving fresh random digs alone, to compare the two.
	NoSearch bool
	// SearchStall ends an item's walk after this many neighbours in a
	// row that neither bring it closer to the target nor meet it; zero
	// means DefaultSearchStall.
	SearchStall int
	// SearchFamilies, when set, is the most families an item's walk
	// keeps: a run that wants fewer need not walk further.
	SearchFamilies int
	// Starts are puzzles a searching run's walks may start from instead
	// of fresh digs (LoadStarts): each has the run's size and symmetry
	// (a true one for RandomSymmetry), and none is kept as a family of
	// the run.
	Starts []Start
	// Profiles, if set, chooses the dig profile for a wanted level;
	// nil means ProfileFor, or GivensProfile over the givens range.
	Profiles func(l grade.Level, sym gen.Symmetry) gen.Profile
	// Seen is the dedup set: a family in the bank at the start is skipped
	// before it is graded.
	Seen *Seen
	// RunID is recorded with each family.
	RunID int64
	// Now stamps the families; nil means time.Now.
	Now func() time.Time
}

// Targeted reports whether the options set a rating or technique target.
func (o *BuildOptions) Targeted() bool {
	return len(o.Hardest) > 0 || len(o.Uses) > 0 || o.RatingMin > 0 || o.RatingMax > 0
}

// Meets reports whether a family graded gr meets the options' target.
func (o *BuildOptions) Meets(gr *grade.Grade) bool { return o.meets(gr.ER, gr.Hardest, &gr.Uses) }

// meets reports whether a family rated er, whose hardest step is hardest
// and whose solve used each technique t uses[t] times, meets the target.
func (o *BuildOptions) meets(er grade.Rating, hardest grade.Technique, uses *[grade.BruteForce + 1]uint16) bool {
	if er < o.RatingMin || o.RatingMax > 0 && er > o.RatingMax {
		return false
	}
	if len(o.Hardest) > 0 && !slices.Contains(o.Hardest, hardest) {
		return false
	}
	if len(o.Uses) == 0 {
		return true
	}
	for _, t := range o.Uses {
		if uses[t] > 0 {
			return true
		}
	}
	return false
}

// TargetString describes the options' target for a message, such as
// "rated 9.0 or more, whose hardest step is x-wing"; "" when there is none.
func (o *BuildOptions) TargetString() string {
	var parts []string
	switch lo, hi := o.RatingMin, o.RatingMax; {
	case lo > 0 && hi > 0:
		parts = append(parts, fmt.Sprintf("rated %s-%s", lo, hi))
	case lo > 0:
		parts = append(parts, fmt.Sprintf("rated %s or more", lo))
	case hi > 0:
		parts = append(parts, fmt.Sprintf("rated %s or less", hi))
	}
	if len(o.Hardest) > 0 {
		parts = append(parts, "whose hardest step is "+slugs(o.Hardest))
	}
	if len(o.Uses) > 0 {
		parts = append(parts, "using "+slugs(o.Uses))
	}
	return strings.Join(parts, ", ")
}

// slugs lists techniques' slugs as alternatives: "x-wing or swordfish".
func slugs(ts []grade.Technique) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Slug()
	}
	return strings.Join(names, " or ")
}

// MaxVariants is the most variants a family may ask for
// (BuildOptions.Variants, bankgen -variants). A run holds the puzzles of
// up to about a thousand families on their way to the store
// (MemoryBudget): at 1,000 variants that is about 1.1 million puzzles,
// some 680 MB. Every symmetry admits far more distinct variants than
// this (each of the 9! relabellings gives one).
const MaxVariants = 1000

// defaultGivens is, for each level, the range of givens a run without a
// givens range digs to when it aims at the level: the range newspapers
// print the level with, moved to where the grader gives it. A
// random-order dig to n givens gave these shares of each level
// (TestGivensSurvey, 1,000 puzzles a target; below 25 most digs end
// minimal above the target):
//
//	givens   1    2    3    4    5   (percent)
//	22      24   24   10   16   25
//	24      26   23   10   15   23
//	26      39   23    8   11   16
//	28      59   18    5    9    8
//	30      77   11    2    5    3
//	32      88    5    1    2    1
//	34      95    2    0    1    0
//	36      98    1    0    0    0
//	38-50   99+  0    0    0    0
//
// The grader's easy (naked singles) is 5% of the digs at 32 givens and 1%
// at 36, so easy takes 28-34 rather than newspapers' 32-38, which a givens
// range still makes, at under half the rate. Medium, 8-10% below 27,
// takes 26-31; difficult, highest at 28-30, 24-30; evil 22-28.
var defaultGivens = [grade.Evil + 1][2]int{
	grade.ExtremelyEasy: {36, 46},
	grade.Easy:          {28, 34},
	grade.Medium:        {26, 31},
	grade.Difficult:     {24, 30},
	grade.Evil:          {22, 28},
}

// DefaultGivens returns the range of givens a run without a givens range
// digs to when it aims at level l.
func DefaultGivens(l grade.Level) (lo, hi int) {
	return defaultGivens[l][0], defaultGivens[l][1]
}

// ProfileFor returns the dig profile a run without a givens range uses
// for level l, with the givens' symmetry sym: a random-order dig to a
// number of givens in DefaultGivens(l).
func ProfileFor(l grade.Level, sym gen.Symmetry) gen.Profile {
	lo, hi := DefaultGivens(l)
	return gen.GivensProfile(lo, hi, sym)
}

// Builder makes the family of one item: terminal grid, dig, canonical
// form, dedup, grade, variants. It keeps scratch state: one per worker.
type Builder struct {
	o      BuildOptions
	want   [grade.Evil + 1]bool
	levels []grade.Level
	// singles says that the run does not want both extremely easy and
	// easy families, so that a dig singles solve may be dropped ungraded.
	singles bool
	dig     gen.Digger
	canon   gen.Canonicalizer
	grader  grade.Grader
	// gr is the grade of the family being built; its path's array is
	// reused from one family to the next (grade.Grader.GradeInto).
	gr   grade.Grade
	path pathEncoder
	vars variants
	// walk is the search's state, when the options search (Searches).
	walk *walk
	// levelGivens says that each level is printed with its own
	// DefaultGivens: the run has no givens range or profiles of its own.
	levelGivens bool
	mover       gen.Mover
}

// NewBuilder returns a Builder for one worker.
func NewBuilder(o BuildOptions) *Builder {
	b := &Builder{o: o, levels: o.Levels}
	if len(b.levels) == 0 {
		b.levels = []grade.Level{grade.ExtremelyEasy, grade.Easy, grade.Medium, grade.Difficult, grade.Evil}
	}
	for _, l := range b.levels {
		b.want[l] = true
	}
	b.singles = !b.want[grade.ExtremelyEasy] || !b.want[grade.Easy]
	// A target rules out the levels whose ratings it excludes: digging to
	// their givens would only make families to skip. A step rates at
	// least its technique's base rating, so a technique target sets a
	// floor too. With no level left, the run gives up on its own
	// (Target.GiveUpAfter).
	if aims := ratedLevels(b.levels, max(o.RatingMin, floorOf(o.Hardest), floorOf(o.Uses)), o.RatingMax); len(aims) > 0 {
		b.levels = aims
	}
	b.levelGivens = b.o.Profiles == nil && o.MinGivens == 0
	if b.o.Profiles == nil {
		profiles := ProfileFor
		if lo, hi := o.MinGivens, o.MaxGivens; lo > 0 {
			profiles = func(_ grade.Level, sym gen.Symmetry) gen.Profile { return gen.GivensProfile(lo, hi, sym) }
		}
		b.o.Profiles = memoProfiles(profiles)
	}
	if b.o.Now == nil {
		b.o.Now = time.Now
	}
	if b.o.Searches() {
		b.walk = newWalk(&b.o)
	} else {
		// Most digs are dropped before they become a family, so Build
		// asks whether a dig is minimal only of a family's, once graded.
		b.dig.DeferMinimal = true
	}
	return b
}

// memoProfiles returns profiles remembering what it returned for each
// level and symmetry: every dig asks for one, and a profile's name costs
// a formatted string. profiles must return the same for the same
// arguments; the result is not safe for concurrent use.
func memoProfiles(profiles func(grade.Level, gen.Symmetry) gen.Profile) func(grade.Level, gen.Symmetry) gen.Profile {
	type key struct {
		l   grade.Level
		sym gen.Symmetry
	}
	m := map[key]gen.Profile{}
	return func(l grade.Level, sym gen.Symmetry) gen.Profile {
		k := key{l, sym}
		p, ok := m[k]
		if !ok {
			p = profiles(l, sym)
			m[k] = p
		}
		return p
	}
}

// floorOf returns the lowest base rating of ts, 0 when ts is empty.
func floorOf(ts []grade.Technique) grade.Rating {
	if len(ts) == 0 {
		return 0
	}
	r := ts[0].BaseRating()
	for _, t := range ts[1:] {
		r = min(r, t.BaseRating())
	}
	return r
}

// ratedLevels returns the levels of ls that take some rating in lo-hi
// (a zero bound is open).
func ratedLevels(ls []grade.Level, lo, hi grade.Rating) []grade.Level {
	var out []grade.Level
	for _, l := range ls {
		floor := grade.Rating(0)
		if l > grade.ExtremelyEasy {
			floor = grade.Levels[l-2].MaxER + 1
		}
		if (hi == 0 || floor <= hi) && lo <= grade.Levels[l-1].MaxER {
			out = append(out, l)
		}
	}
	return out
}

// symmetries are the true symmetries -symmetry random draws from.
var symmetries = []gen.Symmetry{gen.Rot180, gen.Rot90, gen.Mirror, gen.Flip, gen.Diagonal, gen.Antidiagonal}

// Build makes the family of item it, drawing every random choice from the
// item's own source.
func (b *Builder) Build(ctx context.Context, it Item) Result[store.NewFamily] {
	rng := it.Rand()
	if b.walk != nil && len(b.o.Starts) > 0 && rng.IntN(startShareOf) < startShare {
		return b.search(ctx, it, rng, &b.o.Starts[rng.IntN(len(b.o.Starts))])
	}
	pz, err := b.fresh(ctx, rng)
	if err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: err}
	}
	if !b.o.givensOK(pz.Grid) {
		return Result[store.NewFamily]{Reason: OffGivens}
	}
	if b.walk != nil {
		return b.search(ctx, it, rng, &Start{Puzzle: pz})
	}
	// Most digs aimed at hard levels are easy: where singles solve one
	// and its level is not wanted, that level is the grade's
	// (grade.SinglesLevel), found in a fraction of a grade's time. Singles
	// solve a puzzle however it is turned or relabelled, so the dig is
	// asked as it is, before its canonical form is made, unless the bank
	// holds families: such a dig may be one of them, which a Duplicate
	// result must say. A cancelled run is left to fail in the grade.
	early := b.singles && ctx.Err() == nil && (b.o.Seen == nil || b.o.Seen.bankEmpty())
	if early {
		if l, ok := grade.SinglesLevel(&pz.Grid); ok && !b.want[l] {
			return Result[store.NewFamily]{Reason: OffLevel, Level: l}
		}
	}
	// A dig leaves its givens where its cell order ends, so the family's
	// first puzzle is the dig turned by a transform drawn uniformly from
	// those that keep its symmetry: no row, column or box is favoured.
	orient := pz.Symmetry.RandomTransform(rng)
	first, firstSol := orient.Apply(pz.Grid), orient.Apply(pz.Solution)
	canon, t := b.canon.Canon(first)
	h := Hash(canon)
	if b.o.Seen != nil && b.o.Seen.InBank(h) {
		return Result[store.NewFamily]{Reason: Duplicate, Hash: h}
	}
	// The same for a dig the bank does not hold, where the bank holds
	// families.
	if b.singles && !early && ctx.Err() == nil {
		if l, ok := grade.SinglesLevel(&canon); ok && !b.want[l] {
			return Result[store.NewFamily]{Reason: OffLevel, Hash: h, Level: l}
		}
	}
	// A generated family is graded on its canonical form, which every
	// orientation of the dig leads to: each puzzle the family stores is
	// one such orientation, none privileged. A few hard puzzles rate 0.1
	// to 0.3 apart in two orientations (SE's chain search depends on cell
	// order); bankquery show says so of the puzzle shown.
	gr := &b.gr
	regiven := false // givens were added or taken since the dig
	for steps := 0; ; steps++ {
		if err := b.grader.GradeIntoContext(ctx, canon, gr); err != nil {
			return Result[store.NewFamily]{Reason: Failed, Err: err} // the grader names the puzzle
		}
		if !b.want[gr.Level] {
			return Result[store.NewFamily]{Reason: OffLevel, Hash: h, Level: gr.Level}
		}
		if !b.levelGivens {
			break
		}
		// A dig aimed at one level grades at another as often as not
		// (defaultGivens): it is printed with its own level's givens
		// instead. One with fewer is given more from its solution, which
		// keeps its one solution and symmetry but may make it easier; one
		// with more is dug further, which may make it harder. Either way
		// it is graded again, and the levels' ranges fall as the levels
		// rise, so each step moves it one way only, to at most 5 grades.
		lo, hi := DefaultGivens(gr.Level)
		n := first.Givens()
		if n >= lo && n <= hi {
			break
		}
		p := gen.Puzzle{Grid: first, Solution: firstSol, Symmetry: pz.Symmetry}
		if target := lo + rng.IntN(hi-lo+1); n < lo {
			p = b.mover.Fill(p, target, hi, rng)
		} else if p = b.mover.Redig(p, 0, target, rng); p.Grid.Givens() > hi {
			// Orbits of two or four cells can stop above the range from a
			// target near its top: dig on to its bottom.
			p = b.mover.Redig(p, 0, lo, rng)
		}
		if p.Grid == first || steps == maxRegivens {
			// Nothing to add or take (a minimal puzzle above the range),
			// or the steps ran out (a level that turned back): about 1
			// family in 15,000. It keeps the givens it has, as graded,
			// rather than be dropped: a run that drops items makes other
			// families than its shards together (Shard.Share).
			break
		}
		first, regiven = p.Grid, true
		canon, t = b.canon.Canon(first)
		h = Hash(canon)
		if b.o.Seen != nil && b.o.Seen.InBank(h) {
			return Result[store.NewFamily]{Reason: Duplicate, Hash: h}
		}
	}
	if !b.o.Meets(gr) {
		return Result[store.NewFamily]{Reason: OffTarget, Hash: h}
	}
	minimal := b.dig.LastMinimal()
	if regiven {
		minimal = b.dig.IsMinimal(first)
	}
	return b.family(it, rng, gr, canon, h, t, first, firstSol, minimal)
}

// maxRegivens bounds the steps Build takes to bring a dig to its level's
// givens: four levels down by adding givens, or up by taking them.
const maxRegivens = 5

// fresh digs a puzzle afresh, drawing from rng: of a symmetry and the
// givens of a level the options allow.
func (b *Builder) fresh(ctx context.Context, rng *rand.Rand) (gen.Puzzle, error) {
	sym := b.o.Symmetry
	if b.o.RandomSymmetry {
		sym = symmetries[rng.IntN(len(symmetries))]
	}
	aim := b.levels[rng.IntN(len(b.levels))]
	return b.dig.GenerateContext(ctx, b.o.Profiles(aim, sym), rng)
}

// family returns the Kept result of a family graded gr, with canonical
// form canon and its hash h: first, with solution firstSol and canon's
// transform t, is its first puzzle, and minimal says whether it is
// minimal. Its variants draw from rng.
func (b *Builder) family(it Item, rng *rand.Rand, gr *grade.Grade, canon solve.Grid, h uint64, t gen.Transform, first, firstSol solve.Grid, minimal bool) Result[store.NewFamily] {
	path, err := b.path.encode(gr)
	if err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", canon, err)}
	}
	nf := store.NewFamily{Family: family(canon, gr, path, genSource)}
	nf.Minimal = minimal
	keep := gen.DetectSymmetry(first)
	nf.Symmetry = keep.String()
	nf.RunID = b.o.RunID
	nf.Seed = it.ItemSeed()
	nf.CreatedAt = b.o.Now()
	// The first puzzle, then variants: random transforms of it that keep
	// its symmetry, each a puzzle string not stored yet for the family,
	// so that the family's symmetry is true of every one of its puzzles.
	b.vars.reset(first, firstSol, t.Inverse())
	b.vars.add(keep, b.o.Variants, rng)
	nf.Puzzles = b.vars.puzzles()
	return prepare(canon, Result[store.NewFamily]{Reason: Kept, Hash: h, Level: gr.Level, Puzzles: len(nf.Puzzles), Value: nf})
}

// variants collects a family's puzzles, reusing its scratch space from
// one family to the next: with many variants a family, one allocation
// for all of their strings instead of three each, and a set of hashes
// instead of a fresh map of grids, keep the workers' allocation (and the
// GC work it brings to both cores) small.
type variants struct {
	grids []solve.Grid // puzzle and solution of each
	trans []gen.Transform
	seen  map[uint64]struct{} // Hash of each puzzle
	text  []byte
	ends  []int // where each puzzle's text ends in text
}

// reset starts a family with its first puzzle: p, with solution sol, is
// the transform t of the canonical form.
func (v *variants) reset(p, sol solve.Grid, t gen.Transform) {
	v.grids = append(v.grids[:0], p, sol)
	v.trans = append(v.trans[:0], t)
	clear(v.seen)
}

// add adds n puzzles made by random transforms of the first puzzle that
// keep its symmetry sym, each distinct from the puzzles before it and
// with sym as the symmetry DetectSymmetry finds in it. It may add fewer
// when no more are found in 4n+100 draws, which only a symmetry with
// fewer than about n distinct variants would bring about; every symmetry
// has over 9! of them (every relabelling keeps it), and MaxVariants is
// far below that.
func (v *variants) add(sym gen.Symmetry, n int, rng *rand.Rand) {
	if n == 0 {
		return
	}
	if v.seen == nil {
		v.seen = make(map[uint64]struct{}, 1+n)
	}
	p, sol, base := v.grids[0], v.grids[1], v.trans[0]
	v.seen[Hash(p)] = struct{}{}
	// Two grids with one 64-bit hash would be taken for one; the bank's
	// dedup of families takes the same chance.
	for tries, limit := 0, 4*n+100; n > 0 && tries < limit; tries++ {
		u := sym.RandomTransform(rng)
		g := u.Apply(p)
		if gen.DetectSymmetry(g) != sym {
			continue // it gained a symmetry the family's field does not name
		}
		h := Hash(g)
		if _, ok := v.seen[h]; ok {
			continue
		}
		v.seen[h] = struct{}{}
		v.grids = append(v.grids, g, u.Apply(sol))
		v.trans = append(v.trans, base.Then(u))
		n--
	}
}

// puzzles returns the family's puzzles, whose strings share one
// allocation.
func (v *variants) puzzles() []store.Puzzle {
	v.text, v.ends = v.text[:0], v.ends[:0]
	for i, t := range v.trans {
		v.text = v.grids[2*i].AppendString(v.text)
		v.text = v.grids[2*i+1].AppendString(v.text)
		v.text = t.AppendString(v.text)
		v.ends = append(v.ends, len(v.text))
	}
	all := string(v.text)
	ps := make([]store.Puzzle, len(v.trans))
	at := 0
	for i, end := range v.ends {
		ps[i] = store.Puzzle{Puzzle: all[at : at+81], Solution: all[at+81 : at+162], Transform: all[at+162 : end]}
		at = end
	}
	return ps
}

// pathEncoder makes the stored form of a solve's technique sequence
// (store.EncodePath) in the worker, where it costs less than the stored
// list of one slug per step costs the writer, reusing its slice.
type pathEncoder struct{ steps []string }

// encode returns the stored path of gr: a technique per step, and
// brute-force last for a solve logic did not finish, so that the path
// holds the same counts as gr.UseCounts.
func (e *pathEncoder) encode(gr *grade.Grade) (string, error) {
	e.steps = e.steps[:0]
	for i := range gr.Path {
		e.steps = append(e.steps, gr.Path[i].Technique.Slug())
	}
	if gr.Unfinished {
		e.steps = append(e.steps, grade.BruteForce.Slug())
	}
	return store.EncodePath(e.steps)
}

// prepare checks and packs the rows of r's family for the store
// (store.Prepare), returning r, or a Failed result naming the canonical
// form canon if the store would refuse it. Doing it in the worker that
// made the family spreads that work over the workers; the one writer
// would otherwise do it for every puzzle.
func prepare(canon solve.Grid, r Result[store.NewFamily]) Result[store.NewFamily] {
	if err := store.Prepare(&r.Value); err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", canon, err)}
	}
	return r
}

// family returns the store's family row of the canonical form canon,
// holding the grade gr (of canon for a generated family, of the puzzle as
// given for an import) and its stored path.
func family(canon solve.Grid, gr *grade.Grade, path, source string) store.Family {
	return store.Family{
		Canon:       canon.String(),
		ER:          int(gr.ER),
		EP:          int(gr.EP),
		ED:          int(gr.ED),
		Level:       int(gr.Level),
		Score:       gr.Score,
		SearchNodes: gr.Metrics.SearchNodes,
		Givens:      gr.Metrics.Givens,
		MinRowCol:   gr.Metrics.MinRowCol,
		Hardest:     gr.Hardest.Slug(),
		Path:        path,
		Source:      source,
	}
}
