// Package export writes puzzle packs for publishers and apps: a plain
// text collection (sdm), SadMan/SudoCue's one-puzzle sdk files (a zip of
// them for a pack), the OpenSudoku XML format, CSV, JSON Lines and a
// print-ready PDF with an answer key. It takes a slice of items and writes
// a file; it knows nothing of the bank's database or the command line, and
// it does not choose, sort or grade puzzles.
//
// The text formats are stable: publishers and apps parse them. Each
// format's exact layout is documented on its Format constant, and golden
// files under testdata/ pin it byte for byte.
package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"sudokubank/grid"
	"sudokubank/solve"
)

// Item is one puzzle of a pack, with the metadata the formats print.
type Item struct {
	Number    int     // 1-based position in the pack, as printed
	ID        int64   // puzzle id in the bank
	Family    int64   // id of the family the puzzle belongs to
	Size      int     // N of the N x N grid (grid.Shapes); 0 takes it from the length of Puzzle
	Puzzle    string  // N*N cells, row by row: '1'-'9' then 'A' for 10 up, '.' (or '0' for N <= 9) for an empty cell
	Solution  string  // N*N values as in Puzzle; may be empty except for the PDF's answer key
	Givens    int     // number of givens; must agree with Puzzle
	Level     int     // 1..5
	LevelName string  // extremely-easy, easy, medium, difficult, evil
	Rating    float64 // Sudoku Explainer rating ER, one decimal
	Pearl     float64 // Sudoku Explainer pearl EP, one decimal
	Diamond   float64 // Sudoku Explainer diamond ED, one decimal
	Score     float64 // the dig-hole paper's composite score, 1.0..5.0
	Hardest   string  // slug of the hardest technique needed
	Symmetry  string  // symmetry of the givens' pattern, e.g. "rotational"
	Minimal   bool    // no given can be removed without losing uniqueness
	Source    string  // where the puzzle came from
}

// Format names an output format.
type Format string

