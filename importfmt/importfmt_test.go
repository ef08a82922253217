package importfmt_test

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"sudokubank/importfmt"
	"sudokubank/solve"
)

// goldens are export's golden files: what bankquery writes.
var goldens = []struct {
	file   string
	format importfmt.Format
	n      int // puzzles in it, the first n of pack.sdm
	first  int // the first one's place in pack.sdm, from 0
}{
	{"pack.sdm.golden", importfmt.Lines, 6, 0},
	{"pack.sdk.zip.golden", importfmt.Zip, 6, 0},
	{"one.sdk.golden", importfmt.Grid, 1, 4},
	{"pack.opensudoku.golden", importfmt.OpenSudoku, 6, 0},
	{"pack.csv.golden", importfmt.CSV, 6, 0},
	{"pack.jsonl.golden", importfmt.JSON, 6, 0},
	{"credited.sdk.zip.golden", importfmt.Zip, 3, 0},
	{"credited.sdk.golden", importfmt.Grid, 1, 4},
	{"credited.opensudoku.golden", importfmt.OpenSudoku, 3, 0},
	{"credited.csv.golden", importfmt.CSV, 3, 0},
	{"credited.jsonl.golden", importfmt.JSON, 3, 0},
}

// MustGolden returns the bytes of export's golden file name.
func MustGolden(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "export", "testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// MustRead reads in with Read and returns its format and records.
func MustRead(tb testing.TB, in io.Reader) (importfmt.Format, []importfmt.Record) {
	tb.Helper()
	var recs []importfmt.Record
	f, err := importfmt.Read(context.Background(), in, func(r importfmt.Record) bool {
		recs = append(recs, r)
		return true
	})
	if err != nil {
		tb.Fatalf("Read: %v", err)
	}
	return f, recs
}

// MustGrids parses the records' texts; a bad record fails the test.
func MustGrids(tb testing.TB, recs []importfmt.Record) []solve.Grid {
	tb.Helper()
	var gs []solve.Grid
	for _, r := range recs {
		if r.Err != nil {
			tb.Fatalf("%s: %v", r.Where("in"), r.Err)
		}
		g, err := solve.Parse(r.Text)
		if err != nil {
			tb.Fatalf("%s: %q: %v", r.Where("in"), r.Text, err)
		}
		gs = append(gs, g)
	}
	return gs
}

// Every format bankquery writes reads back as its puzzles, in order, told
// apart by content alone.
func TestReadGoldens(t *testing.T) {
	_, sdm := MustRead(t, bytes.NewReader(MustGolden(t, "pack.sdm.golden")))
	want := MustGrids(t, sdm)
	for _, g := range goldens {
		t.Run(g.file, func(t *testing.T) {
			f, recs := MustRead(t, bytes.NewReader(MustGolden(t, g.file)))
			if f != g.format {
				t.Errorf("read as %s, want %s", f, g.format)
			}
			if got := MustGrids(t, recs); !slices.Equal(got, want[g.first:g.first+g.n]) {
				t.Errorf("got %d puzzles %v, want %v", len(got), got, want[g.first:g.first+g.n])
			}
		})
	}
}

// A zip read from a pipe has no random access: it is read into memory.
func TestReadZipFromPipe(t *testing.T) {
	data := MustGolden(t, "pack.sdk.zip.golden")
	pr, pw := io.Pipe()
	go func() {
		pw.Write(data)
		pw.Close()
	}()
	f, recs := MustRead(t, pr)
	if f != importfmt.Zip || len(MustGrids(t, recs)) != 6 {
		t.Errorf("read %s, %d records; want zip, 6", f, len(recs))
	}
	if got, want := recs[2].Where("pack.zip"), "pack.zip:0003.sdk:5"; got != want {
		t.Errorf("the third puzzle is at %s, want %s", got, want)
	}
}

// A zip read from a regular file is read in place.
func TestReadZipFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pack.zip")
	if err := os.WriteFile(path, MustGolden(t, "pack.sdk.zip.golden"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	format, recs := MustRead(t, f)
	if format != importfmt.Zip || len(MustGrids(t, recs)) != 6 {
		t.Errorf("read %s, %d records; want zip, 6", format, len(recs))
	}
}

func TestDetect(t *testing.T) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	tests := []struct {
		name, head string
		want       importfmt.Format
	}{
		{"Empty", "", importfmt.Lines},
		{"OneLine", p + "\n", importfmt.Lines},
		{"CommentThenLine", "# top list\n\n" + p + "\n", importfmt.Lines},
		{"RatedLine", p + " 9.0 1.2 1.2 forum\n", importfmt.Lines},
		{"SDKHeaders", "#DPuzzle 1\n#Lmedium\n..4...2.7\n", importfmt.Grid},
		{"GridWithSpaces", "4 . . | . . . | 8 . 5\n", importfmt.Grid},
		{"GridRulingFirst", "+-------+-------+-------+\n| 4 . . | . . . | 8 . 5 |\n", importfmt.Grid},
		{"CSV", "number,id,puzzle\r\n1,2," + p + "\r\n", importfmt.CSV},
		{"CSVQuotedHeader", "\"Puzzle\",\"rating\"\n", importfmt.CSV},
		{"CSVWithoutPuzzle", "a,b,c\n", importfmt.Lines},
		{"CSVOneColumn", "\uFEFFPuzzle\r\n" + p + "\r\n", importfmt.CSV},
		{"CSVSemicolon", "puzzle;rating\n" + p + ";1,5\n", importfmt.CSV},
		{"CSVTab", "id\t\"puzzle\"\r\n1\t" + p + "\r\n", importfmt.CSV},
		{"JSON", "{\"puzzle\":\"" + p + "\"}\n", importfmt.JSON},
		{"XML", "<?xml version=\"1.0\"?>\n<opensudoku>", importfmt.OpenSudoku},
		{"XMLWithoutProlog", "  <opensudoku version=\"2\">", importfmt.OpenSudoku},
		{"Zip", "PK\x03\x04rest", importfmt.Zip},
		{"ByteOrderMark", "\uFEFF{\"puzzle\":1}", importfmt.JSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := importfmt.Detect([]byte(tt.head)); got != tt.want {
				t.Errorf("Detect = %s, want %s", got, tt.want)
			}
		})
	}
}

