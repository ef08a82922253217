package pipeline

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/solve"
	"sudokubank/store"
)

// SizedBuilder makes the families of grids other than 9x9 (BuildOptions.Shape)
// as Builder makes 9x9 ones: dig, orient, canonical form, grade (a dig
// graded at another level than its aim moved to that level's givens,
// SizedLevelGivens, and graded again), variants. It belongs to one worker
// goroutine.
//
// For a target it searches for (BuildOptions.Searches), three items in
// four walk from one of the bank's families nearest it
// (BuildOptions.Starts), as Builder's do; the others, and every item
// of a bank without such families, dig afresh and do not walk, as
// before start points: the sized grader cannot reject a neighbour below
// a floor in its first steps, as the 9x9 walk's bounded grades do, so a
// walk from a fresh dig grades each neighbour in full, no cheaper than
// a fresh dig's grade, and only a start already near the target makes
// the walk pay. On 12x12 and up it walks only below the forcing chains
// (LoadStarts).
type SizedBuilder struct {
	o      BuildOptions
	shape  grid.Shape
	levels []grade.Level
	want   [grade.Evil + 1]bool
	syms   []gen.Symmetry // what -symmetry random draws from for the shape
	dig    gen.SizedDigger
	grader grade.SizedGrader
	// ceiling is the highest ER of the levels wanted, 0 when evil is one.
	ceiling grade.Rating
	// walk is the search's state, for a run that searches and has start
	// points; mover moves its puzzles, and a dig to its level's givens.
	walk  *walk
	mover gen.SizedMover
}

// NewSizedBuilder returns a SizedBuilder for one worker of a run of
// o.Shape.
func NewSizedBuilder(o BuildOptions) *SizedBuilder {
	b := &SizedBuilder{o: o, shape: o.Shape, levels: o.Levels}
	if len(b.levels) == 0 {
		b.levels = SizedLevels(o.Shape)
	}
	for _, l := range b.levels {
		b.want[l] = true
	}
	if !b.want[grade.Evil] {
		for _, l := range grade.Levels {
			if b.want[l.Level] {
				b.ceiling = l.MaxER
			}
		}
	}
	if aims := ratedLevels(b.levels, max(o.RatingMin, floorOf(o.Hardest), floorOf(o.Uses)), o.RatingMax); len(aims) > 0 {
		b.levels = aims
	}
	for _, s := range symmetries {
		if s.ValidFor(o.Shape) {
			b.syms = append(b.syms, s)
		}
	}
	if b.o.Now == nil {
		b.o.Now = time.Now
	}
	if b.o.Searches() && len(b.o.Starts) > 0 {
		b.walk = newWalk(&b.o)
	}
	return b
}

// HashText returns the dedup hash of a grid's text (the canonical form of
// a family other than 9x9), as Hash does for a 9x9 grid.
func HashText(s string) uint64 {
	h := uint64(0x3c6e_f372_fe94_f82b) ^ uint64(len(s))
	for ; len(s) >= 8; s = s[8:] {
		h = mix(h ^ binary.LittleEndian.Uint64([]byte(s[:8])))
	}
	var tail [8]byte
	copy(tail[:], s)
	return mix(h ^ binary.LittleEndian.Uint64(tail[:]))
}