// The formats Write knows.
const (
	// SDM is a collection, one puzzle a line: 81 characters, row by row,
	// '1'-'9' for a given and '0' for an empty cell (the classic sdm
	// convention), each line ended by "\n". Nothing else is written.
	// Like SDK and OpenSudoku it holds 9x9 puzzles only (ErrNineOnly).
	SDM Format = "sdm"

	// SDK is SadMan/SudoCue's .sdk, one puzzle a file as those programs
	// read it (they open only the first puzzle of a file). One item makes
	// one .sdk file (a zip of it with Options.SDKZip); more make a zip
	// archive of them, named by pack number ("0001.sdk", at least four
	// digits, all of one width so that they sort), stored deflated, each
	// dated Options.Date (or, when it is zero, the fixed Epoch), so that
	// the same pack gives the same bytes. A file is '#' header lines, then 9 lines
	// of 9 characters ('.' for an empty cell), every line ended by "\n".
	// The header lines, in this order (SudoCue's letters; those marked *
	// only when known):
	//
	//	#AOptions.Author *
	//	#DPuzzle 12 (id 345, family 67)   (with Options.Title: "#DTitle: puzzle 12 (...)")
	//	#CER 3.4; EP 1.2; ED 1.2; score 2.80; givens 26; hardest naked-pair; symmetry rotational; minimal yes
	//	#BOptions.Date as 2006-01-02 *
	//	#Lmedium
	//	#SOptions.SourceName, or else the item's source
	//	#UOptions.URL *
	//
	// An empty text field prints as "-".
	SDK Format = "sdk"

	// OpenSudoku is the XML format the OpenSudoku Android app imports
	// (version 2): one <folder> named after Options.Title (or "sudokubank")
	// holding one <game> per puzzle, whose data attribute is the 81 cells
	// with '0' for an empty cell, whose created attribute is a time in
	// milliseconds since 1970 and whose note attribute reads
	// "Puzzle 12, medium, ER 3.4". The app lists a folder newest first
	// (and dates a game without created by its import), so created falls
	// by 1 ms from one game to the next: the last game gets Options.Date
	// (or the fixed epoch 2000-01-01 00:00 UTC) and each one before it a
	// millisecond more, and the app shows the pack's order. The format
	// has no author or source fields. Lines end in "\n".
	OpenSudoku Format = "opensudoku"

	// CSV is RFC 4180 CSV (CRLF line ends, quoting only where needed): a
	// header row, then one row per puzzle, in the columns of CSVHeader,
	// followed by the columns of CSVCredits when the export sets any of
	// Options.Author, SourceName or URL (the same value on every row).
	// Puzzles of every size are written alike, one line of N*N cells
	// (grid.Grid's text: '.' for an empty cell, values above 9 as 'A' for
	// 10 up), and size is N; ratings have one decimal, the
	// score two; minimal is "true" or "false". A text field (level_name,
	// hardest, symmetry, source) that starts with '=', '+', '-', '@', a tab
	// or a carriage return is written with a single quote in front, so
	// that a spreadsheet shows it as text instead of running it as a
	// formula (CSV injection); the JSON format keeps such values as they are.
	CSV Format = "csv"

	// JSON is JSON Lines: one object per puzzle and line, with the keys of
	// CSVHeader in the same order and the same values ("solution" left out
	// without a solution, so that no one reads "" as a grid), numbers as
	// JSON numbers and minimal as a JSON boolean, then "cells", the puzzle
	// as an array of N*N numbers row by row (0 for an empty cell), and
	// "solution_cells", the solution alike (left out without a solution),
	// then the keys of CSVCredits that the export sets. Lines end in
	// "\n", and text is escaped so that it never breaks a line.
	JSON Format = "json"

	// PDF is a print-ready book: a title page when Options.Title is set,
	// a copyright page when PDFOptions.Copyright is, the puzzles
	// PDFOptions.PerPage to a page (by default fewer for grids too large
	// for four a page, see PDFOptions.PerPage), each labelled "Puzzle 12" with the
	// caption PDFOptions.Caption asks for, then, unless
	// PDFOptions.NoAnswers, the answer key in the same numbering from a
	// right-hand page, 12 solutions a page (6 on the smaller book trims,
	// 4 in large print, fewer where a large grid's values would fall below
	// 6.5 pt), givens in bold black and the filled-in digits in regular
	// gray. Grids are ruled in boxes of BoxRows x BoxCols, and values
	// above 9 set as PDFOptions.Symbols says. A last page never holds a lone puzzle or answer where
	// moving some from the page before avoids it. Pages are numbered at
	// the foot, the front matter and a blank page excepted; PDFPages
	// tells how many there are. The fonts are Go Regular and Go Bold,
	// embedded whole. The same items always give the same bytes: the file
	// has no timestamps.
	PDF Format = "pdf"
)

// Line ends: sdm, sdk, opensudoku and json end every line in "\n"; csv
// ends every line in "\r\n" as RFC 4180 says, line breaks inside quoted
// fields included; a text field never brings in another line end (sdk
// turns a line break in a field into a space, XML and JSON escape it).

// Formats lists every format in the order a usage text shows them.
var Formats = []Format{SDM, SDK, OpenSudoku, CSV, JSON, PDF}

// CSVHeader holds the CSV columns in order; the JSON keys are the same.
var CSVHeader = []string{
	"number", "id", "family", "puzzle", "solution", "givens", "level", "level_name",
	"rating", "pearl", "diamond", "score", "hardest", "symmetry", "minimal", "source", "size",
}

// CSVCredits holds the CSV columns and JSON keys that credit the pack,
// written when Options sets them: Author, SourceName and URL.
var CSVCredits = []string{"author", "source_name", "url"}

// Epoch stands in for a zero Options.Date where a format needs a time.
var Epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Errors callers may need to tell apart.
var (
	// ErrUnknownFormat is returned for a format name Write does not know.
	ErrUnknownFormat = errors.New("unknown format")
	// ErrExists is returned by WriteFile when the file exists and force is false.
	ErrExists = errors.New("file exists")
	// ErrNotRegular is returned by WriteFile when the file exists and is
	// not a regular file, which even force does not replace: a device, a
	// named pipe, a symbolic link (the link itself would be replaced),
	// a directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrNineOnly is returned by Write when a format that holds only
	// 9x9 puzzles (sdm, sdk, opensudoku) is given a puzzle of another size.
	ErrNineOnly = errors.New("holds 9x9 puzzles only")
)

