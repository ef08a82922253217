package grade

import (
	"context"
	"errors"
	"fmt"

	"sudokubank/solve"
)

// UnfinishedER is the rating of a puzzle that no technique of the grader
// finishes: past the top of the SE scale (the hardest known puzzles rate
// about 11.9), so such puzzles sort above every rated one. Grade.Unfinished
// flags them; their EP and ED keep what the solver reached if it reached
// a placement or an elimination.
const UnfinishedER Rating = 120

// Grade is the rating of one puzzle and the path that earned it.
type Grade struct {
	ER         Rating                // the hardest step: the puzzle's difficulty
	EP         Rating                // the hardest step up to the first placement
	ED         Rating                // the hardest step up to the first elimination (the first step)
	Level      Level                 // the bank level of ER
	Hardest    Technique             // the technique of the hardest step (the first one rated ER)
	Steps      int                   // the number of steps
	Uses       [numTechniques]uint16 // how many steps used each technique, indexed by Technique
	Metrics    Metrics               // the raw metrics of the composite score
	Score      float64               // Metrics.Score(PaperWeights)
	Unfinished bool                  // no technique finished the puzzle; ER is UnfinishedER
	Path       []Step                // the steps, in order: the hint sequence
	Solution   solve.Grid            // the solution
	// Links, filled only by a Grader asked to (Grader.RecordLinks), holds
	// for each step of Path the chain that justifies it, in order: the
	// To of each link is the From of the next. Only linear chain steps
	// (X- and Y-cycles, X-chains, AICs and their forcing forms) have
	// one; forcing chains, Nishio and nested chains are trees, not one
	// line, and have none. When a step applies several chains of the
	// same rating at once, its links are the first of them. Neither
	// Step.String nor the stored path includes them.
	Links [][]Link
}

// Grader grades puzzles. The zero value is ready to use and may be reused;
// it keeps scratch space between calls. A Grader is not safe for
// concurrent use: hold one per goroutine.
type Grader struct {
	st      state
	solver  solve.Solver
	chains  chainer
	scratch Position // singlesSolve's working copy
	// The solution of the puzzle being graded, which the techniques see
	// once the chains need it (solState 2); solState 0 when no grade is
	// running.
	sol      solve.Grid
	solState uint8
	// limit is the ceiling of the grade running (Bounds.Ceiling), 0 for
	// none: next tries no technique whose every step rates above it, as
	// such a step would end the grade as above the ceiling anyway.
	limit Rating
}

// New returns a ready Grader.
func New() *Grader { return &Grader{} }

// RecordLinks makes the grader fill Grade.Links, the chain of each
// linear chain step, as a hint needs it to be drawn; false stops it.
// Grading leaves it off: the bank stores only the path.
func (g *Grader) RecordLinks(on bool) {
	g.chains.hints.path = nil
	if on {
		g.chains.hints.path = new(chainPath)
	}
}

// Rate grades p with a fresh Grader.
func Rate(p solve.Grid) (Grade, error) {
	var g Grader
	return g.Grade(p)
}

// Grade solves p step by step, always with the easiest technique that
// makes progress in the order of the SE scale, and returns its grade. It
// fails for a puzzle with no or several solutions.
func (g *Grader) Grade(p solve.Grid) (Grade, error) {
	return g.GradeContext(context.Background(), p)
}

// GradeContext is Grade that stops when ctx is done, returning an error
// that wraps ctx.Err(). It checks ctx between steps, not within one, so
// it returns within one step of the cancellation.
func (g *Grader) GradeContext(ctx context.Context, p solve.Grid) (Grade, error) {
	var gr Grade
	err := g.GradeIntoContext(ctx, p, &gr)
	return gr, err
}

// GradeInto is Grade into *gr, which it overwrites, reusing the array of
// gr.Path, so that a caller that grades many puzzles, done with each
// grade before the next, saves the path's allocation. On error *gr holds
// what Grade would have returned, but for an empty Path that is not nil.
func (g *Grader) GradeInto(p solve.Grid, gr *Grade) error {
	return g.GradeIntoContext(context.Background(), p, gr)
}