// Build makes the family of item it, drawing every random choice from the
// item's own source.
func (b *SizedBuilder) Build(ctx context.Context, it Item) Result[store.NewFamily] {
	rng := it.Rand()
	if b.walk != nil && rng.IntN(startShareOf) < startShare {
		return b.search(ctx, it, rng, &b.o.Starts[rng.IntN(len(b.o.Starts))])
	}
	sym := b.o.Symmetry
	if b.o.RandomSymmetry {
		sym = b.syms[rng.IntN(len(b.syms))]
	}
	aim := b.levels[rng.IntN(len(b.levels))]
	pz, err := b.dig.GenerateContext(ctx, b.shape, b.profile(aim, sym), rng)
	if err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: err}
	}
	if !b.givensOK(pz.Grid) {
		return Result[store.NewFamily]{Reason: OffGivens}
	}
	// As for 9x9 (Builder.Build): the first puzzle is the dig turned by a
	// transform that keeps its symmetry, so no row or box is favoured.
	orient := pz.Symmetry.RandomSizedTransform(b.shape, rng)
	first, firstSol := orient.Apply(pz.Grid), orient.Apply(pz.Solution)
	canon, t := gen.SizedCanon(first)
	text := canon.String()
	h := HashText(text)
	if b.o.Seen != nil && b.o.Seen.InBank(h) {
		return Result[store.NewFamily]{Reason: Duplicate, Hash: h}
	}
	var gr grade.SizedGrade
	minimal := pz.Minimal
	for steps := 0; ; steps++ {
		// Without evil among the levels wanted, a grade may stop once it
		// is above the highest: that spares the forcing chain searches,
		// which take seconds on 16x16.
		gr, _, err = b.grader.GradeWithinContext(ctx, canon, grade.Bounds{Ceiling: b.ceiling})
		if err != nil {
			return Result[store.NewFamily]{Reason: Failed, Err: err}
		}
		if !b.want[gr.Level] {
			return Result[store.NewFamily]{Reason: OffLevel, Hash: h, Level: gr.Level}
		}
		if b.o.MinGivens != 0 {
			break
		}
		// As for 9x9 (Builder.Build): a dig that grades at another level
		// than its aim is printed with its own level's givens, given more
		// from its solution or dug further, and graded again; the ranges
		// fall as the levels rise, so each step moves it one way.
		lo, hi := SizedLevelGivens(b.shape, gr.Level)
		n := first.Givens()
		if n >= lo && n <= hi {
			break
		}
		p := gen.SizedPuzzle{Grid: first, Solution: firstSol, Symmetry: pz.Symmetry}
		if target := lo + rng.IntN(hi-lo+1); n < lo {
			p = b.mover.Fill(p, target, hi, rng)
		} else if p = b.mover.Redig(p, 0, target, rng); p.Grid.Givens() > hi {
			p = b.mover.Redig(p, 0, lo, rng)
		}
		if p.Grid.Equal(first) || steps == maxRegivens {
			// A minimal puzzle above the range, or a check out of nodes
			// (gen.SizedMover), or a level that turned back: it keeps
			// its givens, as graded, rather than be dropped, as on 9x9.
			break
		}
		// A filled puzzle is not minimal (the givens it had were enough);
		// a dug one may be.
		first, minimal = p.Grid, p.Grid.Givens() < n && b.dig.IsMinimal(p.Grid)
		canon, t = gen.SizedCanon(first)
		text = canon.String()
		h = HashText(text)
		if b.o.Seen != nil && b.o.Seen.InBank(h) {
			return Result[store.NewFamily]{Reason: Duplicate, Hash: h}
		}
	}
	if !b.o.meets(gr.ER, gr.Hardest, &gr.Uses) {
		return Result[store.NewFamily]{Reason: OffTarget, Hash: h}
	}
	return b.family(it, rng, &gr, text, h, t, first, firstSol, minimal)
}

// givensOK reports whether p's givens are in the options' range, when
// they set one.
func (b *SizedBuilder) givensOK(p grid.Grid) bool {
	n := p.Givens()
	return b.o.MinGivens == 0 || n >= b.o.MinGivens && n <= b.o.MaxGivens
}

