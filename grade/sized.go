package grade

import (
	"context"
	"errors"
	"fmt"

	"sudokubank/grid"
	"sudokubank/solve"
)

// SizedCandidate is a digit in a cell of a grid of any shape: a placement
// or an elimination of a SizedStep. Cells count row by row from 0.
type SizedCandidate struct {
	Cell  uint16
	Digit uint8
}

// SizedStep is one move of a logical solve of a grid of any shape: the
// technique, its rating, the pattern's cells and digits (bit d for
// digit d) and what it concluded.
type SizedStep struct {
	Technique    Technique
	Rating       Rating
	Cells        []uint16
	Digits       uint32
	Placements   []SizedCandidate
	Eliminations []SizedCandidate
}

// SizedChainNode is a candidate of a chain on a grid of any size, as
// ChainNode is on a 9x9 grid. Like Link, a chain is kept beside the
// steps (SizedGrade.Links), so that a SizedStep stays small.
type SizedChainNode struct {
	Cell  uint16
	Digit uint8
	On    bool
}

// SizedLink is one inference of a chain on a grid of any size, as Link
// is on a 9x9 grid.
type SizedLink struct {
	From, To SizedChainNode
	Strong   bool
}

// SizedGrade is the rating of a puzzle of any shape on the SE scale, with
// the same techniques, ratings and levels as Grade.
type SizedGrade struct {
	ER, EP, ED  Rating                // as in Grade
	Level       Level                 // the bank level of ER
	Hardest     Technique             // the technique of the first step rated ER; BruteForce when unfinished
	Uses        [numTechniques]uint16 // steps per technique, BruteForce once when unfinished
	Steps       []SizedStep           // the solve, in order
	Givens      int                   // filled cells
	MinRowCol   int                   // the fewest givens in any row or column
	SearchNodes int                   // the solver's search nodes for a count to 2
	Unfinished  bool                  // no implemented technique finished the puzzle; ER is UnfinishedER
	Solution    grid.Grid             // the solution
	// Links holds, for each step of Steps, its chain, as Grade.Links
	// does for a 9x9 path; only a SizedGrader asked to fills it
	// (SizedGrader.RecordLinks).
	Links [][]SizedLink
}

// Slugs returns the technique slug of every step, in order, with
// brute-force last when the solve is unfinished: the path that
// store.EncodePath stores, holding the same counts as Uses.
func (gr *SizedGrade) Slugs() []string {
	out := make([]string, 0, len(gr.Steps)+1)
	for i := range gr.Steps {
		out = append(out, gr.Steps[i].Technique.Slug())
	}
	if gr.Unfinished {
		out = append(out, BruteForce.Slug())
	}
	return out
}

// SizedGrader grades puzzles of every shape in grid.Shapes the way
// Grader grades 9x9 ones: step by step, always with the easiest technique
// that makes progress. It implements the techniques up to dynamic forcing
// chains (+) (9.0 + length), generalised to N: singles, direct and plain
// intersections, naked and hidden sets up to quads, X-wing, swordfish,
// jellyfish, XY- and XYZ-wings, unique rectangles and loops, BUG, aligned
// pair exclusion, X- and Y-cycles, forcing X-chains, alternating
// inference chains, aligned triple exclusion, Nishio, multiple (cell and
// region) and dynamic forcing chains, with and without the simple
// techniques as links, and nested forcing chains whose links include
// cycles and forcing chains (SE's 9.5 level), then also static multiple
// forcing chains (10.0), or dynamic forcing chains (10.5), then also
// nested forcing chains of the 9.5 level (11.0). Each forcing chain
// search stops after a fixed count of nodes; a puzzle whose next step
// lies past that is Unfinished. The zero value is ready; it
// keeps scratch space between calls (about 13 MB on 16x16, at most
// about 35 MB on 25x25, and as much again, with 8 MB more on 16x16, once
// a puzzle reaches nesting level 3), so reuse one per goroutine. It is
// not safe for concurrent use.
type SizedGrader struct {
	st     sstate
	solver solve.Sized
	chains *schainScratch
	force  *sforce
	// nestExhaustive turns off the nested chains' search bounds, for
	// the tests that check they change no grade.
	nestExhaustive bool
	links          bool // fill SizedStep.Links (RecordLinks)
	// maxLevel, when not 0, bounds the nesting level tried, as
	// chainer.maxLevel does, for the tests that compare with the 9x9
	// grader so bounded.
	maxLevel int
}

// RecordLinks makes the grader fill SizedGrade.Links, the chain of each
// linear chain step, as Grader.RecordLinks does; false stops it.
func (g *SizedGrader) RecordLinks(on bool) { g.links = on }

