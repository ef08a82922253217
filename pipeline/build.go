package pipeline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/solve"
	"sudokubank/store"
)

// GenSource is the source the bank records for generated families.
const GenSource = "gen"

// BuildOptions say what families a generating run makes.
type BuildOptions struct {
	// Levels are the levels wanted; a family of another level is skipped
	// before its variants are made. Empty means all.
	Levels []grade.Level
	// Variants is how many more distinct puzzles each family stores.
	Variants int
	// Symmetry is the symmetry of the givens; RandomSymmetry draws one of
	// the six true symmetries per item instead.
	Symmetry       gen.Symmetry
	RandomSymmetry bool
	// Profiles, if set, chooses the dig profile for a wanted level;
	// nil means ProfileFor.
	Profiles func(l grade.Level, sym gen.Symmetry) gen.Profile
	// Seen is the dedup set: a family in the bank at the start is skipped
	// before it is graded.
	Seen *Seen
	// RunID is recorded with each family.
	RunID int64
	// Now stamps the families; nil means time.Now.
	Now func() time.Time
}

// MaxVariants is the most variants a family may ask for
// (BuildOptions.Variants, bankgen -variants). A run holds the puzzles of
// up to about a thousand families on their way to the store
// (InFlightPuzzles): at 1,000 variants that is about a million puzzles,
// some 600 MB. Every symmetry admits far more distinct variants than
// this (each of the 9! relabellings gives one).
const MaxVariants = 1000

// bestProfile names, for each level, the dig profile that yields it
// fastest, from TestProfileSurvey (go test ./pipeline -run ProfileSurvey
// -survey 1000 -v), which counts CPU seconds because the machine is
// shared. Three surveys of 21 Nov 2026, 16:08-16:31 UTC, with main's
// grader (load average 12-14 on 2 cores), gave per CPU second:
//
//	extremely-easy  10100-16600 from paper-extremely-easy
//	easy              870-1190  from paper-evil (600-640 from paper-difficult)
//	medium            160-220   from paper-evil (110-120 from paper-difficult)
//	difficult         245-260   from paper-difficult (200-275 from paper-evil)
//	evil              165-225   from paper-evil (195-210 from paper-difficult, 150-180 minimal)
//
// Difficult and evil are ties within the surveys' spread; the table takes
// different profiles for them so that the bank's hard levels do not all
// come from one dig.
var bestProfile = [grade.Evil + 1]string{
	grade.ExtremelyEasy: "paper-extremely-easy",
	grade.Easy:          "paper-evil",
	grade.Medium:        "paper-evil",
	grade.Difficult:     "paper-difficult",
	grade.Evil:          "paper-evil",
}

// ProfileFor returns the dig profile that yields level l fastest, with
// the givens' symmetry sym. A symmetric dig takes its orbits of cells in
// random order rather than in the profile's fixed sequence.
func ProfileFor(l grade.Level, sym gen.Symmetry) gen.Profile {
	p, err := gen.ParseProfile(bestProfile[l])
	if err != nil {
		panic(err) // the table names profiles that exist: TestProfileFor
	}
	if sym != gen.NoSymmetry {
		p.Name += "-" + sym.String()
		p.Symmetry = sym
		// Folded by a symmetry, a fixed cell order reaches the orbits on
		// the axis (the middle row of rot180) last, and leaves them full:
		// no transform that keeps the symmetry can move them, so a
		// symmetric dig takes its orbits in random order instead
		// (TestBuildBalancesGivens).
		p.Sequence = gen.Random
	}
	return p
}

// Builder makes the family of one item: terminal grid, dig, canonical
// form, dedup, grade, variants. It keeps scratch state: one per worker.
type Builder struct {
	o      BuildOptions
	want   [grade.Evil + 1]bool
	levels []grade.Level
	dig    gen.Digger
	canon  gen.Canonicalizer
	grader grade.Grader
	// gr is the grade of the family being built; its path's array is
	// reused from one family to the next (grade.Grader.GradeInto).
	gr   grade.Grade
	path pathEncoder
	vars variants
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
	if b.o.Profiles == nil {
		b.o.Profiles = ProfileFor
	}
	if b.o.Now == nil {
		b.o.Now = time.Now
	}
	return b
}

// symmetries are the true symmetries -symmetry random draws from.
var symmetries = []gen.Symmetry{gen.Rot180, gen.Rot90, gen.Mirror, gen.Flip, gen.Diagonal, gen.Antidiagonal}

// Build makes the family of item it, drawing every random choice from the
// item's own source.
func (b *Builder) Build(ctx context.Context, it Item) Result[store.NewFamily] {
	rng := it.Rand()
	sym := b.o.Symmetry
	if b.o.RandomSymmetry {
		sym = symmetries[rng.IntN(len(symmetries))]
	}
	aim := b.levels[rng.IntN(len(b.levels))]
	pz := b.dig.Generate(b.o.Profiles(aim, sym), rng)
	// A dig in a fixed cell order leaves its givens where the order ends
	// (the bottom rows, left to right). The family's first puzzle is the
	// dig turned by a transform drawn uniformly from those that keep its
	// symmetry, so that no row, column or box is favoured: without a
	// symmetry, every cell is then alike.
	orient := pz.Symmetry.RandomTransform(rng)
	first, firstSol := orient.Apply(pz.Grid), orient.Apply(pz.Solution)
	canon, t := b.canon.Canon(first)
	h := Hash(canon)
	if b.o.Seen != nil && b.o.Seen.InBank(h) {
		return Result[store.NewFamily]{Reason: Duplicate, Hash: h}
	}
	gr := &b.gr
	if err := b.grader.GradeInto(canon, gr); err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: err} // the grader names the puzzle
	}
	if !b.want[gr.Level] {
		return Result[store.NewFamily]{Reason: OffLevel, Hash: h, Level: gr.Level}
	}
	path, err := b.path.encode(gr)
	if err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", canon, err)}
	}
	nf := store.NewFamily{Family: family(canon, gr, path, GenSource)}
	nf.Minimal = pz.Minimal
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

// family returns the store's family row of a graded canonical form, with
// its stored path.
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