// family returns the Kept result of a family graded gr, whose canonical
// form is text, with hash h: first, with solution firstSol and the
// canonical form's transform t, is its first puzzle, and minimal says
// whether it is minimal. Its variants draw from rng.
func (b *SizedBuilder) family(it Item, rng *rand.Rand, gr *grade.SizedGrade, text string, h uint64, t grid.Transform, first, firstSol grid.Grid, minimal bool) Result[store.NewFamily] {
	path, err := store.EncodePath(gr.Slugs())
	if err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", text, err)}
	}
	keep := gen.DetectSymmetrySized(first)
	nf := store.NewFamily{Family: sizedFamily(text, b.shape, gr, path, genSource)}
	nf.Minimal, nf.Symmetry = minimal, keep.String()
	nf.RunID, nf.Seed, nf.CreatedAt = b.o.RunID, it.ItemSeed(), b.o.Now()
	nf.Puzzles = sizedVariants(first, firstSol, t.Inverse(), keep, b.o.Variants, rng)
	if err := store.Prepare(&nf); err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", text, err)}
	}
	return Result[store.NewFamily]{Reason: Kept, Hash: h, Level: gr.Level, Puzzles: len(nf.Puzzles), Value: nf}
}

// search walks from the bank's start point st, drawing from the source
// rng of item it, as Builder.search walks 9x9 puzzles: the families met
// on the way are the result and its More. Each neighbour is graded in
// full, or up to the walk's ceiling.
func (b *SizedBuilder) search(ctx context.Context, it Item, rng *rand.Rand, st *Start) Result[store.NewFamily] {
	w := b.walk
	clear(w.visited)
	res := Result[store.NewFamily]{Reason: OffTarget}
	if !b.o.Targeted() {
		res.Reason = OffLevel
	}
	kept := 0
	keep := func(cand gen.SizedPuzzle, gr *grade.SizedGrade) {
		orient := cand.Symmetry.RandomSizedTransform(b.shape, rng)
		first, firstSol := orient.Apply(cand.Grid), orient.Apply(cand.Solution)
		canon, t := gen.SizedCanon(first)
		text := canon.String()
		h := HashText(text)
		if b.o.Seen != nil && b.o.Seen.InBank(h) {
			return
		}
		r := b.family(it, rng, gr, text, h, t, first, firstSol, b.dig.IsMinimal(cand.Grid))
		if kept == 0 {
			res = r
		} else {
			res.More = append(res.More, r)
		}
		kept++
	}
	cur, er := st.Sized, st.ER
	canon, _ := gen.SizedCanon(cur.Grid)
	w.visited[HashText(canon.String())] = struct{}{}
	// LoadStarts took the start's level, techniques and symmetry from
	// the target: its rating says whether it meets it.
	meets := w.distance(er) == 0
	for stall, step := 0, 0; stall < w.stall && step < w.stall*maxWalkStalls && kept < w.most; step++ {
		stall++
		cand, ok := move[gen.SizedPuzzle](&b.mover, cur, b.o.MinGivens, rng)
		if !ok || !b.givensOK(cand.Grid) {
			continue
		}
		canon, _ := gen.SizedCanon(cand.Grid)
		h := HashText(canon.String())
		if _, seen := w.visited[h]; seen {
			continue
		}
		w.visited[h] = struct{}{}
		gr, full, err := b.grader.GradeWithinContext(ctx, canon, w.bounds(er))
		if err != nil {
			return Result[store.NewFamily]{Reason: Failed, Err: err}
		}
		if !full {
			continue
		}
		m := b.want[gr.Level] && b.o.meets(gr.ER, gr.Hardest, &gr.Uses)
		if m {
			keep(cand, &gr)
			stall = 0
		}
		if w.distance(gr.ER) < w.distance(er) {
			stall = 0
		}
		// As in Builder.search: at the target the walk stays there,
		// climbing where the target is one to climb to.
		var move bool
		if meets {
			move = m && (!w.climb || gr.ER >= er)
		} else {
			move = m || w.distance(gr.ER) <= w.distance(er)
		}
		if move {
			cur, er, meets = cand, gr.ER, m
		}
	}
	return res
}

