package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/cli"
	"sudokubank/solve"
	"sudokubank/store"
)

const showUsage = `Usage: bankquery show [-db puzzles.db] ID|PUZZLE

Show prints one puzzle drawn as a grid, its solution, its grade (level,
Sudoku Explainer rating, pearl and diamond, the composite score, the
hardest technique), the techniques its solve uses, and its hint path:
every step of the solve of this very puzzle, in its own orientation,
with the cells it looks at (r1c1 is the top left cell, r9c9 the bottom
right), the digits it places (r3c5=7) and the candidates it removes
(r1c7<>5); a puzzle of another size is graded in its own size, its cells
named up to r25c25 and its values above 9 written as letters, as in its
grid (r10c12=B). The path is worked out afresh by the grader, since the bank
stores one solve per family. The rating is the family's, shared by all
its puzzles: that of the puzzle as imported, or of the canonical form for
a generated family. A few hard puzzles rate 0.1 to 0.3 apart in two
orientations; where the puzzle shown is one, the rating line says so and
gives this puzzle's own rating, which its path's hardest step bears. The
puzzle is named by its ID (as list and export print it) or by its 81
cells ('.' or '0' for an empty cell), or, for another size, by its N*N
cells (16 for 4x4 up to 625 for 25x25; values above 9 as letters). The
grids are drawn with their boxes ruled, side by side up to 12x12 and one
above the other from 16x16. A puzzle of any size the bank holds only as
an isomorph (the same puzzle rotated, reflected, relabelled, or with rows or
columns swapped) is shown as given, with its family's grade and data, the
stored puzzle it is an isomorph of, and the transform that takes that
puzzle to it ([T]RRRRRRRRR/CCCCCCCCC/DDDDDDDDD: T to transpose first, then
row r of the result is row R(r), column c is column C(c), digit d becomes
D(d); N symbols each for another size, 10 and up as letters); it has no
ID of its own, so export and packs cannot name it.

Examples:
  bankquery show 1234
  bankquery show 000000010400000000020000000000050407008000300001090000300400200050100000000806000
`

func runShow(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery show", flag.ContinueOnError)
	db := dbFlag(fs)
	if err := cli.ParseFlags(fs, showUsage, args, e.stdout); err != nil {
		return helped(err)
	}
	if fs.NArg() != 1 {
		return usagef("show takes one puzzle ID or puzzle, got %d arguments", fs.NArg())
	}
	arg := strings.TrimSpace(fs.Arg(0))
	var id int64
	var puzzle grid.Grid // a puzzle given by its cells
	if isID(arg) {
		n, err := strconv.ParseInt(arg, 10, 64)
		switch {
		case err != nil:
			return usagef("puzzle ID %s is out of range: IDs go up to %d", arg, int64(math.MaxInt64))
		case n <= 0:
			return usagef("puzzle ID %d: IDs start at 1", n)
		}
		id = n
	} else {
		g, err := parseGrade(arg, solve.Parse)
		if err != nil {
			return usagef("%q is neither a puzzle ID nor a puzzle: %v", arg, err)
		}
		puzzle = g
	}

	bank, err := openReadOnly(ctx, e, *db)
	if err != nil {
		return err
	}
	defer bank.Close()
	if puzzle.Cells != nil {
		return showPuzzle(ctx, e, bank, *db, puzzle)
	}
	r, err := bank.Puzzle(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no puzzle with ID %d in the bank %s", id, *db)
	}
	if err != nil {
		return err
	}
	f, err := bank.Family(ctx, r.FamilyID)
	if err != nil {
		return err
	}
	return printShow(ctx, e.stdout, r, f, nil)
}

// isID reports whether show's argument is a puzzle ID rather than a
// puzzle's cells: a number shorter than a 4x4 puzzle (16 cells), or all
// digits and shorter than a 6x6 one (36) but not a 4x4 one.
func isID(arg string) bool {
	if _, err := strconv.ParseInt(arg, 10, 64); err == nil && len(arg) < 16 {
		return true
	}
	return len(arg) < 36 && len(arg) != 16 && strings.Trim(arg, "0123456789") == ""
}

