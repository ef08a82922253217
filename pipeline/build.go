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
	path   pathEncoder
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
	gr, err := b.grader.Grade(canon)
	if err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: err} // the grader names the puzzle
	}
	if !b.want[gr.Level] {
		return Result[store.NewFamily]{Reason: OffLevel, Hash: h, Level: gr.Level}
	}
	path, err := b.path.encode(&gr)
	if err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", canon, err)}
	}
	nf := store.NewFamily{Family: family(canon, &gr, path, GenSource)}
	nf.Minimal = pz.Minimal
	nf.Symmetry = gen.DetectSymmetry(pz.Grid).String()
	nf.RunID = b.o.RunID
	nf.Seed = it.ItemSeed()
	nf.CreatedAt = b.o.Now()
	// The dug puzzle itself, then variants: random transforms of the
	// canonical form, each a puzzle string not stored yet for the family.
	inv := t.Inverse()
	nf.Puzzles = make([]store.Puzzle, 0, 1+b.o.Variants)
	nf.Puzzles = append(nf.Puzzles, store.Puzzle{Puzzle: pz.Grid.String(), Solution: pz.Solution.String(), Transform: inv.String()})
	nf.Puzzles = addVariants(nf.Puzzles, canon, gr.Solution, b.o.Variants, rng)
	return Result[store.NewFamily]{Reason: Kept, Hash: h, Level: gr.Level, Puzzles: len(nf.Puzzles), Value: nf}
}

// addVariants appends n puzzles made by random transforms of canon, each
// distinct from those already in ps.
func addVariants(ps []store.Puzzle, canon, sol solve.Grid, n int, rng *rand.Rand) []store.Puzzle {
	seen := make(map[solve.Grid]bool, len(ps)+n)
	for _, p := range ps {
		seen[GridOf(p.Puzzle)] = true
	}
	// The transform group has over a trillion elements, so repeats are
	// rare; the bound only stops a pathological loop.
	for tries := 0; n > 0 && tries < 4*n+100; tries++ {
		v := gen.RandomTransform(rng)
		g := v.Apply(canon)
		if seen[g] {
			continue
		}
		seen[g] = true
		ps = append(ps, store.Puzzle{Puzzle: g.String(), Solution: v.Apply(sol).String(), Transform: v.String()})
		n--
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
