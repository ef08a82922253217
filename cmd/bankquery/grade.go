package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"sudokubank/export"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/importfmt"
	"sudokubank/internal/cli"
	"sudokubank/internal/plural"
	"sudokubank/solve"
	"sudokubank/store"
)

const gradeUsage = `Usage: bankquery grade [-db puzzles.db] [-json] [-steps] PUZZLE... | -

Grade grades puzzles that need not be in the bank, as bankgen grades
them: level, Sudoku Explainer rating (ER), pearl (EP) and diamond (ED),
the composite score and the hardest technique; -steps adds the hint path,
every step of the solve with its cells, as show prints it. For each
puzzle it says whether the bank holds it: stored as given (its ID and
family), as an isomorph (the same puzzle rotated, reflected, relabelled
or with rows or columns swapped: the family, the stored puzzle and the
transform that takes the stored puzzle to the one given), or not at all.
A bank holds one grade a family, which can differ by 0.1 to 0.3 from a
hard puzzle's own in another orientation; grade gives the puzzle's own,
and the family's beside it where they differ.

The puzzles are the arguments (81 cells, '.' or '0' for an empty cell),
or the lines of standard input with - (one a line; blank lines, '#'
comments and anything after a space following the puzzle are skipped).
A puzzle of another size is its N*N cells on one line, with nothing
between them (16 for 4x4 up to 625 for 25x25; values above 9 as letters,
A for 10): it is graded in its own size, as bankgen -size grades it (the
score counts its givens as if scaled to 81 cells), its size is printed
and its steps name cells up to r25c25.
The bank is optional: if the -db file does not exist, grade grades all
the same and says no bank was consulted.

A transform is written [T]RRRRRRRRR/CCCCCCCCC/DDDDDDDDD: T to transpose
first; then row r of the result is row R(r) of the grid, column c is
column C(c), and digit d becomes D(d); for another size, N symbols
each, 10 and up written as letters.

Exit status: 2 if an argument is not a puzzle (nothing is graded); 1 if
a puzzle has no solution or several, or a line of input is not a puzzle
(the others are still graded and printed), or standard input holds no
puzzle at all.

Examples:
  bankquery grade 6....3.1..2.5.......8.7.....5.2.......2.8....1....6..9......7..3......61.....98.4
  bankquery grade -steps -db none.db 000000010400000000020000000000050407008000300001090000300400200050100000000806000
  bankquery grade 1..3...6.....3.6.5.....2..62..3....4
  cut -c1-81 top1465.txt | bankquery grade -json - | jq 'select(.bank.match == "none")'
`

// gradeJSON is one puzzle as grade -json prints it: the keys of list's
// JSON where they mean the same.
type gradeJSON struct {
	Argument   int            `json:"argument,omitempty"` // the argument's place, from 1
	Line       int            `json:"line,omitempty"`     // the line of standard input
	Puzzle     string         `json:"puzzle"`
	Size       int            `json:"size,omitempty"` // N of an N x N puzzle; none for a line of no size
	Error      string         `json:"error,omitempty"`
	Level      int            `json:"level,omitempty"`
	LevelName  string         `json:"level_name,omitempty"`
	Rating     ratingJSON     `json:"rating,omitempty"`
	Pearl      ratingJSON     `json:"pearl,omitempty"`
	Diamond    ratingJSON     `json:"diamond,omitempty"`
	Score      scoreJSON      `json:"score,omitempty"`
	Hardest    string         `json:"hardest,omitempty"`
	Givens     int            `json:"givens"`
	StepCount  int            `json:"step_count,omitempty"`
	Unfinished bool           `json:"unfinished,omitempty"`
	Steps      []string       `json:"steps,omitempty"`
	Bank       *gradeBankJSON `json:"bank"`
}