// Bad records are handed out with their places and the reading goes on.
func TestBadRecords(t *testing.T) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	rows := func(s string) string { // p's nine rows, one a line
		var b strings.Builder
		for r := 0; r < 9; r++ {
			b.WriteString(s[r*9:r*9+9] + "\n")
		}
		return b.String()
	}
	type rec struct {
		line int
		ok   bool
		err  string
	}
	tests := []struct {
		name, in string
		want     []rec
	}{
		{"GridCutShort", "#Dfirst\n" + rows(p)[:30] + "\n#Dsecond\n" + rows(p), []rec{{2, false, "a grid of 3 rows"}, {7, true, ""}}},
		{"GridBadLine", rows(p)[:20] + "12345\n" + rows(p), []rec{{1, false, "a grid of 2 rows"}, {3, false, "a grid line of 5 cells"}, {4, true, ""}}},
		{"GridMistypedRow", "#Dfirst\n" + strings.Replace(rows(p), ".2.....6.\n", ".2....6.\n", 1) + "\n#Dsecond\n" + rows(p),
			[]rec{{5, false, "a grid line of 8 cells, want 9 (row 4 of the grid from line 2)"}, {13, true, ""}}},
		{"GridStrayCharacter", strings.Replace(rows(p), ".3.......", ".3..x....", 1) + "#D\n" + rows(p),
			[]rec{{2, false, "a grid line with a character that is not a cell, want 9 (row 2 of the grid from line 1)"}, {11, true, ""}}},
		{"GridOldSDK", "#D1\n#Lx\n" + rows(p) + "\n#D2\n" + rows(p), []rec{{3, true, ""}, {14, true, ""}}},
		{"GridRuled", "+---+---+---+\n" + strings.ReplaceAll(rows(p), "\n", "|\n") + "+---+---+---+\n", []rec{{2, true, ""}}},
		{"GridCRLF", strings.ReplaceAll("#A\n"+rows(p), "\n", "\r\n"), []rec{{2, true, ""}}},
		{"GridSimpleSudoku", strings.ReplaceAll("*-----------*\n"+rows(p)+"*-----------*\n\n*-----------*\n"+rows(p)[:30]+"*-----------*\n", "\n", "\r\n"),
			[]rec{{2, true, ""}, {14, false, "a grid of 3 rows"}}},
		{"CSVNoPuzzle", "id,puzzle\n1,\n2\n3," + p + "\n", []rec{{2, false, "the puzzle field is empty"}, {3, false, "a row of 1 fields"}, {4, true, ""}}},
		{"JSONBad", "{\"puzzle\":\"" + p + "\"}\n{oops\n{\"id\":1}\n{\"puzzle\":7}\n{\"puzzle\":\"\"}\n\n{\"puzzle\":\"" + p + "\"}\n",
			[]rec{{1, true, ""}, {2, false, "not a JSON object"}, {3, false, `no "puzzle"`}, {4, false, "the puzzle is a JSON number"}, {5, false, "empty"}, {7, true, ""}}},
		{"JSONNotObject", "{\"puzzle\":\"" + p + "\"}\n[1,2]\n\"" + p + "\"\n7\n",
			[]rec{{1, true, ""}, {2, false, "not a JSON object: a JSON array"}, {3, false, "not a JSON object: a JSON string"}, {4, false, "not a JSON object: a JSON number"}}},
		{"XMLBroken", "<opensudoku>\n<folder>\n<game data=\"" + p + "\"/>\n<game note=\"x\"/>\n<game data=\"" + p + "\"\n</folder>", []rec{{3, true, ""}, {4, false, "without data"}, {6, false, "XML"}}},
		{"XMLGameOverLines", "<opensudoku>\n<game\n  data=\"" + p + "\"\n/>\n<game note=\"a\"\n/><game\ndata=\"" + p + "\"/>\n</opensudoku>",
			[]rec{{2, true, ""}, {5, false, "without data"}, {6, true, ""}}},
		{"XMLOtherRoot", "<?xml version=\"1.0\"?>\n<html><game data=\"" + p + "\"/></html>", []rec{{2, false, "not <opensudoku>"}}},
		{"LinesLong", p + "\n" + strings.Repeat("1", importfmt.MaxLine+1) + "\n" + p, []rec{{1, true, ""}, {2, false, "longer than 1 MiB"}, {3, true, ""}}},
		{"XMLByteOrderMark", "\uFEFF<?xml version=\"1.0\"?>\n<opensudoku><game data=\"" + p + "\"/></opensudoku>", []rec{{2, true, ""}}},
		{"CSVOneColumn", "puzzle\r\n" + p + "\r\n\r\n\"" + p + "\"\r\n", []rec{{2, true, ""}, {4, true, ""}}},
		{"CSVByteOrderMark", "\uFEFFpuzzle,x\r\n" + p + ",1\r\n", []rec{{2, true, ""}}},
		// Spreadsheets in locales with a decimal comma separate with ';'.
		{"CSVSemicolon", "\uFEFF\"Puzzle\";\"rating\"\r\n\"" + p + "\";\"1,5\"\r\n;1\r\n" + p + "\r\n",
			[]rec{{2, true, ""}, {3, false, "the puzzle field is empty"}, {4, true, ""}}},
		{"CSVSemicolonSecond", "rating;puzzle\n1,5;" + p + "\n\"a;b\";" + p + "\n", []rec{{2, true, ""}, {3, true, ""}}},
		{"CSVTab", "id\tpuzzle\tnote\r\n1\t" + p + "\ta, b\r\n2\t\"" + p + "\"\r\n", []rec{{2, true, ""}, {3, true, ""}}},
		{"ZipBroken", "PK\x03\x04 not really", []rec{{0, false, "a zip that cannot be read"}}},
		{"SQLite", "SQLite format 3\x00\x10\x00\x02\x02\n\x00\x00\n", []rec{{0, false, "an SQLite database, not read"}}},
		{"PDF", "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", []rec{{0, false, "a PDF, not read"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, recs := MustRead(t, strings.NewReader(tt.in))
			var got []rec
			for _, r := range recs {
				g := rec{line: r.Line, ok: r.Err == nil}
				if r.Err != nil {
					g.err = r.Err.Error()
				}
				got = append(got, g)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d records %+v, want %+v", len(got), got, tt.want)
			}
			for i := range got {
				w := tt.want[i]
				if got[i].line != w.line || got[i].ok != w.ok || !strings.Contains(got[i].err, w.err) {
					t.Errorf("record %d = %+v, want %+v", i+1, got[i], w)
				}
				if r := recs[i]; r.Err == nil {
					if _, err := solve.Parse(r.Text); err != nil {
						t.Errorf("record %d: %q: %v", i+1, r.Text, err)
					}
				}
			}
		})
	}
}

