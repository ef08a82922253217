package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/importfmt"
	"sudokubank/solve"
	"sudokubank/store"
)

// Import errors, for telling the kinds of bad line apart; a line that
// is not a proper puzzle wraps solve.ErrNoSolution or
// solve.ErrMultipleSolutions.
var (
	// ErrLineTooLong marks a line too long to be a puzzle (over 1 MiB),
	// which Lines hands out unread.
	ErrLineTooLong = importfmt.ErrLineTooLong
	// ErrUndecided marks a line of another size than 9x9 whose solutions
	// could not be counted to two within SizedImportNodes search nodes.
	ErrUndecided = errors.New("uniqueness not decided")
)

// SizedImportNodes bounds the solver's search nodes for counting the
// solutions of an imported line of another size than 9x9: a sparse 25x25
// line may take minutes, where a proper puzzle takes a few thousand. A
// node count, not a time, so that a line is kept or refused the same
// way on every machine.
const SizedImportNodes = 200_000

// Importer checks, canonicalizes and grades one import line, grading the
// puzzle as given. It keeps
// scratch state: one per worker.
type Importer struct {
	source string
	seen   *Seen
	solver solve.Solver
	canon  gen.Canonicalizer
	grader grade.Grader
	gr     grade.Grade // the line's grade, its path's array reused (GradeInto)
	dig    gen.Digger  // for IsMinimal, reusing its solver and scratch
	path   pathEncoder

	// The same for the lines of other sizes (importSized).
	sized      solve.Sized
	sizedDig   gen.SizedDigger
	sizedRate  grade.SizedGrader
	sizedNodes int // the count's node budget; 0: SizedImportNodes
}

// NewImporter returns an Importer for one worker, recording source with
// each family and skipping the grading of families seen has in the bank.
func NewImporter(source string, seen *Seen) *Importer {
	return &Importer{source: source, seen: seen}
}

// Import makes the result of one line: Invalid for a line that is not a
// puzzle with exactly one solution, Duplicate (still carrying the puzzle,
// to store as a variant) for a family the bank has, Kept otherwise.
func (m *Importer) Import(ctx context.Context, l Line) Result[store.NewFamily] {
	if l.Err != nil {
		return Result[store.NewFamily]{Reason: Invalid, Err: l.Err}
	}
	if text := strings.TrimSpace(l.Text); len(text) != 81 {
		if _, ok := grid.ShapeOfCells(len(text)); ok {
			return m.importSized(ctx, text)
		}
		// A puzzle of another size as the first of several fields, as
		// rated lists have them (PUZZLE ER EP ED SOURCE): the fields after
		// it are ignored, as solve.ParseLine ignores them after 81 cells.
		if importfmt.ShapeOf(text) != grid.Nine {
			first, _, _ := strings.Cut(strings.ReplaceAll(text, "\t", " "), " ")
			return m.importSized(ctx, first)
		}
	}
	g, err := solve.ParseLine(l.Text)
	if err != nil {
		return Result[store.NewFamily]{Reason: Invalid, Err: lineError(l.Text, err)}
	}
	switch m.solver.Count(g, 2) {
	case 0:
		return Result[store.NewFamily]{Reason: Invalid, Err: solve.ErrNoSolution}
	case 1:
	default:
		return Result[store.NewFamily]{Reason: Invalid, Err: solve.ErrMultipleSolutions}
	}
	sol, _ := m.solver.Solve(g)
	canon, t := m.canon.Canon(g)
	h := Hash(canon)
	p := store.Puzzle{Puzzle: g.String(), Solution: sol.String(), Transform: t.Inverse().String()}
	if m.seen != nil && m.seen.InBank(h) {
		// The store keeps the grade of the family it has; Level only
		// passes its check.
		nf := store.NewFamily{Family: store.Family{Canon: canon.String(), Level: int(grade.ExtremelyEasy), Source: m.source}, Puzzles: []store.Puzzle{p}}
		// The writer stores its puzzle as a variant (KeepDuplicates), so
		// it is checked and packed here too, as for a kept family.
		return prepare(canon, Result[store.NewFamily]{Reason: Duplicate, Hash: h, Puzzles: 1, Value: nf})
	}
	// The puzzle is graded as given, not in its canonical form: SE's
	// chain search depends on cell order, so on a few hard puzzles two
	// orientations rate 0.1 to 0.3 apart, and the rating stored must be
	// the one SE gives the puzzle stored. The family's grade is thus
	// its first puzzle's own (a later isomorph joins as a variant).
	gr := &m.gr
	if err := m.grader.GradeIntoContext(ctx, g, gr); err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: err} // the grader names the puzzle
	}
	path, err := m.path.encode(gr)
	if err != nil {
		return Result[store.NewFamily]{Reason: Failed, Err: fmt.Errorf("puzzle %s: %w", g, err)}
	}
	nf := store.NewFamily{Family: family(canon, gr, path, m.source), Puzzles: []store.Puzzle{p}}
	nf.Symmetry = gen.DetectSymmetry(g).String()
	nf.Minimal = m.dig.IsMinimal(g)
	return prepare(canon, Result[store.NewFamily]{Reason: Kept, Hash: h, Level: gr.Level, Puzzles: 1, Value: nf})
}

// lineError is the message for an import line that is not a puzzle. A
// line of more than 81 cells, or of 81 cells with more after them, is
// said in those terms, not as the character or the cell count the
// parser stopped at: "line has 95 cells, a puzzle has 81". Otherwise it
// is the parser's, which counts lines within its input (always one
// here).
func lineError(text string, err error) error {
	text = strings.TrimSpace(text)
	cells, other := 0, 0
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9' || r == '.' || r == '-' || r == '*' || r == '_':
			cells++
		case r == ' ' || r == '\t' || r == '|' || r == '+':
		default:
			other++
		}
	}
	switch {
	case other == 0 && cells > 81:
		return fmt.Errorf("line has %d cells, a puzzle has 81", cells)
	case other > 0 && len(text) > 81:
		if _, perr := solve.Parse(text[:81]); perr == nil {
			return fmt.Errorf("line has %d characters: a puzzle of 81 cells and then %q; put a space between a puzzle and what follows it", len(text), clip(text[81:], 20))
		}
	}
	return errors.New(strings.TrimPrefix(err.Error(), "line 1, "))
}

// clip returns s cut to at most n bytes, with "..." where it was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