// showPuzzle shows a puzzle of any size given by its cells: the stored
// puzzle, or one the bank holds only as an isomorph, shown as given with
// its family's data (see store.MatchOf.AsGiven).
func showPuzzle(ctx context.Context, e *env, bank *store.DB, db string, g grid.Grid) error {
	m, err := bank.LookupGrid(ctx, g)
	if err != nil {
		return err
	}
	switch {
	case !m.Found:
		return fmt.Errorf("%s %s is not in the bank %s, nor any isomorph of it (bankquery grade grades any puzzle)", puzzleOf(g.Shape), g, db)
	case m.Exact:
		return printShow(ctx, e.stdout, m.Row, m.Family, nil)
	}
	// Shown as given, the hint path and the grid are in the orientation
	// the user holds.
	r, err := m.AsGiven(g)
	if err != nil {
		return err
	}
	return printShow(ctx, e.stdout, r, m.Family, &m)
}

// printShow prints row r of family f; iso is set when r is a puzzle
// the bank holds only as an isomorph, and says which.
func printShow(ctx context.Context, w io.Writer, r store.Row, f store.Family, iso *store.GridMatch) error {
	var b strings.Builder
	switch {
	case iso == nil:
		fmt.Fprintf(&b, "puzzle %d (family %d)\n%s\n\n", r.ID, r.FamilyID, r.Puzzle)
	case iso.HasRow:
		fmt.Fprintf(&b, "puzzle not stored as given: an isomorph of puzzle %d (family %d)\n%s\n", iso.Row.ID, r.FamilyID, r.Puzzle)
		fmt.Fprintf(&b, "stored as %s\n", iso.Row.Puzzle)
		fmt.Fprintf(&b, "transform %s takes puzzle %d to this one\n\n", iso.To, iso.Row.ID)
	default:
		fmt.Fprintf(&b, "puzzle not stored as given: an isomorph of family %d's canonical form\n%s\n", r.FamilyID, r.Puzzle)
		fmt.Fprintf(&b, "canonical form %s\n", f.Canon)
		fmt.Fprintf(&b, "transform %s takes the canonical form to this one\n\n", iso.To)
	}
	drawGrids(&b, r.Puzzle, r.Solution)

	own, gradeErr := gradeShown(ctx, r.Puzzle)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	yes := map[bool]string{true: "yes", false: "no"}
	fmt.Fprintf(tw, "level\t%s (%d)\n", levelName(r.Level), r.Level)
	fmt.Fprintf(tw, "rating\tER %s, EP %s, ED %s", grade.Rating(r.ER), grade.Rating(r.EP), grade.Rating(r.ED))
	if gradeErr == nil && !sameGrade(own, r) {
		fmt.Fprintf(tw, " (%s)\n\tthis puzzle as shown rates ER %s, EP %s, ED %s, as its hint path below",
			ratingOrigin(ctx, r, f), own.ER, own.EP, own.ED)
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "score\t%.2f\n", r.Score)
	fmt.Fprintf(tw, "givens\t%d (fewest in a row or column: %d)\n", r.Givens, r.MinRowCol)
	fmt.Fprintf(tw, "hardest\t%s\n", orDash(r.Hardest))
	fmt.Fprintf(tw, "symmetry\t%s\n", orDash(r.Symmetry))
	fmt.Fprintf(tw, "minimal\t%s\n", yes[r.Minimal])
	fmt.Fprintf(tw, "source\t%s\n", orDash(printable(r.Source)))
	fmt.Fprintf(tw, "search nodes\t%d\n", r.SearchNodes)
	fmt.Fprintf(tw, "canonical form\t%s\n", f.Canon)
	tw.Flush()

	fmt.Fprintln(&b, "\ntechniques (uses):")
	if len(f.Techniques) == 0 {
		fmt.Fprintln(&b, "  none stored")
	} else {
		slugs := slices.SortedFunc(maps.Keys(f.Techniques), compareTechniques)
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, s := range slugs {
			fmt.Fprintf(tw, "  %s\t%d\n", s, f.Techniques[s])
		}
		tw.Flush()
	}
	writePath(&b, own, gradeErr, f)
	_, err := io.WriteString(w, b.String())
	return err
}

