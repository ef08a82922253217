package export_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubank/export"
	"sudokubank/solve"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixture holds puzzles of several levels (from the SE-rated development
// set in shared/data) with their ratings.
var fixture = []struct {
	puzzle       string
	er, ep, ed   float64
	level        int
	levelName    string
	hardest, sym string
	minimal      bool
	source       string
	score        float64
	id, family   int64
}{
	{puzzle: "..4...2.7.85.24...2.6..3..851.........8.7.........14.6.7..........65......1.4.6.3", er: 1.5, ep: 1.2, ed: 1.2, level: 1, levelName: "extremely-easy", hardest: "hidden-single", sym: "none", minimal: true, source: "gen", score: 1.4, id: 101, family: 11},
	{puzzle: "......85.7981...............6.9............241.4.3...63....6.72.8...79.1....2....", er: 2.3, ep: 1.2, ed: 1.2, level: 2, levelName: "easy", hardest: "naked-single", sym: "none", minimal: true, source: "gen", score: 2.2, id: 102, family: 12},
	{puzzle: ".5.2....3..18............5.......5....74......3..128........9.8..834..6..69.5.24.", er: 3.4, ep: 1.2, ed: 1.2, level: 3, levelName: "medium", hardest: "pointing", sym: "none", minimal: true, source: "gen", score: 2.83, id: 103, family: 13},
	{puzzle: "..1......8..3.5..4...69.3...1..3.6..3.68.7.5.4.7.....8.8.....4...51....2......1..", er: 4.2, ep: 1.2, ed: 1.2, level: 4, levelName: "difficult", hardest: "x-wing", sym: "none", minimal: false, source: "gen", score: 3.6, id: 104, family: 14},
	{puzzle: "34..8...28..7.......2..5......3.26...9.8.......5.9..7.....31..........4576....3..", er: 7.3, ep: 1.2, ed: 1.2, level: 5, levelName: "evil", hardest: "forcing-chain", sym: "none", minimal: true, source: `forum "top", 2026`, score: 4.6, id: 105, family: 15},
	{puzzle: ".8.2....73....6...4...5.8.........2.....6.1...5...9.73....4......6.95..214...89..", er: 9.0, ep: 1.2, ed: 1.2, level: 5, levelName: "evil", hardest: "dynamic-forcing-chain", sym: "none", minimal: true, source: "", score: 5, id: 106, family: 16},
}

// solutions holds the fixture's solutions, solved once per test binary.
var solutions = sync.OnceValues(func() ([]string, error) {
	sols := make([]string, len(fixture))
	for i, f := range fixture {
		g, err := solve.Parse(f.puzzle)
		if err != nil {
			return nil, fmt.Errorf("fixture %d: %w", i, err)
		}
		sol, ok := solve.Solve(g)
		if !ok {
			return nil, fmt.Errorf("fixture %d has no solution", i)
		}
		sols[i] = sol.String()
	}
	return sols, nil
})

// MustItems returns the fixture as items numbered from 1, with solutions
// from the solver.
func MustItems(tb testing.TB) []export.Item {
	tb.Helper()
	sols, err := solutions()
	if err != nil {
		tb.Fatal(err)
	}
	items := make([]export.Item, len(fixture))
	for i, f := range fixture {
		items[i] = export.Item{
			Number: i + 1, ID: f.id, Family: f.family,
			Puzzle: f.puzzle, Solution: sols[i], Givens: 81 - strings.Count(f.puzzle, "."),
			Level: f.level, LevelName: f.levelName,
			Rating: f.er, Pearl: f.ep, Diamond: f.ed, Score: f.score,
			Hardest: f.hardest, Symmetry: f.sym, Minimal: f.minimal, Source: f.source,
		}
	}
	return items
}

// MustManyItems returns n items that cycle through the fixture, numbered
// 1..n, for benchmarks and page counts.
func MustManyItems(tb testing.TB, n int) []export.Item {
	tb.Helper()
	base := MustItems(tb)
	items := make([]export.Item, n)
	for i := range items {
		items[i] = base[i%len(base)]
		items[i].Number = i + 1
		items[i].ID = int64(1000 + i)
	}
	return items
}

func TestGolden(t *testing.T) {
	items := MustItems(t)
	// The third puzzle written with '0' for empty cells must come out
	// the same as with '.'.
	items[2].Puzzle = strings.ReplaceAll(items[2].Puzzle, ".", "0")
	opt := export.Options{Title: "Fixture <pack> & more"}
	// The credits and the date, on the formats that have room for them.
	credited := opt
	credited.Author, credited.SourceName, credited.URL = "Ann Author", "Puzzles & Co", "https://example.com/p?a=1&b=2"
	credited.Date = time.Date(2026, 11, 27, 8, 30, 0, 0, time.UTC)
	tests := []struct {
		name   string
		format export.Format
		items  []export.Item
		opt    export.Options
		file   string
	}{
		{"SDM", export.SDM, items, opt, "pack.sdm"},
		{"SDKZip", export.SDK, items, opt, "pack.sdk.zip"},
		{"SDKOne", export.SDK, items[4:5], opt, "one.sdk"},
		{"OpenSudoku", export.OpenSudoku, items, opt, "pack.opensudoku"},
		{"CSV", export.CSV, items, opt, "pack.csv"},
		{"JSON", export.JSON, items, opt, "pack.jsonl"},
		{"SDKZipCredited", export.SDK, items[:3], credited, "credited.sdk.zip"},
		{"SDKOneCredited", export.SDK, items[4:5], credited, "credited.sdk"},
		{"OpenSudokuDated", export.OpenSudoku, items[:3], credited, "credited.opensudoku"},
		{"CSVCredited", export.CSV, items[:3], credited, "credited.csv"},
		{"JSONCredited", export.JSON, items[:3], credited, "credited.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := export.Write(context.Background(), &buf, tt.format, tt.items, tt.opt); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.file+".golden")
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got := buf.String(); got != string(want) {
				t.Errorf("%s output differs from %s (go test -update rewrites it):\ngot:\n%s\nwant:\n%s", tt.format, path, got, want)
			}
		})
	}
}