// GradeIntoContext is GradeInto that stops when ctx is done, as
// GradeContext does.
func (g *Grader) GradeIntoContext(ctx context.Context, p solve.Grid, gr *Grade) error {
	_, err := g.gradeWithin(ctx, p, gr, Bounds{})
	return err
}

// gradeWithin is GradeWithinContext; the zero Bounds never stop it early.
func (g *Grader) gradeWithin(ctx context.Context, p solve.Grid, gr *Grade, b Bounds) (bool, error) {
	// The old steps' slices are dropped, so that the array does not keep
	// them alive.
	clear(gr.Path)
	*gr = Grade{Path: gr.Path[:0]}
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("grade %s: %w", p, err)
	}
	if err := p.Check(); err != nil {
		return false, fmt.Errorf("grade %s: %w", p, err)
	}
	n, sol := g.solver.CountSolution(p, 2)
	switch n {
	case 0:
		return false, fmt.Errorf("grade %s: puzzle has %w", p, solve.ErrNoSolution)
	case 1:
	default:
		return false, fmt.Errorf("grade %s: puzzle has %w", p, solve.ErrMultipleSolutions)
	}
	nodes := g.solver.Stats().Nodes
	gr.Metrics = MetricsOf(p)
	gr.Metrics.SearchNodes = nodes

	s := &g.st
	s.load(p)
	if cap(gr.Path) < s.left {
		gr.Path = make([]Step, 0, s.left)
	}
	epSet, edSet := false, false
	g.chains.ctx = ctx
	g.sol, g.solState = sol, 1
	g.limit, g.chains.limit = b.Ceiling, b.Ceiling
	g.chains.dver = &s.dver // next tries naked singles before the chains
	g.chains.where = &s.where
	defer func() {
		g.chains.ctx, g.chains.sol, g.chains.dver, g.chains.where, s.sol, g.solState = nil, nil, nil, nil, nil, 0
		g.limit, g.chains.limit = 0, 0
	}()
	settled := true // a singles-only solve may finish from here: check before the next step
	for s.left > 0 {
		if settled && b.below(gr.ER) && s.singlesSolve(&g.scratch) {
			return false, nil // every step left rates below the floor
		}
		g.chains.ceiling = gr.ER
		g.chains.links = nil
		st, ok := g.next()
		// A chain search cut short by ctx finds nothing: that is not an
		// unfinished grade.
		if err := ctx.Err(); err != nil {
			return false, fmt.Errorf("grade %s: %w", p, err)
		}
		if !ok {
			gr.Unfinished = true
			break
		}
		s.apply(&st)
		gr.Path = append(gr.Path, st)
		if g.chains.hints.path != nil {
			gr.Links = append(gr.Links, g.chains.links)
		}
		gr.Uses[st.Technique]++
		if st.Rating > gr.ER {
			gr.ER, gr.Hardest = st.Rating, st.Technique
			if b.Ceiling > 0 && gr.ER > b.Ceiling {
				return false, nil
			}
		}
		settled = st.Rating > maxSingleRating
		if !epSet {
			if !edSet {
				gr.ED, edSet = gr.ER, true
			}
			if len(st.Placements) > 0 {
				gr.EP, epSet = gr.ER, true
			}
		}
	}
	if gr.Unfinished && b.Ceiling > 0 && UnfinishedER > b.Ceiling {
		return false, nil
	}
	// A finished solve ends at the unique solution; otherwise search it.
	// Either way every step is checked against it afterwards, so that a
	// grader bug surfaces as an error, never as a grade.
	if gr.Unfinished {
		gr.Solution = g.sol
	} else {
		gr.Solution = s.p.Grid
		if err := gr.Solution.Check(); err != nil {
			return false, fmt.Errorf("grade %s: logical solve ends in an invalid grid: %w", p, err)
		}
	}
	for i := range gr.Path {
		if err := checkStep(&gr.Path[i], &gr.Solution); err != nil {
			return false, fmt.Errorf("grade %s: step %d (%s): %w", p, i+1, gr.Path[i].Technique.Slug(), err)
		}
	}
	gr.Steps = len(gr.Path)
	if gr.Unfinished {
		gr.ER, gr.Hardest = UnfinishedER, BruteForce
		gr.Uses[BruteForce]++
		if !edSet {
			gr.ED = UnfinishedER
		}
		if !epSet {
			gr.EP = UnfinishedER
		}
	}
	gr.Level = LevelOf(gr.ER)
	gr.Metrics.ER = gr.ER
	gr.Score = gr.Metrics.Score(PaperWeights)
	return true, nil
}