// NewSized returns a ready SizedGrader.
func NewSized() *SizedGrader { return &SizedGrader{} }

// GradeContext grades p. It fails for a puzzle with no or several
// solutions (wrapping solve.ErrNoSolution or solve.ErrMultipleSolutions)
// and, checking ctx once per step, when ctx is done.
func (g *SizedGrader) GradeContext(ctx context.Context, p grid.Grid) (SizedGrade, error) {
	gr, _, err := g.grade(ctx, p, 0)
	return gr, err
}

// GradeWithinContext is GradeContext that stops as soon as p's ER is
// known to be above b.Ceiling (when not 0), reporting false with the
// grade so far, whose ER and Level are already above the ceiling: at the
// first step rated above it, or when the next step can only come from
// the forcing chain producers (rated 7.5 and up) and the ceiling is
// below them, which spares their search (ER is then 7.5 at least and
// Hardest NoTechnique). b.Floor is not used. When it
// reports true, the grade is what GradeContext makes of p.
func (g *SizedGrader) GradeWithinContext(ctx context.Context, p grid.Grid, b Bounds) (SizedGrade, bool, error) {
	return g.grade(ctx, p, b.Ceiling)
}

func (g *SizedGrader) grade(ctx context.Context, p grid.Grid, ceiling Rating) (SizedGrade, bool, error) {
	var gr SizedGrade
	if err := ctx.Err(); err != nil {
		return gr, false, fmt.Errorf("grade %s: %w", p, err)
	}
	if !p.Shape.Valid() {
		return gr, false, fmt.Errorf("grade %s: shape %d x %d: %w", p, p.Shape.BoxRows, p.Shape.BoxCols, grid.ErrSize)
	}
	if err := p.Check(); err != nil {
		return gr, false, fmt.Errorf("grade %s: %w", p, err)
	}
	switch g.solver.Count(p, 2) {
	case 0:
		return gr, false, fmt.Errorf("grade %s: puzzle has %w", p, solve.ErrNoSolution)
	case 1:
	default:
		return gr, false, fmt.Errorf("grade %s: puzzle has %w", p, solve.ErrMultipleSolutions)
	}
	gr.SearchNodes = g.solver.Nodes()
	gr.Givens, gr.MinRowCol = givensOf(p)

	s := &g.st
	s.load(p)
	if g.chains == nil || g.chains.g != s.g {
		g.chains = newChainScratch(s.g)
	}
	g.chains.hints.links = g.links
	if g.force == nil || g.force.g != s.g {
		g.force = newSforce(s.g)
	}
	gr.Steps = make([]SizedStep, 0, s.left)
	epSet, edSet := false, false
	for s.left > 0 {
		if err := ctx.Err(); err != nil {
			return SizedGrade{}, false, fmt.Errorf("grade %s: %w", p, err)
		}
		forcingCeiling := ceiling > 0 && ceiling < AlignedTripleExclusion.BaseRating()
		g.chains.links = nil
		if g.force != nil {
			g.force.stopAt = gr.ER
			g.force.nestExhaustive = g.nestExhaustive
			g.force.maxLevel = g.maxLevel
		}
		st, ok, above := g.next(forcingCeiling)
		if above {
			gr.ER, gr.Hardest = max(gr.ER, AlignedTripleExclusion.BaseRating()), NoTechnique
			gr.Level = LevelOf(gr.ER)
			return gr, false, nil
		}
		if !ok {
			gr.Unfinished = true
			break
		}
		s.apply(&st)
		gr.Steps = append(gr.Steps, st)
		if g.links {
			gr.Links = append(gr.Links, g.chains.links)
		}
		gr.Uses[st.Technique]++
		if st.Rating > gr.ER {
			gr.ER, gr.Hardest = st.Rating, st.Technique
			if ceiling > 0 && gr.ER > ceiling {
				gr.Level = LevelOf(gr.ER)
				return gr, false, nil
			}
		}
		if !epSet {
			if !edSet {
				gr.ED, edSet = gr.ER, true
			}
			if len(st.Placements) > 0 {
				gr.EP, epSet = gr.ER, true
			}
		}
	}
	// A finished solve ends at the unique solution; otherwise the solver
	// finishes the position reached, much easier than the puzzle. Either
	// way every step is checked against it, so that a grader bug surfaces
	// as an error, never as a grade.
	gr.Solution = grid.Grid{Shape: p.Shape, Cells: append([]uint8(nil), s.grid...)}
	if gr.Unfinished {
		sol, ok := g.solver.Solution(gr.Solution)
		if !ok {
			return SizedGrade{}, false, fmt.Errorf("grade %s: the logical solve reaches a position with no solution", p)
		}
		gr.Solution = sol
	} else if err := gr.Solution.Check(); err != nil {
		return SizedGrade{}, false, fmt.Errorf("grade %s: logical solve ends in an invalid grid: %w", p, err)
	}
	for i := range gr.Steps {
		if err := checkSizedStep(&gr.Steps[i], gr.Solution); err != nil {
			return SizedGrade{}, false, fmt.Errorf("grade %s: step %d (%s): %w", p, i+1, gr.Steps[i].Technique.Slug(), err)
		}
	}
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
	if ceiling > 0 && gr.ER > ceiling {
		return gr, false, nil
	}
	return gr, true, nil
}