// NineOnly reports whether format f holds 9x9 puzzles only.
func NineOnly(f Format) bool { return f == SDM || f == SDK || f == OpenSudoku }

// ParseFormat returns the format named s ("sdm", "sdk", "opensudoku",
// "csv", "json" or "pdf"; case and a leading dot are ignored).
func ParseFormat(s string) (Format, error) {
	name := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "."))
	for _, f := range Formats {
		if string(f) == name {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w %q (want one of %s)", ErrUnknownFormat, s, formatList())
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// Options holds the settings of a pack.
type Options struct {
	// Title names the pack: the PDF's title page (none when empty) and
	// document title, the OpenSudoku folder name and the start of sdk's
	// description. In a PDF it may hold any character of the embedded Go
	// fonts (Latin, Greek and Cyrillic scripts among them);
	// Options.Validate refuses any other.
	Title string
	// Author, SourceName and URL credit the pack: the sdk headers #A, #S
	// and #U, and the CSVCredits columns of csv and json. sdm and
	// opensudoku have no room for them. Each is one line of text.
	Author, SourceName, URL string
	// Date is the pack's date: the sdk header #B, the OpenSudoku created
	// times and the times of a zip's files. Zero means none: no #B, and
	// the fixed Epoch for the times, so that a pack's bytes stay the same.
	Date time.Time
	// SDKZip makes sdk a zip archive even of one puzzle, for a file
	// whose name says zip.
	SDKZip bool
	// PDF holds the PDF's page settings; other formats ignore it.
	PDF PDFOptions
}

// Write writes items to w in format f. It checks every item before it
// writes anything, so a bad item leaves w untouched. It stops with the
// context's error when ctx is cancelled.
func Write(ctx context.Context, w io.Writer, f Format, items []Item, opt Options) error {
	var write func(context.Context, io.Writer, []parsed, Options) error
	switch f {
	case SDM:
		write = writeSDM
	case SDK:
		write = writeSDK
	case OpenSudoku:
		write = writeOpenSudoku
	case CSV:
		write = writeCSV
	case JSON:
		write = writeJSON
	case PDF:
		if err := opt.Validate(f); err != nil {
			return err
		}
		if len(items) == 0 {
			return errors.New("pdf: no puzzles to print")
		}
		write = writePDF
	default:
		return fmt.Errorf("%w %q (want one of %s)", ErrUnknownFormat, f, formatList())
	}
	if err := CheckDate(opt.Date); err != nil {
		return fmt.Errorf("date: %w", err)
	}
	ps, err := check(items, f == PDF)
	if err != nil {
		return err
	}
	if NineOnly(f) {
		if err := checkNine(ps, f); err != nil {
			return err
		}
	}
	return write(ctx, w, ps, opt)
}

// parsed is an item with its grids read and checked. It points at the
// caller's item rather than copying it, to keep a pack of millions small.
type parsed struct {
	*Item
	puzzle, solution grid.Grid
	hasSolution      bool
}

// check parses and checks every item; needSolution requires a solution.
func check(items []Item, needSolution bool) ([]parsed, error) {
	ps := make([]parsed, len(items))
	for i := range items {
		p, err := checkItem(&items[i], needSolution)
		if err != nil {
			return nil, fmt.Errorf("item %d (number %d, id %d): %w", i+1, items[i].Number, items[i].ID, err)
		}
		ps[i] = p
	}
	return ps, nil
}

// checkNine refuses, naming the first, a puzzle that is not 9x9 in a
// format that holds only 9x9 puzzles.
func checkNine(ps []parsed, f Format) error {
	for i, p := range ps {
		if s := p.puzzle.Shape; s != grid.Nine {
			return fmt.Errorf("item %d (number %d, id %d): a %s puzzle: %s %w; export %s puzzles as csv, json or pdf",
				i+1, p.Number, p.ID, s, f, ErrNineOnly, s)
		}
	}
	return nil
}

func checkItem(it *Item, needSolution bool) (parsed, error) {
	p := parsed{Item: it}
	if it.Number < 1 {
		return p, fmt.Errorf("number %d, want 1 or more", it.Number)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"rating", it.Rating}, {"pearl", it.Pearl}, {"diamond", it.Diamond}, {"score", it.Score}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return p, fmt.Errorf("%s is %v, want a number", f.name, f.v)
		}
	}
	shape, err := itemShape(it)
	if err != nil {
		return p, err
	}
	g, err := parseCells(shape, it.Puzzle, true)
	if err != nil {
		return p, fmt.Errorf("puzzle: %w", err)
	}
	p.puzzle = g
	if n := g.Givens(); n != it.Givens {
		return p, fmt.Errorf("givens is %d but the puzzle has %d", it.Givens, n)
	}
	if it.Solution == "" {
		if needSolution {
			return p, errors.New("no solution (the answer key needs one)")
		}
		return p, nil
	}
	s, err := parseCells(shape, it.Solution, false)
	if err != nil {
		return p, fmt.Errorf("solution: %w", err)
	}
	for c, v := range g.Cells {
		if v != 0 && s.Cells[c] != v {
			return p, fmt.Errorf("solution has %c at row %d, column %d, where the puzzle gives %c",
				grid.Symbol(s.Cells[c]), shape.Row(c)+1, shape.Col(c)+1, grid.Symbol(v))
		}
	}
	p.solution, p.hasSolution = s, true
	return p, nil
}

