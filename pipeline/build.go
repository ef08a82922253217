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
// the givens' symmetry sym.
func ProfileFor(l grade.Level, sym gen.Symmetry) gen.Profile {
	p, err := gen.ParseProfile(bestProfile[l])
	if err != nil {
		panic(err) // the table names profiles that exist: TestProfileFor
	}
	if sym != gen.NoSymmetry {
		p.Name += "-" + sym.String()
		p.Symmetry = sym
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
	canon, t := b.canon.Canon(pz.Grid)
	h := Hash(canon)
	if b.o.Seen != nil && b.o.Seen.InBank(h) {
		return Result[store.NewFamily]{Reason: Duplicate, Hash: h}
	}
	// A generated family is graded on its canonical form, which every
	// orientation of the dig leads to: each puzzle the family stores is
	// one such orientation, none privileged. A few hard puzzles rate 0.1
	// to 0.3 apart in two orientations (SE's chain search depends on cell
	// order); bankquery show says so of the puzzle shown.
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
	nf.Symmetry = gen.DetectSymmetry(pz.Grid).String()
	nf.RunID = b.o.RunID
	nf.Seed = it.ItemSeed()
	nf.CreatedAt = b.o.Now()
	// The dug puzzle itself, then variants: random transforms of the
	// canonical form, each a puzzle string not stored yet for the family.
	b.vars.reset(pz.Grid, pz.Solution, t.Inverse())
	b.vars.add(canon, gr.Solution, b.o.Variants, rng)
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

// add adds n puzzles made by random transforms of canon, whose solution
// is sol, each distinct from the puzzles before it.
func (v *variants) add(canon, sol solve.Grid, n int, rng *rand.Rand) {
	if n == 0 {
		return
	}
	if v.seen == nil {
		v.seen = make(map[uint64]struct{}, 1+n)
	}
	v.seen[Hash(v.grids[0])] = struct{}{}
	// The transform group has over a trillion elements, so repeats are
	// rare; the bound only stops a pathological loop. Two grids with one
	// 64-bit hash would be taken for one; the bank's dedup of families
	// takes the same chance.
	for tries := 0; n > 0 && tries < 4*n+100; tries++ {
		t := gen.RandomTransform(rng)
		g := t.Apply(canon)
		h := Hash(g)
		if _, ok := v.seen[h]; ok {
			continue
		}
		v.seen[h] = struct{}{}
		v.grids = append(v.grids, g, t.Apply(sol))
		v.trans = append(v.trans, t)
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