// shownGrade is the regrade of a puzzle of any size: its ratings and its
// hint path in its shape, a 9x9 path read as SizedSteps (grade.Step.Sized)
// so that one formatter writes every size.
type shownGrade struct {
	ER, EP, ED grade.Rating
	Shape      grid.Shape
	Path       []grade.SizedStep
	Unfinished bool
}

// shownOf returns the 9x9 grade gr as a shownGrade.
func shownOf(gr grade.Grade) shownGrade {
	return shownGrade{ER: gr.ER, EP: gr.EP, ED: gr.ED, Shape: grid.Nine, Path: grade.SizedPath(gr.Path), Unfinished: gr.Unfinished}
}

// gradeShown grades the puzzle shown, in its own orientation: a 9x9
// puzzle with the 9x9 grader, as the bank grades it, another size with
// grade.SizedGrader.
func gradeShown(ctx context.Context, puzzle string) (shownGrade, error) {
	if s, ok := grid.ShapeOfCells(len(puzzle)); ok && s != grid.Nine {
		g, err := grid.ParseIn(s, puzzle)
		if err != nil {
			return shownGrade{}, err
		}
		gr, err := grade.NewSized().GradeContext(ctx, g)
		if err != nil {
			return shownGrade{}, err
		}
		return shownGrade{ER: gr.ER, EP: gr.EP, ED: gr.ED, Shape: s, Path: gr.Steps, Unfinished: gr.Unfinished}, nil
	}
	p, err := solve.Parse(puzzle)
	if err != nil {
		return shownGrade{}, err
	}
	gr, err := grade.New().GradeContext(ctx, p)
	if err != nil {
		return shownGrade{}, err
	}
	return shownOf(gr), nil
}

// sameGrade reports whether gr is the grade the bank holds for r.
func sameGrade(gr shownGrade, r store.Row) bool {
	return int(gr.ER) == r.ER && int(gr.EP) == r.EP && int(gr.ED) == r.ED
}

// ratingOrigin says where the stored grade of r's family comes from, for
// a puzzle that rates otherwise as shown. A family's grade is that of its
// canonical form (generated families, and imports by older versions) or
// of the puzzle it was imported as; SE's chain search depends on cell
// order, so those can differ from another orientation's. Grading the
// canonical form tells the first case; otherwise the puzzle imported
// was another orientation, or the grader has changed since.
func ratingOrigin(ctx context.Context, r store.Row, f store.Family) string {
	if c, err := gradeShown(ctx, f.Canon); err == nil && sameGrade(c, r) {
		return "the family's rating, of its canonical form"
	}
	return "the family's rating, of the puzzle it was imported as, or by an older grader"
}

// writePath writes the hint path of the puzzle shown, graded as gr (or
// failing with err). The bank stores only the family's sequence of
// techniques, so the puzzle is graded again: that gives every step with
// its cells, in the orientation and digits the user sees. Should grading
// fail, the stored sequence is printed as what it is.
func writePath(b *strings.Builder, gr shownGrade, err error, f store.Family) {
	if err != nil {
		fmt.Fprintf(b, "\nhint path: this puzzle could not be graded again (%v)\n", err)
		writeStoredPath(b, f)
		return
	}
	fmt.Fprintf(b, "\nhint path (this puzzle's solve, %d steps, hardest step ER %s; rNcM is row N, column M):\n", len(gr.Path), gr.ER)
	width := len(strconv.Itoa(len(gr.Path)))
	for i, st := range gr.Path {
		fill(b, fmt.Sprintf("  %*d. ", width, i+1), st.Brief(gr.Shape), 78)
	}
	if gr.Unfinished {
		fmt.Fprintln(b, "  (no technique of the grader goes further; the rest needs trial and error)")
	}
}

// writeStoredPath writes the family's stored sequence of techniques,
// which names no cells and so holds for every variant of the family.
func writeStoredPath(b *strings.Builder, f store.Family) {
	fmt.Fprintln(b, "\ntechnique sequence (the family's stored solve, the same for every variant; xN repeats a step N times):")
	steps, err := store.PathSteps(f.Path)
	switch {
	case err != nil:
		fmt.Fprintf(b, "  unreadable (%v)\n", err)
		return
	case len(steps) == 0:
		fmt.Fprintln(b, "  none stored")
		return
	}
	wrap(b, strings.Split(runs(steps), ", "), ", ", "  ", 78)
}