// next returns the easiest step available, trying the techniques in the
// order of the SE scale.
func (g *Grader) next() (Step, bool) {
	s := &g.st
	if st, ok := s.fullHouse(); ok {
		return st, true
	}
	if st, ok := s.hiddenSingle(true); ok {
		return st, true
	}
	if st, ok := s.hiddenSingle(false); ok {
		return st, true
	}
	if st, ok := s.locking(true); ok {
		return st, true
	}
	if st, ok := s.hiddenSet(2, true); ok {
		return st, true
	}
	if st, ok := s.nakedSingle(); ok {
		return st, true
	}
	if st, ok := s.hiddenSet(3, true); ok {
		return st, true
	}
	if st, ok := s.locking(false); ok {
		return st, true
	}
	if st, ok := s.nakedSet(2); ok {
		return st, true
	}
	if st, ok := s.fish(2); ok {
		return st, true
	}
	if st, ok := s.hiddenSet(2, false); ok {
		return st, true
	}
	if st, ok := s.nakedSet(3); ok {
		return st, true
	}
	if st, ok := s.fish(3); ok {
		return st, true
	}
	if st, ok := s.hiddenSet(3, false); ok {
		return st, true
	}
	if st, ok := s.wing(false); ok {
		return st, true
	}
	if st, ok := s.wing(true); ok {
		return st, true
	}
	if st, ok := s.uniqueLoops(); ok {
		return st, true
	}
	if st, ok := s.nakedSet(4); ok {
		return st, true
	}
	if st, ok := s.fish(4); ok {
		return st, true
	}
	if st, ok := s.hiddenSet(4, false); ok {
		return st, true
	}
	if st, ok := s.bug(); ok {
		return st, true
	}
	// Past the ceiling nothing is tried: the grade ends either way, as
	// above it (a step rated above it) or unfinished (rated UnfinishedER).
	if g.limit > 0 && g.limit < AlignedPairExclusion.BaseRating() {
		return Step{}, false
	}
	// From here on the techniques skip what the solution shows to be
	// in vain; the uniqueness count at the start of the grade found it.
	if g.solState == 1 {
		s.sol, g.chains.sol, g.solState = &g.sol, &g.sol, 2
	}
	if st, ok := s.alignedPairExclusion(); ok {
		return st, true
	}
	if g.limit > 0 && g.limit < min(XCycle.BaseRating(), YCycle.BaseRating()) {
		return Step{}, false
	}
	return g.chains.next(&s.p)
}

// checkStep verifies a step against the solution: a wrong placement or
// the elimination of a true candidate is a grader bug, never a grade.
func checkStep(st *Step, sol *solve.Grid) error {
	if len(st.Placements) == 0 && len(st.Eliminations) == 0 {
		return errors.New("step makes no progress")
	}
	for _, p := range st.Placements {
		if sol[p.Cell] != p.Digit {
			return fmt.Errorf("places %d in cell %d, solution has %d", p.Digit, p.Cell, sol[p.Cell])
		}
	}
	for _, e := range st.Eliminations {
		if sol[e.Cell] == e.Digit {
			return fmt.Errorf("eliminates the solution digit %d from cell %d", e.Digit, e.Cell)
		}
	}
	return nil
}
