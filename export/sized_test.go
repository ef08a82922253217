package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokubank/export"
	"sudokubank/export/exporttest"
	"sudokubank/grid"
	"sudokubank/importfmt"
)

// MustPattern returns the pattern solution of shape s, value
// (BoxCols*(r%BoxRows) + r/BoxRows + c) % N + 1, and a puzzle of it with
// about a third of the cells blank (not a unique puzzle: the exports do
// not care).
func MustPattern(tb testing.TB, s grid.Shape) (puzzle, solution grid.Grid) {
	tb.Helper()
	solution = grid.New(s)
	for r := range s.N {
		for c := range s.N {
			solution.Cells[s.Cell(r, c)] = uint8((s.BoxCols*(r%s.BoxRows)+r/s.BoxRows+c)%s.N + 1)
		}
	}
	if err := solution.Check(); err != nil {
		tb.Fatalf("pattern %s: %v", s, err)
	}
	puzzle = solution.Clone()
	for c := range puzzle.Cells {
		if (c*7+c/s.N)%3 == 0 {
			puzzle.Cells[c] = 0
		}
	}
	return puzzle, solution
}

// MustSizedItems returns n items of shape s, numbered from 1.
func MustSizedItems(tb testing.TB, s grid.Shape, n int) []export.Item {
	tb.Helper()
	p, sol := MustPattern(tb, s)
	items := make([]export.Item, n)
	for i := range items {
		items[i] = export.Item{Number: i + 1, ID: int64(500 + i), Family: int64(50 + i),
			Puzzle: p.String(), Solution: sol.String(), Givens: p.Givens(),
			Level: 1 + i%5, LevelName: "medium", Rating: 3.4, Pearl: 1.2, Diamond: 1.2, Score: 2.5,
			Hardest: "pointing", Symmetry: "none", Source: "gen"}
	}
	return items
}

// TestSizedRoundTrip writes puzzles of every size as CSV and JSON and
// reads them back as bankgen import does: the same grids come back, each
// of its size.
func TestSizedRoundTrip(t *testing.T) {
	for _, s := range grid.Shapes {
		for _, f := range []export.Format{export.CSV, export.JSON} {
			t.Run(fmt.Sprintf("%dx%d/%s", s.N, s.N, f), func(t *testing.T) {
				items := MustSizedItems(t, s, 3)
				var buf bytes.Buffer
				if err := export.Write(context.Background(), &buf, f, items, export.Options{}); err != nil {
					t.Fatal(err)
				}
				var got []importfmt.Record
				format, err := importfmt.Read(context.Background(), &buf, func(r importfmt.Record) bool {
					got = append(got, r)
					return true
				})
				if err != nil {
					t.Fatal(err)
				}
				if string(format) != string(f) {
					t.Errorf("read as %s, want %s", format, f)
				}
				if len(got) != len(items) {
					t.Fatalf("read %d records, want %d", len(got), len(items))
				}
				for i, r := range got {
					if r.Err != nil {
						t.Fatalf("record %d: %v", i, r.Err)
					}
					if r.Shape != s {
						t.Errorf("record %d: shape %v, want %v", i, r.Shape, s)
					}
					g, err := importfmt.ParseGrid(r.Text)
					if err != nil {
						t.Fatalf("record %d: %v", i, err)
					}
					if g.String() != items[i].Puzzle {
						t.Errorf("record %d: got %s, want %s", i, g, items[i].Puzzle)
					}
				}
			})
		}
	}
}

// TestSizedJSONFields checks the size and the arrays of JSON and the
// size column of CSV.
func TestSizedJSONFields(t *testing.T) {
	s, _ := grid.ShapeOf(16)
	items := MustSizedItems(t, s, 1)
	var buf bytes.Buffer
	if err := export.Write(context.Background(), &buf, export.JSON, items, export.Options{}); err != nil {
		t.Fatal(err)
	}
	var obj struct {
		Puzzle        string `json:"puzzle"`
		Size          int    `json:"size"`
		Cells         []int  `json:"cells"`
		SolutionCells []int  `json:"solution_cells"`
	}
	if err := json.Unmarshal(buf.Bytes(), &obj); err != nil {
		t.Fatal(err)
	}
	p, sol := MustPattern(t, s)
	if obj.Size != 16 || obj.Puzzle != p.String() || !slices.Equal(obj.Cells, p.Values()) || !slices.Equal(obj.SolutionCells, sol.Values()) {
		t.Errorf("got %+v, want size 16, puzzle %s and its cells and solution's", obj, p)
	}
	if !strings.ContainsAny(obj.Puzzle, "ABCDEFG") {
		t.Errorf("puzzle %s has no value above 9 written as a letter", obj.Puzzle)
	}

	// Without a solution the solution's array is left out.
	items[0].Solution = ""
	buf.Reset()
	if err := export.Write(context.Background(), &buf, export.JSON, items, export.Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "solution_cells") {
		t.Errorf("got %s, want no solution_cells without a solution", buf.String())
	}

	buf.Reset()
	if err := export.Write(context.Background(), &buf, export.CSV, items, export.Options{}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "size")
	if col < 0 || rows[1][col] != "16" {
		t.Errorf("got header %q and row %q, want size 16", rows[0], rows[1])
	}
}