// fill writes text after prefix in lines of at most width characters,
// breaking after a comma or a space (a longer piece gets a line of its
// own); continuation lines are indented to the end of the prefix.
func fill(b *strings.Builder, prefix, text string, width int) {
	indent := strings.Repeat(" ", len(prefix))
	line := prefix
	for text != "" {
		piece := text
		if i := strings.IndexAny(text, ", "); i >= 0 {
			piece = text[:i+1]
		}
		text = text[len(piece):]
		if len(line) > len(indent) && len(line)+len(strings.TrimRight(piece, " ")) > width {
			b.WriteString(strings.TrimRight(line, " "))
			b.WriteByte('\n')
			line = indent
			piece = strings.TrimLeft(piece, " ")
		}
		line += piece
	}
	b.WriteString(strings.TrimRight(line, " "))
	b.WriteByte('\n')
}

// runs writes a sequence of steps with a step repeated in a row once,
// with its count: "full-house x3, claiming".
func runs(steps []string) string {
	var out []string
	for i := 0; i < len(steps); {
		j := i + 1
		for j < len(steps) && steps[j] == steps[i] {
			j++
		}
		if j-i > 1 {
			out = append(out, steps[i]+" x"+strconv.Itoa(j-i)+",")
		} else {
			out = append(out, steps[i]+",")
		}
		i = j
	}
	s := strings.Join(out, " ")
	return strings.TrimSuffix(s, ",")
}

// drawGrids draws the puzzle and its solution side by side, or for
// grids too wide for two in 80 columns (16x16 and up) one above the other.
func drawGrids(b *strings.Builder, puzzle, solution string) {
	left, right := gridLines(puzzle), gridLines(solution)
	w := len(left[0])
	if w+3+len(right[0]) > 80 {
		for _, g := range []struct {
			name  string
			lines []string
		}{{"puzzle", left}, {"solution", right}} {
			fmt.Fprintf(b, "%s\n", g.name)
			for _, l := range g.lines {
				fmt.Fprintf(b, "%s\n", l)
			}
			b.WriteByte('\n')
		}
		return
	}
	fmt.Fprintf(b, "%-*s   %s\n", w, "puzzle", "solution")
	for i := range left {
		fmt.Fprintf(b, "%s   %s\n", left[i], right[i])
	}
	b.WriteByte('\n')
}

// gridLines draws a grid of N*N cells (9x9 for any other length, as
// question marks) as lines of the cells with its boxes ruled: 13 lines
// of 25 characters for a 9x9.
func gridLines(s string) []string {
	shape, ok := grid.ShapeOfCells(len(s))
	if !ok {
		shape, s = grid.Nine, strings.Repeat("?", 81)
	}
	n := shape.N
	var rule strings.Builder
	for range shape.Stacks() {
		rule.WriteString("+" + strings.Repeat("-", 2*shape.BoxCols+1))
	}
	rule.WriteByte('+')
	var out []string
	for r := range n {
		if r%shape.BoxRows == 0 {
			out = append(out, rule.String())
		}
		var line strings.Builder
		for c := range n {
			if c%shape.BoxCols == 0 {
				line.WriteString("| ")
			}
			ch := s[n*r+c]
			if ch == '0' {
				ch = '.'
			}
			line.WriteByte(ch)
			line.WriteByte(' ')
		}
		line.WriteByte('|')
		out = append(out, line.String())
	}
	return append(out, rule.String())
}

// wrap writes words joined by sep in lines of at most width characters
// (a longer word gets a line of its own), each starting with indent; a
// line break replaces the space at the end of sep.
func wrap(b *strings.Builder, words []string, sep, indent string, width int) {
	n := 0
	for i, word := range words {
		if i < len(words)-1 {
			word += strings.TrimRight(sep, " ")
		}
		if n > 0 && n+1+len(word) > width {
			b.WriteByte('\n')
			n = 0
		}
		if n == 0 {
			b.WriteString(indent)
			n = len(indent)
		} else {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	b.WriteByte('\n')
}

// orDash returns s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