// gradeBankJSON is what the bank holds of a graded puzzle.
type gradeBankJSON struct {
	Consulted bool   `json:"consulted"`
	Match     string `json:"match,omitempty"` // exact, isomorph or none
	Family    int64  `json:"family,omitempty"`
	PuzzleID  int64  `json:"puzzle_id,omitempty"` // the stored puzzle
	Stored    string `json:"stored,omitempty"`    // its cells
	// Transform takes the stored puzzle to the one given (isomorph).
	Transform     string     `json:"transform,omitempty"`
	FamilyRating  ratingJSON `json:"family_rating,omitempty"`
	FamilyPearl   ratingJSON `json:"family_pearl,omitempty"`
	FamilyDiamond ratingJSON `json:"family_diamond,omitempty"`
	FamilyLevel   int        `json:"family_level,omitempty"`
}

// ratingJSON is a rating as list -format json and export write it, with
// one decimal (7.0, not 7).
type ratingJSON float64

// MarshalJSON writes the rating with one decimal, as export does.
func (r ratingJSON) MarshalJSON() ([]byte, error) {
	return []byte(export.RatingJSON(float64(r))), nil
}

// scoreJSON is a composite score as list -format json and export write
// it, with two decimals (2.20, not 2.2).
type scoreJSON float64

// MarshalJSON writes the score with two decimals, as export does.
func (s scoreJSON) MarshalJSON() ([]byte, error) {
	return []byte(export.ScoreJSON(float64(s))), nil
}

// gradeInput is one puzzle to grade, with where it came from.
type gradeInput struct {
	arg, line int
	text      string    // the line as read
	grid      grid.Grid // the puzzle; only its Shape, if known, when err is set
	err       error     // the line is not a puzzle
	readErr   error     // standard input could not be read
}

func (in gradeInput) label() string {
	if in.line > 0 {
		return fmt.Sprintf("line %d", in.line)
	}
	return fmt.Sprintf("puzzle %d", in.arg)
}