// sizedVariants returns the family's puzzles: p (with solution sol, the
// transform base of the canonical form), then up to n distinct random
// transforms of it that keep its symmetry sym, as variants.add does for
// 9x9.
func sizedVariants(p, sol grid.Grid, base grid.Transform, sym gen.Symmetry, n int, rng *rand.Rand) []store.Puzzle {
	ps := []store.Puzzle{{Puzzle: p.String(), Solution: sol.String(), Transform: base.String()}}
	seen := map[string]bool{ps[0].Puzzle: true}
	for tries, limit := 0, 4*n+100; n > 0 && tries < limit; tries++ {
		u := sym.RandomSizedTransform(p.Shape, rng)
		g := u.Apply(p)
		text := g.String()
		if seen[text] || gen.DetectSymmetrySized(g) != sym {
			continue
		}
		seen[text] = true
		ps = append(ps, store.Puzzle{Puzzle: text, Solution: u.Apply(sol).String(), Transform: base.Then(u).String()})
		n--
	}
	return ps
}

// profile returns the dig profile of a family aimed at level l with
// symmetry sym: the run's givens range when it has one, else the level's
// dig for the shape (SizedGivens).
func (b *SizedBuilder) profile(l grade.Level, sym gen.Symmetry) gen.Profile {
	lo, hi := b.o.MinGivens, b.o.MaxGivens
	if lo == 0 {
		lo, hi = SizedGivens(b.shape, l)
	}
	if lo == 0 {
		return gen.MinimalProfile(sym)
	}
	return gen.GivensProfile(lo, hi, sym)
}

// digKind is how digs aim at a level on one shape.
type digKind uint8

const (
	noDig      digKind = iota // the shape never reaches the level
	bandDig                   // digs to a number of givens in the level's range
	minimalDig                // digs down to a minimal puzzle
)

// levelDig is how digs aim at one level on one shape, and the givens lo-hi
// the level is printed with (SizedLevelGivens): a band dig aims at them.
type levelDig struct {
	lo, hi int
	kind   digKind
}

// sizedDigs are the digs and givens of each level (index 1..5) per size
// other than 9x9, chosen from the levels of puzzles dug to each number of
// givens (docs/performance.md has the table): the easiest levels live in
// a band of givens, the hardest only near minimal puzzles. A 4x4 puzzle
// never needs more than singles, so it has one level. On 25x25 the middle
// levels come from a narrow band around 300-340 givens, where the grades
// spread over every level, and evil from a band just above what a dig
// reaches (a minimal dig stops near 270 givens, never proven minimal, in
// seconds; every puzzle below 300 givens graded evil).
//
// A level dug to minimal puzzles is printed with the near-minimal givens
// such digs end with (TestSizedGivensSurvey: the lows are under any seen,
// so that no given is added to a minimal dig of its own level), and each
// range falls, at both ends, as the levels rise: a dig moved to the range
// of the level it grades at (SizedBuilder.Build) moves one way.
var sizedDigs = map[int][grade.Evil + 1]levelDig{
	4:  {1: {5, 10, bandDig}},
	6:  {1: {12, 20, bandDig}, 2: {9, 12, minimalDig}, 3: {8, 11, minimalDig}, 4: {8, 11, minimalDig}, 5: {8, 11, minimalDig}},
	8:  {1: {23, 30, bandDig}, 2: {17, 22, bandDig}, 3: {16, 22, minimalDig}, 4: {16, 22, minimalDig}, 5: {16, 21, minimalDig}},
	12: {1: {60, 75, bandDig}, 2: {50, 59, bandDig}, 3: {42, 56, bandDig}, 4: {40, 52, bandDig}, 5: {38, 50, minimalDig}},
	16: {1: {120, 140, bandDig}, 2: {110, 119, bandDig}, 3: {100, 119, bandDig}, 4: {100, 115, bandDig}, 5: {85, 112, minimalDig}},
	25: {1: {380, 450, bandDig}, 2: {320, 339, bandDig}, 3: {305, 325, bandDig}, 4: {305, 325, bandDig}, 5: {285, 299, bandDig}},
}