// next returns the easiest step available, in the order of Grader.next.
// With noForcing it tries nothing rated 7.5 or more and reports above
// when only such a step could follow.
func (g *SizedGrader) next(noForcing bool) (st SizedStep, ok, above bool) {
	s := &g.st
	for _, f := range sizedFinders {
		if st, ok := f(s); ok {
			return st, true, false
		}
	}
	if st, ok := s.chains(g.chains); ok {
		return st, true, false
	}
	if noForcing {
		return SizedStep{}, false, true
	}
	st, ok = s.forcing(g.force, &g.chains.hints)
	return st, ok, false
}

// sizedFinders are the techniques below chains in the order of the SE
// scale, as Grader.next tries them.
var sizedFinders = [...]func(*sstate) (SizedStep, bool){
	(*sstate).fullHouse,
	func(s *sstate) (SizedStep, bool) { return s.hiddenSingle(true) },
	func(s *sstate) (SizedStep, bool) { return s.hiddenSingle(false) },
	func(s *sstate) (SizedStep, bool) { return s.locking(true) },
	func(s *sstate) (SizedStep, bool) { return s.hiddenSet(2, true) },
	(*sstate).nakedSingle,
	func(s *sstate) (SizedStep, bool) { return s.hiddenSet(3, true) },
	func(s *sstate) (SizedStep, bool) { return s.locking(false) },
	func(s *sstate) (SizedStep, bool) { return s.nakedSet(2) },
	func(s *sstate) (SizedStep, bool) { return s.fish(2) },
	func(s *sstate) (SizedStep, bool) { return s.hiddenSet(2, false) },
	func(s *sstate) (SizedStep, bool) { return s.nakedSet(3) },
	func(s *sstate) (SizedStep, bool) { return s.fish(3) },
	func(s *sstate) (SizedStep, bool) { return s.hiddenSet(3, false) },
	func(s *sstate) (SizedStep, bool) { return s.wing(false) },
	func(s *sstate) (SizedStep, bool) { return s.wing(true) },
	(*sstate).uniqueLoops,
	func(s *sstate) (SizedStep, bool) { return s.nakedSet(4) },
	func(s *sstate) (SizedStep, bool) { return s.fish(4) },
	func(s *sstate) (SizedStep, bool) { return s.hiddenSet(4, false) },
	(*sstate).bug,
	(*sstate).alignedPairExclusion,
}

// givensOf returns the filled cells of p and the fewest in any row or
// column.
func givensOf(p grid.Grid) (givens, minRowCol int) {
	n := p.Shape.N
	rows, cols := make([]int, n), make([]int, n)
	for c, v := range p.Cells {
		if v != 0 {
			givens++
			rows[c/n]++
			cols[c%n]++
		}
	}
	minRowCol = n
	for i := 0; i < n; i++ {
		minRowCol = min(minRowCol, rows[i], cols[i])
	}
	return givens, minRowCol
}

// checkSizedStep verifies a step against the solution: a wrong placement
// or the elimination of a true candidate is a grader bug, never a grade.
func checkSizedStep(st *SizedStep, sol grid.Grid) error {
	if len(st.Placements) == 0 && len(st.Eliminations) == 0 {
		return errors.New("step makes no progress")
	}
	for _, p := range st.Placements {
		if sol.Cells[p.Cell] != p.Digit {
			return fmt.Errorf("places %d in %s, solution has %d", p.Digit, sol.Shape.CellName(int(p.Cell)), sol.Cells[p.Cell])
		}
	}
	for _, e := range st.Eliminations {
		if sol.Cells[e.Cell] == e.Digit {
			return fmt.Errorf("eliminates the solution digit %d from %s", e.Digit, sol.Shape.CellName(int(e.Cell)))
		}
	}
	return nil
}