// Read stops when emit asks it to.
func TestStop(t *testing.T) {
	n := 0
	_, err := importfmt.Read(context.Background(), bytes.NewReader(MustGolden(t, "pack.sdk.zip.golden")), func(importfmt.Record) bool {
		n++
		return n < 2
	})
	if err != nil || n != 2 {
		t.Errorf("Read = %v after %d records, want nil after 2", err, n)
	}
}

// A CSV field or XML token without its end cannot fill the memory: it is
// one bad record, and the rest of the file is not read.
func TestRecordTooLong(t *testing.T) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	huge := strings.Repeat("x\n", importfmt.MaxRecord)
	tests := []struct{ name, in string }{
		{"CSV", "puzzle,n\n" + p + ",1\n\"" + huge},
		{"XML", "<opensudoku>\n<game data=\"" + p + "\"/>\n<game data=\"" + huge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, recs := MustRead(t, strings.NewReader(tt.in))
			if len(recs) != 2 || recs[0].Err != nil || recs[1].Err == nil || !strings.Contains(recs[1].Err.Error(), "longer than 4 MiB") {
				t.Errorf("records %+v, want the puzzle and a record too long", recs)
			}
		})
	}
}

// appData returns puzzle p as the OpenSudoku app saves a game in data
// format version: every cell value|note|editable|, the givens not
// editable, and the player's entries (a digit of solution s in each
// empty cell of the first row) and notes in editable cells.
func appData(version int, p, s string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version: %d&#10;", version)
	for i := range 81 {
		value, editable := "0", "1"
		switch {
		case p[i] != '.':
			value, editable = p[i:i+1], "0"
		case i < 9:
			value = s[i : i+1]
		}
		note := map[int]string{1: "1,3,", 2: "5|", 3: "5"}[version]
		if editable == "0" || i%2 == 0 {
			note = map[int]string{1: "-", 2: "0", 3: "0"}[version]
		}
		fmt.Fprintf(&b, "%s|%s|%s|", value, note, editable)
	}
	return b.String()
}