func runGrade(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("bankquery grade", flag.ContinueOnError)
	db := fs.String("db", "puzzles.db", "the bank `file` to look the puzzles up in; grading goes on without it if it does not exist")
	asJSON := fs.Bool("json", false, "print one JSON object a puzzle, a line each")
	steps := fs.Bool("steps", false, "print the hint path: every step of the solve")
	if err := cli.ParseFlags(fs, gradeUsage, args, e.stdout); err != nil {
		return helped(err)
	}
	if fs.NArg() == 0 {
		return usagef("grade takes puzzles, or - to read them from standard input")
	}
	// The arguments are all checked before anything is graded; the
	// lines of standard input are graded as they are read, so that a
	// long list shows its first grades at once.
	if fs.NArg() == 1 && fs.Arg(0) == "-" && stdinIsDir(e.stdin) {
		// Refused as bankgen import refuses it, before any bank is
		// opened: reading one fails only at the first read.
		return usagef("standard input is a directory: grade - reads puzzles from standard input, one a line")
	}
	var lines int // of standard input, blank and comment lines included
	inputs := stdinInputs(e.stdin, &lines)
	if fs.NArg() > 1 || fs.Arg(0) != "-" {
		var args []gradeInput
		for i, a := range fs.Args() {
			g, err := parseGrade(strings.TrimSpace(a), solve.Parse)
			if err != nil {
				return usagef("argument %d %q is not a %s: %v", i+1, clip(a, 90), puzzleOf(g.Shape), err)
			}
			args = append(args, gradeInput{arg: i + 1, grid: g})
		}
		inputs = slices.Values(args)
	}

	var bank *store.DB
	if _, err := os.Stat(*db); err == nil {
		if bank, err = openReadOnly(ctx, e, *db); err != nil {
			return err
		}
		defer bank.Close()
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("open bank %s: %w", *db, cli.Reason(err))
	}

	var g graders
	bad, n := 0, 0
	bw := bufio.NewWriter(e.stdout)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	for in := range inputs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if in.readErr != nil {
			return fmt.Errorf("standard input: %w", in.readErr)
		}
		j, gr, m, err := gradeOne(ctx, &g, bank, in)
		if err != nil {
			return err
		}
		if j.Error != "" {
			bad++
		}
		if n++; *asJSON {
			if !*steps {
				j.Steps = nil
			}
			if err := enc.Encode(j); err != nil {
				return err
			}
		} else {
			if n > 1 {
				bw.WriteByte('\n')
			}
			writeGradeText(bw, in, j, gr, m, *db, *steps)
		}
		if in.line > 0 {
			// A line at a time from a pipe: the reader sees each grade
			// as it is made.
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if n == 0 {
		// Only standard input can hold no puzzle. As import does with
		// an input of no puzzle, the command failed: a pipeline that
		// lost its puzzles upstream should not pass for graded.
		if lines == 0 {
			return errors.New("grade -: standard input is empty: no puzzle to grade")
		}
		return fmt.Errorf("grade -: no puzzle on standard input, only blank lines and '#' comments (%s)", plural.Count(int64(lines), "line"))
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d puzzles could not be graded", bad, n)
	}
	return nil
}

// stdinIsDir reports whether r is a directory opened as a file, as a
// shell's "< dir" gives standard input.
func stdinIsDir(r io.Reader) bool {
	f, ok := r.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.IsDir()
}

// stdinInputs yields the puzzles of r, a line each, skipping blank
// lines and '#' comments, and counts the lines it reads in *lines; a
// line that is not a puzzle (one over 1 MiB included, which is not kept)
// is an input with its error, and a failed read the last input, with
// readErr.
func stdinInputs(r io.Reader, lines *int) iter.Seq[gradeInput] {
	return func(yield func(gradeInput) bool) {
		br := bufio.NewReaderSize(r, 64<<10)
		for n := 1; ; n++ {
			text, long, ok, err := nextLine(br)
			if err != nil {
				yield(gradeInput{readErr: fmt.Errorf("line %d: %w", n, err)})
				return
			}
			if !ok {
				return
			}
			*lines = n
			if long {
				if !yield(gradeInput{line: n, text: text, err: errLongLine}) {
					return
				}
				continue
			}
			line := strings.TrimSpace(strings.TrimPrefix(text, "\uFEFF"))
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			g, err := parseGrade(line, solve.ParseLine)
			if !yield(gradeInput{line: n, text: line, grid: g, err: err}) {
				return
			}
		}
	}
}

// errLongLine is a line of standard input over maxGradeLine bytes: no
// puzzle is that long, and it is not kept.
var errLongLine = errors.New("a line longer than 1 MiB")

// maxGradeLine bounds a line of grade's standard input, as import bounds
// its lines (the largest puzzle, 25x25, is 625 cells).
const maxGradeLine = 1 << 20

// nextLine reads the next line of br, without its line end: ok is false
// when there is none. A line over maxGradeLine bytes is read to its end
// but only its start is kept, with long set; err is a failed read.
func nextLine(br *bufio.Reader) (text string, long, ok bool, err error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		ok = ok || len(chunk) > 0
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		switch {
		case long:
		case len(b)+len(chunk) > maxGradeLine:
			// Enough of it to show the user which line it is.
			long, b = true, append(b, chunk...)[:60]
		default:
			b = append(b, chunk...)
		}
		switch err {
		case bufio.ErrBufferFull:
		case nil, io.EOF:
			if long {
				return string(b) + "...", true, true, nil
			}
			return string(b), false, ok, nil
		default:
			return "", false, false, err
		}
	}
}

// parseGrade reads one puzzle of grade's input: 9x9 text as parse9
// (solve.Parse for an argument, solve.ParseLine for a line of input)
// reads it, with its errors, so that 9x9 reads as it always has; another
// size (importfmt.ShapeOf: one word of N*N cells) as grid.ParseIn reads
// it. A puzzle of another size that does not parse is returned with its
// shape, which the error message names.
func parseGrade(text string, parse9 func(string) (solve.Grid, error)) (grid.Grid, error) {
	if s := importfmt.ShapeOf(text); s != grid.Nine {
		g, err := importfmt.ParseGrid(text)
		if err != nil {
			return grid.Grid{Shape: s}, err
		}
		return g, nil
	}
	p, err := parse9(text)
	if errors.Is(err, solve.ErrCellCount) {
		// Text of no size's length reads as 9x9; the user may have
		// meant another size.
		return grid.Grid{}, fmt.Errorf("%w (or %s for the other sizes)", err, otherCellCounts())
	}
	if err != nil {
		return grid.Grid{}, err
	}
	return grid.Grid{Shape: grid.Nine, Cells: p[:]}, nil
}