// TestNineOnlyFormats checks that sdm, sdk and opensudoku refuse a
// puzzle of another size, naming it and the format, and write nothing.
func TestNineOnlyFormats(t *testing.T) {
	s16, _ := grid.ShapeOf(16)
	items := append(MustItems(t)[:1], MustSizedItems(t, s16, 2)[1])
	for _, f := range []export.Format{export.SDM, export.SDK, export.OpenSudoku} {
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			err := export.Write(context.Background(), &buf, f, items, export.Options{})
			if !errors.Is(err, export.ErrNineOnly) {
				t.Fatalf("got %v, want ErrNineOnly", err)
			}
			for _, want := range []string{"item 2 (number 2, id 501)", "16x16", string(f) + " holds 9x9 puzzles only", "csv, json or pdf"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got %q, want it to say %q", err, want)
				}
			}
			if buf.Len() > 0 {
				t.Errorf("wrote %d bytes", buf.Len())
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "pack."+string(f))
			if err := export.WriteFile(context.Background(), path, f, items, export.Options{}, false); !errors.Is(err, export.ErrNineOnly) {
				t.Fatalf("WriteFile: got %v, want ErrNineOnly", err)
			}
			if names := dirNames(t, dir); len(names) > 0 {
				t.Errorf("WriteFile left %q", names)
			}
			if f != export.SDK {
				return
			}
			// A directory of sdk files refuses before it makes anything.
			d := export.NewPendingDir(filepath.Join(dir, "pack"), false)
			if err := d.Write(context.Background(), f, items, export.Options{}); !errors.Is(err, export.ErrNineOnly) {
				t.Fatalf("PendingDir: got %v, want ErrNineOnly", err)
			}
			d.Discard()
			if names := dirNames(t, dir); len(names) > 0 {
				t.Errorf("PendingDir left %q", names)
			}
		})
	}
}

// TestSizedBadInput checks the messages for grids that do not fit.
func TestSizedBadInput(t *testing.T) {
	s6, _ := grid.ShapeOf(6)
	tests := []struct {
		name string
		edit func(*export.Item)
		want string
	}{
		{"WrongSize", func(it *export.Item) { it.Size = 9 }, "36 characters, want 81"},
		{"NoSuchSize", func(it *export.Item) { it.Size = 7 }, "size: no such grid size: 7"},
		{"ValueTooLarge", func(it *export.Item) { it.Puzzle = "7" + it.Puzzle[1:] }, `character 1: '7' is not a value 1-6 or '.' or '0'`},
		{"Repeated", func(it *export.Item) { it.Puzzle = it.Puzzle[1:2] + it.Puzzle[1:] }, "value repeated"},
		{"SolutionDiffers", func(it *export.Item) {
			it.Solution = it.Solution[1:2] + it.Solution[0:1] + it.Solution[2:]
		}, "value repeated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := MustSizedItems(t, s6, 1)
			tt.edit(&items[0])
			err := export.Write(context.Background(), &bytes.Buffer{}, export.CSV, items, export.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want it to say %q", err, tt.want)
			}
		})
	}
}

// pageValues returns the values a page of a PDF sets in grid cells:
// every text of one or two characters that are digits or letters, but
// the page number in the foot margin.
func pageValues(p exporttest.Page) []exporttest.Text {
	var out []exporttest.Text
	for _, tx := range p.Texts {
		if len(tx.S) <= 2 && tx.Y > 40 && strings.Trim(tx.S, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXY") == "" {
			out = append(out, tx)
		}
	}
	return out
}