func TestEmptyPack(t *testing.T) {
	tests := []struct {
		format export.Format
		want   string
	}{
		{export.SDM, ""},
		{export.SDK, ""},
		{export.CSV, strings.Join(export.CSVHeader, ",") + "\r\n"},
		{export.JSON, ""},
	}
	for _, tt := range tests {
		t.Run(strings.ToUpper(string(tt.format)), func(t *testing.T) {
			var buf bytes.Buffer
			if err := export.Write(context.Background(), &buf, tt.format, nil, export.Options{}); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in   string
		want export.Format
		ok   bool
	}{
		{"sdm", export.SDM, true},
		{"SDK", export.SDK, true},
		{".opensudoku", export.OpenSudoku, true},
		{"csv", export.CSV, true},
		{"json", export.JSON, true},
		{"pdf", export.PDF, true},
		{"xlsx", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := export.ParseFormat(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if !tt.ok && !errors.Is(err, export.ErrUnknownFormat) {
			t.Errorf("ParseFormat(%q) error %v is not ErrUnknownFormat", tt.in, err)
		}
	}
}

func TestBadInput(t *testing.T) {
	good := MustItems(t)
	with := func(f func(*export.Item)) []export.Item {
		items := append([]export.Item(nil), good...)
		f(&items[1])
		return items
	}
	tests := []struct {
		name   string
		format export.Format
		items  []export.Item
		opt    export.Options
		want   string // a part of the error message
	}{
		{"UnknownFormat", "xlsx", good, export.Options{}, `unknown format "xlsx"`},
		{"BadPageSize", export.PDF, good, export.Options{PDF: export.PDFOptions{Page: "legal"}}, `page "legal": want one of letter,`},
		{"BadPerPage", export.PDF, good, export.Options{PDF: export.PDFOptions{PerPage: 3}}, `per-page "3": want 1, 2, 4 or 6`},
		{"ShortPuzzle", export.SDM, with(func(it *export.Item) { it.Puzzle = it.Puzzle[:80] }), export.Options{}, "item 2 (number 2, id 102): puzzle: 80 characters, want 81"},
		{"BadCharacter", export.CSV, with(func(it *export.Item) { it.Puzzle = "x" + it.Puzzle[1:] }), export.Options{}, `item 2 (number 2, id 102): puzzle: character 1: 'x' is not a digit 1-9, '.' or '0'`},
		{"RepeatedDigit", export.JSON, with(func(it *export.Item) { it.Puzzle = "77" + it.Puzzle[2:]; it.Givens += 2 }), export.Options{}, "puzzle: digit repeated: 7 twice in row 1"},
		{"WrongGivens", export.SDK, with(func(it *export.Item) { it.Givens++ }), export.Options{}, "givens is 24 but the puzzle has 23"},
		{"ZeroNumber", export.SDM, with(func(it *export.Item) { it.Number = 0 }), export.Options{}, "number 0, want 1 or more"},
		{"SolutionDisagrees", export.CSV, with(func(it *export.Item) {
			it.Solution = strings.NewReplacer("1", "2", "2", "1").Replace(it.Solution)
		}), export.Options{}, "solution has"},
		{"EmptyPDF", export.PDF, nil, export.Options{Title: "Nothing"}, "pdf: no puzzles to print"},
		{"NoSolutionForPDF", export.PDF, with(func(it *export.Item) { it.Solution = "" }), export.Options{}, "no solution"},
		{"SolutionWithHole", export.JSON, with(func(it *export.Item) { it.Solution = "." + it.Solution[1:] }), export.Options{}, "solution: character 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := export.Write(context.Background(), &buf, tt.format, tt.items, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want one containing %q", err, tt.want)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes before failing, want none", buf.Len())
			}
		})
	}
}

func TestSolutionOptionalForText(t *testing.T) {
	items := MustItems(t)
	for i := range items {
		items[i].Solution = ""
	}
	var buf bytes.Buffer
	if err := export.Write(context.Background(), &buf, export.JSON, items, export.Options{}); err != nil {
		t.Fatal(err)
	}
	// Without a solution the key is left out, as solution_cells is: ""
	// would read as a grid with no cells.
	if got := strings.Count(buf.String(), `"solution"`); got != 0 {
		t.Errorf("got %d solution keys without solutions, want none:\n%s", got, buf.String())
	}
	if got, want := strings.Count(buf.String(), `"puzzle":`), len(items); got != want {
		t.Errorf("got %d puzzles, want %d", got, want)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range export.Formats {
		t.Run(strings.ToUpper(string(f)), func(t *testing.T) {
			err := export.Write(ctx, &bytes.Buffer{}, f, MustItems(t), export.Options{})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("got %v, want context.Canceled", err)
			}
		})
	}
}

// TestReadBack parses each text format with a plain reader of that
// format and checks it gives back the items, so the files stay usable by
// the apps and scripts that read them, not just equal to a golden file.
func TestReadBack(t *testing.T) {
	items := MustItems(t)
	write := func(f export.Format) []byte {
		var buf bytes.Buffer
		if err := export.Write(context.Background(), &buf, f, items, export.Options{Title: "A & B"}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	dotted := func(s string) string { return strings.ReplaceAll(s, "0", ".") }

	t.Run("SDM", func(t *testing.T) {
		lines := strings.Split(strings.TrimSuffix(string(write(export.SDM)), "\n"), "\n")
		if len(lines) != len(items) {
			t.Fatalf("got %d lines, want %d", len(lines), len(items))
		}
		for i, line := range lines {
			if got, want := dotted(line), items[i].Puzzle; got != want {
				t.Errorf("line %d: got %s, want %s", i+1, got, want)
			}
		}
	})
	t.Run("SDK", func(t *testing.T) {
		data := write(export.SDK)
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if len(zr.File) != len(items) {
			t.Fatalf("got %d files, want %d", len(zr.File), len(items))
		}
		for i, f := range zr.File {
			if want := fmt.Sprintf("%04d.sdk", i+1); f.Name != want {
				t.Errorf("file %d is named %s, want %s", i+1, f.Name, want)
			}
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			var grid, level string
			for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				switch {
				case strings.HasPrefix(line, "#L"):
					level = line[2:]
				case strings.HasPrefix(line, "#"):
				default:
					grid += line
				}
			}
			if grid != items[i].Puzzle || level != items[i].LevelName {
				t.Errorf("puzzle %d: got %s %s, want %s %s", i+1, grid, level, items[i].Puzzle, items[i].LevelName)
			}
		}
	})
	t.Run("OpenSudoku", func(t *testing.T) {
		var doc struct {
			XMLName xml.Name `xml:"opensudoku"`
			Version string   `xml:"version,attr"`
			Folder  struct {
				Name  string `xml:"name,attr"`
				Games []struct {
					Data    string `xml:"data,attr"`
					Created int64  `xml:"created,attr"`
					Note    string `xml:"note,attr"`
				} `xml:"game"`
			} `xml:"folder"`
		}
		if err := xml.Unmarshal(write(export.OpenSudoku), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Version != "2" || doc.Folder.Name != "A & B" || len(doc.Folder.Games) != len(items) {
			t.Fatalf("got version %q, folder %q, %d games", doc.Version, doc.Folder.Name, len(doc.Folder.Games))
		}
		for i, g := range doc.Folder.Games {
			if got, want := dotted(g.Data), items[i].Puzzle; got != want {
				t.Errorf("game %d: got %s, want %s", i+1, got, want)
			}
			// The app lists a folder by created, newest first.
			if i > 0 && g.Created >= doc.Folder.Games[i-1].Created {
				t.Errorf("game %d created at %d, not before game %d (%d)", i+1, g.Created, i, doc.Folder.Games[i-1].Created)
			}
		}
	})
	t.Run("CSV", func(t *testing.T) {
		rows, err := csv.NewReader(bytes.NewReader(write(export.CSV))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(items)+1 || !slices.Equal(rows[0], export.CSVHeader) {
			t.Fatalf("got %d rows, header %q", len(rows), rows[0])
		}
		for i, row := range rows[1:] {
			it := items[i]
			want := []string{strconv.Itoa(it.Number), strconv.FormatInt(it.ID, 10), it.Puzzle, it.Solution, it.Source}
			got := []string{row[0], row[1], row[3], row[4], row[15]}
			if !slices.Equal(got, want) {
				t.Errorf("row %d: got %q, want %q", i+1, got, want)
			}
		}
	})
	t.Run("JSON", func(t *testing.T) {
		dec := json.NewDecoder(bytes.NewReader(write(export.JSON)))
		for i := 0; dec.More(); i++ {
			var got struct {
				Number    int     `json:"number"`
				ID        int64   `json:"id"`
				Puzzle    string  `json:"puzzle"`
				Level     int     `json:"level"`
				LevelName string  `json:"level_name"`
				Rating    float64 `json:"rating"`
				Minimal   bool    `json:"minimal"`
			}
			if err := dec.Decode(&got); err != nil {
				t.Fatal(err)
			}
			it := items[i]
			if got.Number != it.Number || got.ID != it.ID || got.Puzzle != it.Puzzle || got.Level != it.Level ||
				got.LevelName != it.LevelName || got.Rating != it.Rating || got.Minimal != it.Minimal {
				t.Errorf("object %d: got %+v, want %+v", i+1, got, it)
			}
		}
	})
}

func ExampleWrite() {
	item := export.Item{
		Number: 1, ID: 42, Family: 7,
		Puzzle:    "..4...2.7.85.24...2.6..3..851.........8.7.........14.6.7..........65......1.4.6.3",
		Givens:    25,
		Level:     1,
		LevelName: "extremely-easy",
		Rating:    1.5, Pearl: 1.2, Diamond: 1.2, Score: 1.4,
		Hardest: "hidden-single", Symmetry: "none", Minimal: true, Source: "gen",
	}
	err := export.Write(context.Background(), os.Stdout, export.SDK, []export.Item{item}, export.Options{})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// #DPuzzle 1 (id 42, family 7)
	// #CER 1.5; EP 1.2; ED 1.2; score 1.40; givens 25; hardest hidden-single; symmetry none; minimal yes
	// #Lextremely-easy
	// #Sgen
	// ..4...2.7
	// .85.24...
	// 2.6..3..8
	// 51.......
	// ..8.7....
	// .....14.6
	// .7.......
	// ...65....
	// ..1.4.6.3
}

// failingWriter accepts limit bytes, then fails every write.
type failingWriter struct{ limit int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		n := w.limit
		w.limit = 0
		return n, errDiskFull
	}
	w.limit -= len(p)
	return len(p), nil
}

func TestWriterError(t *testing.T) {
	items := MustManyItems(t, 2000)
	for _, f := range export.Formats {
		t.Run(strings.ToUpper(string(f)), func(t *testing.T) {
			err := export.Write(context.Background(), &failingWriter{limit: 1000}, f, items, export.Options{})
			if !errors.Is(err, errDiskFull) {
				t.Errorf("got %v, want the writer's error", err)
			}
		})
	}
}

// FuzzWrite feeds arbitrary puzzle and solution strings through every
// format: Write must never panic, and whatever it accepts must read back.
func FuzzWrite(f *testing.F) {
	for _, it := range MustItems(f) {
		f.Add(it.Puzzle, it.Solution)
	}
	f.Add("", "")
	f.Add(strings.Repeat("0", 81), strings.Repeat("1", 81))
	f.Fuzz(func(t *testing.T, puzzle, solution string) {
		givens := 0
		for i := 0; i < len(puzzle); i++ {
			if puzzle[i] >= '1' && puzzle[i] <= '9' {
				givens++
			}
		}
		items := []export.Item{{Number: 1, Puzzle: puzzle, Solution: solution, Givens: givens}}
		for _, format := range []export.Format{export.SDM, export.SDK, export.OpenSudoku, export.CSV, export.JSON} {
			var buf bytes.Buffer
			if err := export.Write(context.Background(), &buf, format, items, export.Options{}); err != nil {
				if buf.Len() != 0 {
					t.Fatalf("%s: wrote %d bytes before the error %v", format, buf.Len(), err)
				}
				continue
			}
			if format == export.SDM {
				want := strings.ReplaceAll(puzzle, ".", "0") + "\n"
				if got := buf.String(); got != want {
					t.Fatalf("sdm: got %q, want %q", got, want)
				}
			}
		}
	})
}

// TestCSVInjection checks that text cells a spreadsheet would run as a
// formula are written with a leading single quote, in every text column,
// and that other cells and the JSON format keep their values as they are.
func TestCSVInjection(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"Equals", "=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"},
		{"Plus", "+1+2", "'+1+2"},
		{"Minus", "-2+3", "'-2+3"},
		{"At", "@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"Tab", "\t=1", "'\t=1"},
		{"CarriageReturn", "\r=1", "'\r=1"},
		{"Plain", "forum", "forum"},
		{"InsideOnly", "a=b-c", "a=b-c"},
		{"QuoteAlready", "'=1", "'=1"},
		{"Empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := MustItems(t)[:1]
			items[0].LevelName, items[0].Hardest, items[0].Symmetry, items[0].Source = tt.text, tt.text, tt.text, tt.text
			var buf bytes.Buffer
			if err := export.Write(context.Background(), &buf, export.CSV, items, export.Options{}); err != nil {
				t.Fatal(err)
			}
			// The source is the last column but the size: the row ends
			// with the cell as a CSV writer quotes it, then the size. (A
			// CSV reader drops the carriage return, so the raw bytes are
			// compared.)
			var cell bytes.Buffer
			cw := csv.NewWriter(&cell)
			cw.UseCRLF = true
			cw.Write([]string{tt.want, "9"})
			cw.Flush()
			if !bytes.HasSuffix(buf.Bytes(), cell.Bytes()) {
				t.Errorf("got row %q, want it to end with %q", buf.String(), cell.String())
			}
			rows, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			row := rows[1]
			for _, col := range []int{7, 12, 13, 15} {
				if got, want := row[col], strings.ReplaceAll(tt.want, "\r", ""); got != want {
					t.Errorf("%s: got %q, want %q", export.CSVHeader[col], got, want)
				}
			}
			for _, col := range []int{0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 14} {
				if c := row[col]; c != "" && strings.ContainsRune("=+-@\t\r'", rune(c[0])) {
					t.Errorf("%s: %q starts with %q", export.CSVHeader[col], c, c[0])
				}
			}
			buf.Reset()
			if err := export.Write(context.Background(), &buf, export.JSON, items, export.Options{}); err != nil {
				t.Fatal(err)
			}
			var got struct {
				Source string `json:"source"`
			}
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Source != tt.text {
				t.Errorf("json source: got %q, want %q unchanged", got.Source, tt.text)
			}
		})
	}
}

// TestLineEnds checks each text format's one line-end convention, with
// line breaks of every kind in the text fields: "\n" alone everywhere
// but csv, "\r\n" alone in csv (RFC 4180).
func TestLineEnds(t *testing.T) {
	items := MustItems(t)
	for i := range items {
		items[i].LevelName = "a\r\nb"
		items[i].Hardest = "c\rd"
		items[i].Source = "e\nf"
	}
	opt := export.Options{Title: "T\r\nU", Author: "A\rB", SourceName: "S\nN", URL: "https://x.example/\r\n"}
	lf := func(t *testing.T, b []byte) {
		t.Helper()
		if bytes.Contains(b, []byte("\r")) {
			t.Errorf("a carriage return in %q", b)
		}
		if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("the last line has no line end: %q", b)
		}
	}
	tests := []struct {
		name   string
		format export.Format
		items  []export.Item
		check  func(*testing.T, []byte)
	}{
		{"SDM", export.SDM, items, lf},
		{"SDK", export.SDK, items[:1], lf},
		{"OpenSudoku", export.OpenSudoku, items, lf},
		{"JSON", export.JSON, items, lf},
		{"CSV", export.CSV, items, func(t *testing.T, b []byte) {
			if n, m := bytes.Count(b, []byte("\n")), bytes.Count(b, []byte("\r\n")); n != m || n != bytes.Count(b, []byte("\r")) {
				t.Errorf("%d line feeds, %d carriage returns, %d CRLF, want all equal: %q", n, bytes.Count(b, []byte("\r")), m, b)
			}
			if !bytes.HasSuffix(b, []byte("\r\n")) {
				t.Errorf("the last line has no line end")
			}
		}},
		{"SDKZip", export.SDK, items, func(t *testing.T, b []byte) {
			zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				member, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Fatal(err)
				}
				lf(t, member)
				if n := bytes.Count(member, []byte("\n")); n != 9+6 {
					t.Errorf("%s has %d lines, want 15 (6 headers, 9 rows)", f.Name, n)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := export.Write(context.Background(), &buf, tt.format, tt.items, opt); err != nil {
				t.Fatal(err)
			}
			tt.check(t, buf.Bytes())
		})
	}
}