// SizedLevels returns the levels that digs of shape s reach.
func SizedLevels(s grid.Shape) []grade.Level {
	var ls []grade.Level
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		if sizedDigs[s.N][l].kind != noDig {
			ls = append(ls, l)
		}
	}
	return ls
}

// SizedGivens returns the givens range digs aim at for level l on shape
// s; 0, 0 means a minimal dig.
func SizedGivens(s grid.Shape, l grade.Level) (lo, hi int) {
	if d := sizedDigs[s.N][l]; d.kind == bandDig {
		return d.lo, d.hi
	}
	return 0, 0
}

// SizedLevelGivens returns the range of givens a run of shape s without a
// givens range prints level l with, as DefaultGivens does for 9x9; 0, 0
// for a level the shape never reaches.
func SizedLevelGivens(s grid.Shape, l grade.Level) (lo, hi int) {
	d := sizedDigs[s.N][l]
	return d.lo, d.hi
}

// importSized is Importer.Import for a line of another size than 9x9:
// text is the line, trimmed, of a grid's length.
func (m *Importer) importSized(ctx context.Context, text string) Result[store.NewFamily] {
	g, err := grid.Parse(text)
	if err != nil {
		return Result[store.NewFamily]{Reason: Invalid, Err: err}
	}
	budget := m.sizedNodes
	if budget == 0 {
		budget = SizedImportNodes
	}
	n, decided := m.sized.CountWithin(g, 2, budget)
	if !decided {
		return Result[store.NewFamily]{Reason: Invalid, Err: fmt.Errorf("%w within %d search nodes: %d solutions found so far", ErrUndecided, budget, n)}
	}
	switch n {
	case 0:
		return Result[store.NewFamily]{Reason: Invalid, Err: solve.ErrNoSolution}
	case 1:
	default:
		return Result[store.NewFamily]{Reason: Invalid, Err: solve.ErrMultipleSolutions}
	}
	sol, _ := m.sized.Solution(g)
	canon, t := gen.SizedCanon(g)
	form := canon.String()
	h := HashText(form)
	p := store.Puzzle{Puzzle: g.String(), Solution: sol.String(), Transform: t.Inverse().String()}
	nf := store.NewFamily{Family: store.Family{Canon: form, Size: g.Shape.N, Level: int(grade.ExtremelyEasy), Source: m.source}, Puzzles: []store.Puzzle{p}}
	reason := Duplicate
	if m.seen == nil || !m.seen.InBank(h) {
		// Graded as given, as a 9x9 line is (Import).
		gr, err := m.sizedRate.GradeContext(ctx, g)
		if err != nil {
			return Result[store.NewFamily]{Reason: Failed, Err: err}
		}
		path, err := store.EncodePath(gr.Slugs())
		if err != nil {
			return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", text, err)}
		}
		nf.Family = sizedFamily(form, g.Shape, &gr, path, m.source)
		nf.Symmetry = gen.DetectSymmetrySized(g).String()
		nf.Minimal = m.sizedDig.IsMinimal(g)
		reason = Kept
	}
	if err := store.Prepare(&nf); err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", text, err)}
	}
	return Result[store.NewFamily]{Reason: reason, Hash: h, Level: grade.Level(nf.Level), Puzzles: 1, Value: nf}
}

// sizedFamily returns the store's family row of the canonical form canon
// of shape s, holding the grade gr and its stored path.
func sizedFamily(canon string, s grid.Shape, gr *grade.SizedGrade, path, source string) store.Family {
	return store.Family{
		Canon: canon, Size: s.N,
		ER: int(gr.ER), EP: int(gr.EP), ED: int(gr.ED), Level: int(gr.Level),
		Score: gr.Score(s), SearchNodes: gr.SearchNodes,
		Givens: gr.Givens, MinRowCol: gr.MinRowCol,
		Hardest: gr.Hardest.Slug(), Path: path, Source: source,
	}
}