// TestPDFSized checks the layout of the larger and smaller grids: the
// puzzles a page for each trim, values never below 7 pt, and the
// symbols.
func TestPDFSized(t *testing.T) {
	tests := []struct {
		n       int
		page    string
		symbols string
		per     int    // puzzles on the first page
		values  string // the symbols of values 10 up that must appear, in a puzzle or its answer
	}{
		{n: 4, page: "letter", per: 4},
		{n: 4, page: "6x9", per: 4},
		{n: 6, page: "letter", per: 4},
		{n: 6, page: "6x9", per: 2},
		{n: 8, page: "letter", per: 4},
		{n: 12, page: "letter", per: 4, values: "ABC"},
		{n: 12, page: "6x9", per: 2, values: "ABC"},
		{n: 16, page: "letter", per: 2, values: "ABCDEFG"},
		{n: 16, page: "6x9", per: 1, values: "ABCDEFG"},
		{n: 16, page: "a5", per: 1, symbols: "numbers", values: "10 11 12 13 14 15 16"},
		{n: 16, page: "letter", per: 2, symbols: "a-p", values: "ABCDEFGHIJKLMNOP"},
		{n: 25, page: "letter", per: 1, values: "ABCDEFGHIJKLMNOP"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d/%s/%s", tt.n, tt.n, tt.page, tt.symbols), func(t *testing.T) {
			s, _ := grid.ShapeOf(tt.n)
			items := MustSizedItems(t, s, 8)
			opt := export.Options{PDF: export.PDFOptions{Page: tt.page, Symbols: tt.symbols}}
			doc := exporttest.ReadPDF(t, MustPDF(t, items, opt))
			want, err := export.PDFPagesSized(len(items), tt.n, opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Pages) != want {
				t.Errorf("%d pages, PDFPagesSized says %d", len(doc.Pages), want)
			}
			givens := items[0].Givens
			first := pageValues(doc.Pages[0])
			if got := len(first); got != tt.per*givens {
				t.Errorf("first page sets %d values, want %d puzzles of %d givens", got, tt.per, givens)
			}
			// seen holds the values set, inPuzzles those of the puzzle
			// pages (the answer pages label their grids with numbers).
			seen, inPuzzles := map[string]bool{}, map[string]bool{}
			answers := false
			for _, p := range doc.Pages {
				for _, tx := range p.Texts {
					answers = answers || tx.S == "Answers"
				}
				for _, v := range pageValues(p) {
					seen[v.S] = true
					inPuzzles[v.S] = inPuzzles[v.S] || !answers
					if v.Size < 6.5 {
						t.Fatalf("value %q at %.1f pt", v.S, v.Size)
					}
				}
			}
			for _, v := range first {
				if v.Size < 7 {
					t.Fatalf("puzzle value %q at %.1f pt, want 7 pt or more", v.S, v.Size)
				}
			}
			wantValues := strings.Fields(tt.values)
			if len(wantValues) == 1 {
				wantValues = strings.Split(tt.values, "")
			}
			for _, v := range wantValues {
				if !seen[v] {
					t.Errorf("no value %q in the book", v)
				}
			}
			switch tt.symbols {
			case "a-p":
				for v, in := range inPuzzles {
					if in && strings.ContainsAny(v, "0123456789") {
						t.Errorf("a-p sets the digit %q in a puzzle", v)
						break
					}
				}
			case "numbers":
				if seen["A"] || seen["G"] {
					t.Error("numbers sets letters")
				}
			}
		})
	}
}

// TestPDFSizedGridLines checks that a 6x6 grid rules its 2x3 boxes: two
// thick horizontal lines' worth of bands and one thick vertical line.
func TestPDFSizedGridLines(t *testing.T) {
	s6, _ := grid.ShapeOf(6)
	pdf := MustPDF(t, MustSizedItems(t, s6, 1), export.Options{PDF: export.PDFOptions{NoAnswers: true}})
	doc := exporttest.ReadPDF(t, pdf)
	if len(doc.Pages) != 1 || len(doc.Pages[0].Rects) != 1 {
		t.Fatalf("got %d pages, want one page with one grid", len(doc.Pages))
	}
	g := doc.Pages[0].Rects[0]
	if g.W != g.H {
		t.Errorf("grid %v is not square", g)
	}
	// The thick lines are the second stroked path of the page: a
	// vertical one at half the width and horizontal ones at a third and
	// two thirds of the height.
	content := string(doc.Pages[0].Content)
	paths := strings.Split(content, "\nS\n")
	if len(paths) < 3 {
		t.Fatalf("page strokes %d paths, want the thin and thick lines", len(paths)-1)
	}
	thick := paths[1]
	x, y := g.X, g.Y
	for _, seg := range []string{
		fmt.Sprintf("%s %s m %s %s l", pt(x+g.W/2), pt(y), pt(x+g.W/2), pt(y+g.H)),
		fmt.Sprintf("%s %s m %s %s l", pt(x), pt(y+g.H/3), pt(x+g.W), pt(y+g.H/3)),
		fmt.Sprintf("%s %s m %s %s l", pt(x), pt(y+2*g.H/3), pt(x+g.W), pt(y+2*g.H/3)),
	} {
		if !strings.Contains(thick, seg) {
			t.Errorf("thick lines %q lack %q", thick, seg)
		}
	}
	if n := strings.Count(thick, " m "); n != 3 {
		t.Errorf("%d thick lines, want 3", n)
	}
}