// A file the OpenSudoku app exports holds each game's cells as the app
// saves them, with notes and the player's entries: its givens are read,
// in every data format version, and data of another form is one bad
// record.
func TestReadOpenSudokuAppExport(t *testing.T) {
	const (
		p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
		s = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
	)
	in := "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<opensudoku version=\"2\"><folder name=\"Mine\" created=\"1700000000000\">\n"
	for v := 1; v <= 3; v++ {
		in += `<game created="1700000000001" state="1" time="5000" last_played="1700000000100" data="` + appData(v, p, s) + "\" note=\"\" command_stack=\"\" />\n"
	}
	in += `<game data="` + strings.ReplaceAll(appData(3, p, s), "&#10;", " ") + "\" />\n"
	in += `<game data="` + strings.Replace(appData(3, p, s), "0|0|0|", "0|0|", 1) + "\" />\n"
	in += `<game data="` + strings.ReplaceAll(p, ".", "0") + "\" />\n</folder></opensudoku>\n"
	_, recs := MustRead(t, strings.NewReader(in))
	if len(recs) != 6 {
		t.Fatalf("got %d records %+v, want 6", len(recs), recs)
	}
	for i, r := range recs {
		switch {
		case i == 4:
			if r.Err == nil || !strings.Contains(r.Err.Error(), "(OpenSudoku version 3) holds 242 fields") {
				t.Errorf("record %d = %+v, want 242 fields", i+1, r)
			}
		case r.Err != nil:
			t.Errorf("record %d at line %d: %v", i+1, r.Line, r.Err)
		default:
			if g, err := solve.Parse(r.Text); err != nil || g.String() != p {
				t.Errorf("record %d = %q (%v), want %s", i+1, r.Text, err, p)
			}
		}
	}
}