// otherCellCounts lists the cells of the sizes other than 9x9: "16, 36,
// 64, 144, 256 or 625".
func otherCellCounts() string {
	var n []string
	for _, s := range grid.Shapes {
		if s != grid.Nine {
			n = append(n, strconv.Itoa(s.Cells()))
		}
	}
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// puzzleOf names a puzzle of shape s in an error: "puzzle" for 9x9 or
// an unknown size, "6x6 puzzle" for another.
func puzzleOf(s grid.Shape) string {
	if s.N == 0 || s == grid.Nine {
		return "puzzle"
	}
	return s.String() + " puzzle"
}

// graders grade puzzles of every size: 9x9 with grade.Grader, as the
// bank grades them, the others with grade.SizedGrader.
type graders struct {
	nine  grade.Grader
	sized grade.SizedGrader
}

// grade grades p into j's grade fields and returns the grade as show
// prints one.
func (gs *graders) grade(ctx context.Context, p grid.Grid, j *gradeJSON) (shownGrade, error) {
	if p.Shape == grid.Nine {
		q := solve.Grid(p.Cells)
		j.Givens = grade.MetricsOf(q).Givens
		gr, err := gs.nine.Grade(q)
		if err != nil {
			return shownGrade{}, err
		}
		j.Level, j.LevelName = int(gr.Level), gr.Level.String()
		j.Rating, j.Pearl, j.Diamond = ratingJSON(gr.ER.Float()), ratingJSON(gr.EP.Float()), ratingJSON(gr.ED.Float())
		j.Score, j.Hardest, j.StepCount, j.Unfinished = scoreJSON(gr.Score), gr.Hardest.Slug(), len(gr.Path), gr.Unfinished
		for _, st := range gr.Path {
			j.Steps = append(j.Steps, st.Sized().Brief(grid.Nine))
		}
		return shownOf(gr), nil
	}
	j.Givens = p.Givens()
	gr, err := gs.sized.GradeContext(ctx, p)
	if err != nil {
		return shownGrade{}, err
	}
	j.Level, j.LevelName = int(gr.Level), gr.Level.String()
	j.Rating, j.Pearl, j.Diamond = ratingJSON(gr.ER.Float()), ratingJSON(gr.EP.Float()), ratingJSON(gr.ED.Float())
	j.Score, j.Hardest, j.StepCount, j.Unfinished = scoreJSON(gr.Score(p.Shape)), gr.Hardest.Slug(), len(gr.Steps), gr.Unfinished
	for _, st := range gr.Steps {
		j.Steps = append(j.Steps, st.Brief(p.Shape))
	}
	return shownGrade{ER: gr.ER, EP: gr.EP, ED: gr.ED, Shape: p.Shape, Path: gr.Steps, Unfinished: gr.Unfinished}, nil
}

// gradeOne grades one input and looks it up in bank (nil for none). A
// puzzle that cannot be graded is an Error in the result, not an error:
// the error is for a bank that cannot be read.
func gradeOne(ctx context.Context, gs *graders, bank *store.DB, in gradeInput) (gradeJSON, shownGrade, store.GridMatch, error) {
	j := gradeJSON{Argument: in.arg, Line: in.line, Size: in.grid.Shape.N}
	if in.err != nil {
		j.Error = "not a " + puzzleOf(in.grid.Shape) + ": " + strings.TrimPrefix(in.err.Error(), "line 1, ")
		return j, shownGrade{}, store.GridMatch{}, nil
	}
	j.Puzzle = in.grid.String()
	gr, err := gs.grade(ctx, in.grid, &j)
	if err != nil {
		if ctx.Err() != nil {
			return j, gr, store.GridMatch{}, err
		}
		switch {
		case errors.Is(err, solve.ErrNoSolution):
			j.Error = "no solution"
		case errors.Is(err, solve.ErrMultipleSolutions):
			j.Error = "more than one solution"
		default:
			j.Error = strings.TrimPrefix(err.Error(), "grade "+j.Puzzle+": ")
		}
		return j, gr, store.GridMatch{}, nil
	}
	j.Bank = &gradeBankJSON{}
	if bank == nil {
		return j, gr, store.GridMatch{}, nil
	}
	m, err := bank.LookupGrid(ctx, in.grid)
	if err != nil {
		return j, gr, m, err
	}
	j.Bank.Consulted, j.Bank.Match = true, "none"
	if m.Found {
		f := m.Family
		j.Bank.Match, j.Bank.Family = "isomorph", f.ID
		j.Bank.FamilyRating, j.Bank.FamilyPearl, j.Bank.FamilyDiamond, j.Bank.FamilyLevel = ratingJSON(tenths(f.ER)), ratingJSON(tenths(f.EP)), ratingJSON(tenths(f.ED)), f.Level
		if m.Exact {
			j.Bank.Match = "exact"
		} else {
			j.Bank.Transform = m.To.String()
		}
		if m.HasRow {
			j.Bank.PuzzleID, j.Bank.Stored = m.Row.ID, m.Row.Puzzle
		} else {
			j.Bank.Stored = f.Canon
		}
	}
	return j, gr, m, nil
}

// writeGradeText writes one graded puzzle as text.
func writeGradeText(w io.Writer, in gradeInput, j gradeJSON, gr shownGrade, m store.GridMatch, db string, steps bool) {
	var b strings.Builder
	shown := j.Puzzle
	if in.err != nil {
		shown = strings.ToValidUTF8(printable(clip(in.text, 90)), "?")
	}
	fmt.Fprintf(&b, "%s: %s\n", in.label(), shown)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	if j.Error != "" {
		fmt.Fprintf(tw, "  error\t%s\n", j.Error)
		tw.Flush()
		io.WriteString(w, b.String())
		return
	}
	if s := in.grid.Shape; s != grid.Nine {
		fmt.Fprintf(tw, "  size\t%s\n", s)
	}
	fmt.Fprintf(tw, "  level\t%s (%d)\n", j.LevelName, j.Level)
	fmt.Fprintf(tw, "  rating\tER %s, EP %s, ED %s\n", gr.ER, gr.EP, gr.ED)
	fmt.Fprintf(tw, "  score\t%.2f\n", j.Score)
	fmt.Fprintf(tw, "  hardest\t%s\n", j.Hardest)
	fmt.Fprintf(tw, "  givens\t%d\n", j.Givens)
	bk := j.Bank
	switch {
	case !bk.Consulted:
		fmt.Fprintf(tw, "  bank\tnot consulted: no bank at %s\n", db)
	case bk.Match == "none":
		fmt.Fprintf(tw, "  bank\tnot in %s, nor any isomorph of it\n", db)
	case bk.Match == "exact":
		fmt.Fprintf(tw, "  bank\tstored as puzzle %d (family %d)\n", bk.PuzzleID, bk.Family)
	case m.HasRow:
		fmt.Fprintf(tw, "  bank\tan isomorph is stored: puzzle %d (family %d)\n", bk.PuzzleID, bk.Family)
		fmt.Fprintf(tw, "  stored\t%s\n", bk.Stored)
		fmt.Fprintf(tw, "  transform\t%s takes puzzle %d to this one\n", bk.Transform, bk.PuzzleID)
	default:
		fmt.Fprintf(tw, "  bank\tfamily %d holds an isomorph, as its canonical form\n", bk.Family)
		fmt.Fprintf(tw, "  stored\t%s\n", bk.Stored)
		fmt.Fprintf(tw, "  transform\t%s takes the canonical form to this one\n", bk.Transform)
	}
	if bk.Consulted && m.Found {
		f := m.Family
		if f.ER != int(gr.ER) || f.EP != int(gr.EP) || f.ED != int(gr.ED) {
			fmt.Fprintf(tw, "  bank rating\tER %s, EP %s, ED %s: the family's, as stored (of its canonical form or the puzzle imported)\n",
				grade.Rating(f.ER), grade.Rating(f.EP), grade.Rating(f.ED))
		}
	}
	tw.Flush()
	if steps {
		writePath(&b, gr, nil, store.Family{})
	}
	io.WriteString(w, b.String())
}

// clip cuts s to at most n bytes, marking the cut with "...".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