// pt formats x as the PDF writer does, to 1/100 pt without trailing zeros.
func pt(x float64) string {
	s := strconv.FormatFloat(float64(int64(x*100+0.5))/100, 'f', -1, 64)
	return s
}

// TestPDFSizedRefused checks the options a large grid cannot take.
func TestPDFSizedRefused(t *testing.T) {
	s16, _ := grid.ShapeOf(16)
	items := MustSizedItems(t, s16, 2)
	tests := []struct {
		name string
		opt  export.PDFOptions
		flag string
		want string
	}{
		{"TooManyAPage", export.PDFOptions{Page: "a5", PerPage: 6}, "per-page", "6 a page of 16x16 grids on a5 set the values at"},
		// The refusal names what was asked (-large-print, not the -per-page
		// it chose) and what would do: a larger page or no large print.
		{"LargePrintSmallPage", export.PDFOptions{Page: "6x9", LargePrint: true}, "large-print",
			"16x16 grids on 6x9 in large print set the digits at 13.5 pt even 1 a page, want 16 pt or more: take -page letter, a4, 8x10 or 7x10, or leave out -large-print"},
		{"TooManyAPageAdvice", export.PDFOptions{Page: "a5", PerPage: 6}, "per-page", "take -per-page 1 or 2, or -page letter or a4"},
		{"Symbols", export.PDFOptions{Symbols: "roman"}, "symbols", "want letters, numbers or a-p"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := export.Write(context.Background(), &bytes.Buffer{}, export.PDF, items, export.Options{PDF: tt.opt})
			var oe *export.OptionError
			if !errors.As(err, &oe) || oe.Name != tt.flag || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a %s option error saying %q", err, tt.flag, tt.want)
			}
			if err := tt.opt.ValidateSize(16); err == nil {
				t.Error("ValidateSize(16) accepts it")
			}
		})
	}
	// A 25x25 grid is too large for 5.5x8.5 even 1 a page: the page is
	// what the user asked, not the -per-page the book chose.
	err := export.PDFOptions{Page: "5.5x8.5"}.ValidateSize(25)
	var oe *export.OptionError
	want := "25x25 grids on 5.5x8.5 set the values at 6.8 pt even 1 a page, want 7 pt or more: take -page letter, a4, 8x10, 7x10, 6x9 or a5"
	if !errors.As(err, &oe) || oe.Name != "page" || oe.Value != "5.5x8.5" || oe.Err.Error() != want {
		t.Errorf("25x25 on 5.5x8.5: %v, want a page option error saying %q", err, want)
	}
	// The same options suit 9x9 puzzles, but the symbols.
	if err := (export.PDFOptions{Page: "a5", PerPage: 6}).Validate(); err != nil {
		t.Errorf("9x9, 6 a page on a5: %v", err)
	}
}