// utf16LE returns s in UTF-16 little-endian with its byte order mark, as
// a spreadsheet saves "Unicode" text.
func utf16LE(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// A UTF-16 file, alone or in a zip, is one bad record that says what it
// is, not a bad record of stray bytes a line; the zip's other files are
// read.
func TestReadUTF16(t *testing.T) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	text := "id,puzzle\r\n1," + p + "\r\n2," + p + "\r\n"
	_, recs := MustRead(t, bytes.NewReader(utf16LE(text)))
	if len(recs) != 1 || recs[0].Err == nil || recs[0].Line != 0 || !strings.Contains(recs[0].Err.Error(), "UTF-16") {
		t.Errorf("records %+v, want one that says UTF-16", recs)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range map[string][]byte{"a.csv": utf16LE(text), "b.csv": []byte(text)} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	_, recs = MustRead(t, &buf)
	var bad, good int
	for _, r := range recs {
		switch {
		case r.Err == nil && r.Member == "b.csv":
			good++
		case r.Err != nil && r.Member == "a.csv" && strings.Contains(r.Err.Error(), "UTF-16"):
			bad++
		default:
			t.Errorf("record %+v", r)
		}
	}
	if bad != 1 || good != 2 {
		t.Errorf("%d UTF-16 records and %d puzzles, want 1 and 2", bad, good)
	}
}

// A gzip-compressed file is one bad record that says so, not a bad
// record of stray bytes a line.
func TestReadGzip(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(MustGolden(t, "pack.sdm.golden")); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	_, recs := MustRead(t, &buf)
	if len(recs) != 1 || recs[0].Err == nil || recs[0].Line != 0 || !strings.Contains(recs[0].Err.Error(), "gzip-compressed") {
		t.Errorf("records %+v, want one that says gzip", recs)
	}
}

// A zip's file that fails as it is read (here its checksum) is one bad
// record of the whole file, after the puzzles read before the failure,
// and the record says the file could not be read, or not to its end:
// the error alone ("zip: checksum error") does not say what became of
// the file.
func TestReadZipMemberFails(t *testing.T) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	for _, tt := range []struct {
		name  string
		lines int // the file's puzzles, the last one damaged
		want  string
	}{
		// A small file fails as its start is read to tell its format.
		{"Small", 2, "cannot be read: zip: checksum error"},
		// A large one fails once its first puzzles are handed out.
		{"Large", 2000, "cannot be read to its end: line 2001: zip: checksum error"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, err := zw.CreateHeader(&zip.FileHeader{Name: "a.txt", Method: zip.Store})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write([]byte(strings.Repeat(p+"\n", tt.lines))); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			data[bytes.LastIndex(data, []byte(p))] = '5' // the stored bytes no longer match their checksum
			_, recs := MustRead(t, bytes.NewReader(data))
			if len(recs) == 0 {
				t.Fatal("no record")
			}
			last := recs[len(recs)-1]
			if last.Err == nil || last.Line != 0 || last.Member != "a.txt" || !strings.Contains(last.Err.Error(), tt.want) {
				t.Errorf("last record %+v, want a.txt's failure: %s", last, tt.want)
			}
			for _, r := range recs[:len(recs)-1] {
				if r.Err != nil {
					t.Errorf("record %+v before the failure, want a puzzle", r)
				}
			}
		})
	}
}