// itemShape returns the shape of an item's grids: that of Size, or,
// when Size is 0, the one whose cell count is the puzzle's length (81
// characters, or any other length that is no shape's, read as 9x9, so
// that the message says what a 9x9 puzzle wants).
func itemShape(it *Item) (grid.Shape, error) {
	if it.Size != 0 {
		s, err := grid.ShapeOf(it.Size)
		if err != nil {
			return s, fmt.Errorf("size: %w", err)
		}
		return s, nil
	}
	if s, ok := grid.ShapeOfCells(len(it.Puzzle)); ok {
		return s, nil
	}
	return grid.Nine, nil
}

// parseCells reads exactly s.Cells() cells; empty cells ('.', or '0' for
// N <= 9) are allowed only when allowEmpty. The grid must have no
// repeated value in a unit.
func parseCells(s grid.Shape, text string, allowEmpty bool) (grid.Grid, error) {
	if s == grid.Nine {
		g, err := parseNine(text, allowEmpty)
		if err != nil {
			return grid.Grid{}, err
		}
		return grid.Grid{Shape: s, Cells: g[:]}, nil
	}
	if len(text) != s.Cells() {
		return grid.Grid{}, fmt.Errorf("%d characters, want %d (a %s grid)", len(text), s.Cells(), s)
	}
	g := grid.New(s)
	for i := 0; i < len(text); i++ {
		v, ok := grid.Value(text[i], s.N)
		if !ok || (v == 0 && !allowEmpty) {
			want := "a value " + valueRange(s.N)
			if allowEmpty {
				want += " or '.'"
				if s.N <= 9 {
					want += " or '0'"
				}
			}
			return grid.Grid{}, fmt.Errorf("character %d: %q is not %s", i+1, text[i], want)
		}
		g.Cells[i] = v
	}
	if err := g.Check(); err != nil {
		return grid.Grid{}, err
	}
	return g, nil
}

// valueRange names the characters of the values 1..n: "1-6", "1-9 or A-G".
func valueRange(n int) string {
	if n <= 9 {
		return fmt.Sprintf("1-%d", n)
	}
	return fmt.Sprintf("1-9 or A-%c", grid.Symbol(uint8(n)))
}

// parseNine reads exactly 81 cells of a 9x9 grid, as parseCells does.
func parseNine(s string, allowEmpty bool) (*solve.Grid, error) {
	if len(s) != 81 {
		return nil, fmt.Errorf("%d characters, want 81", len(s))
	}
	// The cells are read here rather than through solve.Parse's general
	// layout reader, a third of an sdm export's formatting time.
	g := new(solve.Grid)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '1' && c <= '9':
			g[i] = c - '0'
		case allowEmpty && (c == '.' || c == '0'):
		default:
			want := "a digit 1-9"
			if allowEmpty {
				want = "a digit 1-9, '.' or '0'"
			}
			return nil, fmt.Errorf("character %d: %q is not %s", i+1, c, want)
		}
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	return g, nil
}