// TestPDFSizedSamples writes 16x16, 12x12, 6x6 and 4x4 books for a
// person to look at when EXPORT_PDF_DIR names a directory.
func TestPDFSizedSamples(t *testing.T) {
	dir := os.Getenv("EXPORT_PDF_DIR")
	if dir == "" {
		t.Skip("EXPORT_PDF_DIR not set")
	}
	for _, n := range []int{4, 6, 12, 16, 25} {
		s, _ := grid.ShapeOf(n)
		for _, page := range []string{"letter", "6x9"} {
			for _, sym := range []string{"", "numbers", "a-p"} {
				if sym != "" && n < 12 {
					continue
				}
				opt := export.Options{Title: fmt.Sprintf("Giant %dx%d Sudoku", n, n), PDF: export.PDFOptions{Page: page, Symbols: sym}}
				name := fmt.Sprintf("sized-%d-%s.pdf", n, page)
				if sym != "" {
					name = fmt.Sprintf("sized-%d-%s-%s.pdf", n, page, sym)
				}
				if err := os.WriteFile(filepath.Join(dir, name), MustPDF(t, MustSizedItems(t, s, 6), opt), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// FuzzSizedPuzzle writes an item of any puzzle text as CSV: Write never
// panics, and a puzzle it takes comes back from the CSV as the same grid
// of the size the size column gives.
func FuzzSizedPuzzle(f *testing.F) {
	for _, s := range grid.Shapes {
		p, _ := MustPattern(f, s)
		f.Add(p.String(), 0)
		f.Add(strings.ToLower(p.String()), s.N)
	}
	f.Add(strings.Repeat("0", 81), 9)
	f.Add(strings.Repeat("0", 16), 16)
	f.Add("", 0)
	f.Fuzz(func(t *testing.T, puzzle string, size int) {
		givens := 0
		for i := 0; i < len(puzzle); i++ {
			if c := puzzle[i]; c != '.' && c != '0' {
				givens++
			}
		}
		items := []export.Item{{Number: 1, Size: size, Puzzle: puzzle, Givens: givens}}
		var buf bytes.Buffer
		if err := export.Write(context.Background(), &buf, export.CSV, items, export.Options{}); err != nil {
			return
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("csv %q: %v", buf.String(), err)
		}
		g, err := grid.Parse(rows[1][3])
		if err != nil {
			t.Fatalf("puzzle %q written as %q: %v", puzzle, rows[1][3], err)
		}
		if got := rows[1][len(rows[1])-1]; got != strconv.Itoa(g.Shape.N) {
			t.Errorf("size column %s for a %s grid", got, g.Shape)
		}
		if in, err := grid.Parse(strings.ReplaceAll(puzzle, "0", ".")); err == nil && !in.Equal(g) {
			t.Errorf("puzzle %q written as %s", puzzle, g)
		}
	})
}

// TestPDFMixedSizes prints a 6x6, a 9x9 and a 16x16 in one book: the
// largest grid sets the page's layout, and each grid keeps its own size.
func TestPDFMixedSizes(t *testing.T) {
	s6, _ := grid.ShapeOf(6)
	s16, _ := grid.ShapeOf(16)
	items := []export.Item{MustSizedItems(t, s6, 1)[0], MustItems(t)[0], MustSizedItems(t, s16, 1)[0]}
	for i := range items {
		items[i].Number = i + 1
	}
	opt := export.Options{PDF: export.PDFOptions{Page: "6x9", NoAnswers: true}}
	doc := exporttest.ReadPDF(t, MustPDF(t, items, opt))
	if len(doc.Pages) != 3 {
		t.Fatalf("%d pages, want 3: one grid a page, as 16x16 takes on 6x9", len(doc.Pages))
	}
	for i, p := range doc.Pages {
		want := []int{items[0].Givens, items[1].Givens, items[2].Givens}[i]
		if got := len(pageValues(p)); got != want {
			t.Errorf("page %d sets %d values, want %d", i+1, got, want)
		}
	}
}

// TestPDFPagesOf checks that the pages of a book of items are counted
// for its largest grid, as the book is laid out.
func TestPDFPagesOf(t *testing.T) {
	s6, _ := grid.ShapeOf(6)
	s16, _ := grid.ShapeOf(16)
	opt := export.Options{PDF: export.PDFOptions{Page: "6x9", NoAnswers: true}}
	for _, tc := range []struct {
		name  string
		items []export.Item
		size  int
	}{
		{"Nine", MustManyItems(t, 5), 9},
		{"Six", MustSizedItems(t, s6, 5), 6},
		{"Mixed", []export.Item{MustSizedItems(t, s6, 1)[0], MustItems(t)[0], MustSizedItems(t, s16, 1)[0]}, 16},
		{"None", nil, 9},
	} {
		want, err := export.PDFPagesSized(len(tc.items), tc.size, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := export.PDFPagesOf(tc.items, opt); err != nil || got != want {
			t.Errorf("%s: PDFPagesOf = %d, %v; want %d", tc.name, got, err, want)
		}
	}
	// The count is the book's: 16x16 takes a page a grid on 6x9.
	if got, _ := export.PDFPagesOf([]export.Item{MustSizedItems(t, s6, 1)[0], MustItems(t)[0], MustSizedItems(t, s16, 1)[0]}, opt); got != 3 {
		t.Errorf("mixed book: %d pages, want 3", got)
	}
}
