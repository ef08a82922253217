// Package importfmt reads the puzzle files that bankgen import takes:
// what bankquery writes (sdm, sdk single files and zips of them, the
// OpenSudoku XML, CSV and JSON Lines) and what publishers trade (one
// puzzle a line, 9-line grids). It tells the format by content, not by
// file name, and hands out each puzzle's text with its place in the
// input and its grid size, told by the text's length (ShapeOf); it does
// not solve or grade puzzles (pipeline does).
//
// A record that is not a puzzle is handed out with an error and its
// place, and reading goes on: only a failing reader stops it.
package importfmt

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sudokubank/grid"
	"sudokubank/solve"
)

// Format names an input format.
type Format string

// The formats Read tells apart.
const (
	// Lines is one puzzle a line, as sdm is and the lists of puzzles
	// that forums trade are: '#' starts a comment, blank lines are
	// skipped, and the puzzle is the line (solve.ParseLine reads a 9x9
	// one; a line of 16, 36, 64, 144, 256 or 625 cells is a puzzle of
	// that size, see ShapeOf, and one file may mix sizes).
	Lines Format = "lines"
	// Grid is puzzles drawn as 9 lines of 9 cells, the .sdk layout:
	// '#' lines (sdk's headers) and blank lines go between puzzles,
	// ruling lines such as "---+---+---" are skipped, and a line of 81
	// cells counts as a whole puzzle too.
	Grid Format = "grid"
	// Zip is a zip archive whose files are in the other formats, as a
	// pack of sdk puzzles is; each file is told apart by its content.
	Zip Format = "zip"
	// OpenSudoku is the OpenSudoku app's XML: the data attribute of each
	// <game> element, 81 digits, or the cells as the app saves a game it
	// exports ("version: N" and value|note|editable| a cell), whose
	// givens are the cells that may not be edited.
	OpenSudoku Format = "opensudoku"
	// CSV is comma-separated values with a header row that names a
	// "puzzle" column, as bankquery list and export write.
	CSV Format = "csv"
	// JSON is JSON Lines: one object a line, with a "puzzle" key, as
	// bankquery list and export write.
	JSON Format = "json"
)

// Record is one puzzle of the input, or one bad record.
type Record struct {
	Member string // the file inside a zip, "" outside one
	Line   int    // the line the record starts on, from 1; 0 for the whole input or member
	Text   string // the puzzle as text; "" when Err is set
	// Shape is the puzzle's size as ShapeOf tells it from Text: 9x9 for
	// everything that is not exactly another size's N*N cells. Zero when
	// Err is set.
	Shape grid.Shape
	Err   error // why the record is not a puzzle
}

// Where returns the record's place for a message about input name:
// "name:12", "name:0003.sdk:5", or "name" for the whole input.
func (r Record) Where(name string) string {
	if r.Member != "" {
		name += ":" + r.Member
	}
	if r.Line > 0 {
		name += ":" + strconv.Itoa(r.Line)
	}
	return name
}

// Errors that mark a bad record.
var (
	// ErrLineTooLong marks a line over MaxLine bytes, not read.
	ErrLineTooLong = errors.New("line longer than 1 MiB, not a puzzle")
	// ErrZipTooBig is returned for a zip that is not a regular file
	// (standard input from a pipe) and is larger than MaxBuffered.
	ErrZipTooBig = errors.New("a zip read from a pipe is held in memory, at most 256 MiB; name the file instead")
	// ErrUTF16 marks an input (or a zip's file) in UTF-16, which is not
	// read: every line of it would be a bad record of stray bytes.
	ErrUTF16 = errors.New("a UTF-16 text (it starts with a UTF-16 byte order mark), not read; save it as UTF-8")
	// ErrGzip marks a gzip-compressed input (or zip's file), which is
	// not read: decompressed, it is (zcat FILE.gz | bankgen import -).
	ErrGzip = errors.New("a gzip-compressed file, not read; decompress it first (zcat)")
)

const (
	// MaxLine bounds a line of the line-based formats.
	MaxLine = 1 << 20
	// MaxBuffered bounds a zip read from something other than a regular
	// file, which must be held in memory: zip's directory is at its end.
	MaxBuffered = 256 << 20
	// sniffLen is how much of the input Detect looks at.
	sniffLen = 64 << 10
	// checkEvery is how many records pass between looks at the context.
	checkEvery = 256
)

// bom is the UTF-8 byte order mark some editors put first in a file.
const bom = "\uFEFF"

// errStop ends reading when emit asks to stop.
var errStop = errors.New("stop")

// Read reads every record of r, in order, and hands each to emit until
// emit returns false; it tells the format by content (Detect). The error
// is nil, the context's, or what reading r failed with. A zip needs
// random access: an *os.File that is a regular file is read in place,
// anything else is read into memory, at most MaxBuffered bytes
// (ErrZipTooBig).
func Read(ctx context.Context, r io.Reader, emit func(Record) bool) (Format, error) {
	br := bufio.NewReaderSize(r, sniffLen)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return "", err
	}
	if err := unread(head); err != nil {
		e := &emitter{ctx: ctx, emit: emit}
		return Lines, noStop(e.bad(0, "%v", err))
	}
	f := Detect(head)
	return f, noStop(readAs(ctx, r, br, f, "", emit))
}

// unread returns why an input that starts with head is not read, or nil:
// UTF-16 text (as spreadsheets save "Unicode" text), gzip, and the
// binary files a user may take for puzzle files (a bank, a PDF pack),
// which would otherwise give a bad record of stray bytes a "line".
func unread(head []byte) error {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return ErrUTF16
	case bytes.HasPrefix(head, []byte{0x1F, 0x8B}):
		return ErrGzip
	case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
		return errors.New("an SQLite database, not read; a bank's families are added to another with bankgen merge")
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return errors.New("a PDF, not read: its puzzles are drawn, not written as text")
	}
	return nil
}

// ReadFormat reads r as format f, as Read does once it has told the format.
func ReadFormat(ctx context.Context, r io.Reader, f Format, emit func(Record) bool) error {
	return noStop(readAs(ctx, r, bufio.NewReaderSize(r, sniffLen), f, "", emit))
}

func noStop(err error) error {
	if err == errStop {
		return nil
	}
	return err
}

// readAs reads br (which reads r) as format f; member names the zip
// member being read, if any.
func readAs(ctx context.Context, r io.Reader, br *bufio.Reader, f Format, member string, emit func(Record) bool) error {
	switch f {
	case Zip:
		return readZip(ctx, r, br, emit)
	case OpenSudoku:
		return readOpenSudoku(ctx, br, member, emit)
	case CSV:
		return readCSV(ctx, br, member, emit)
	case JSON:
		return readJSON(ctx, br, member, emit)
	case Grid:
		return readGrid(ctx, br, member, emit)
	case Lines:
		return readLines(ctx, br, member, emit)
	}
	return fmt.Errorf("unknown input format %q", f)
}

// Detect tells the format of an input from its first bytes: a zip by its
// signature, XML by '<', JSON Lines by '{', CSV by a header line with a
// "puzzle" column, a grid by a first content line of 9 cells (or a
// ruling); anything else reads as one puzzle a line.
func Detect(head []byte) Format {
	head = bytes.TrimPrefix(head, []byte(bom))
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")) {
		return Zip
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(t, []byte("<")):
		return OpenSudoku
	case bytes.HasPrefix(t, []byte("{")):
		return JSON
	}
	first, _, _ := bytes.Cut(t, []byte("\n"))
	if isCSVHeader(string(first)) {
		return CSV
	}
	for rest := t; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == '#' {
			continue
		}
		if n := cellCount(s); n == 9 || n == 0 {
			return Grid
		}
		return Lines
	}
	return Lines
}

// isCSVHeader reports whether line is a CSV header that names a puzzle
// column; a spreadsheet saves a sheet of that column alone without a
// comma.
func isCSVHeader(line string) bool {
	_, ok := csvComma(line)
	return ok
}

// csvCommas are the field separators a CSV header may use: a comma, the
// semicolon that spreadsheets in locales with a decimal comma save, and
// the tab of tab-separated text. The comma comes first, so a header that
// splits off a puzzle column with it reads as before.
var csvCommas = []rune{',', ';', '\t'}

// csvComma returns the separator that splits a "puzzle" column off the
// header line, and whether one does; a header of that column alone
// reads with a comma.
func csvComma(line string) (rune, bool) {
	line = strings.TrimRight(line, "\r")
	for _, c := range csvCommas {
		if puzzleColumn(strings.Split(line, string(c))) >= 0 {
			return c, true
		}
	}
	return ',', false
}

// puzzleColumn returns the index of the "puzzle" column of a CSV header,
// or -1.
func puzzleColumn(header []string) int {
	for i, h := range header {
		h = strings.TrimPrefix(h, bom)
		if strings.EqualFold(strings.Trim(strings.TrimSpace(h), `"`), "puzzle") {
			return i
		}
	}
	return -1
}

// cellCount returns the number of cells on a grid line: 0 for a ruling
// or blank line, -1 for a line with a character that is not a cell, a
// space or a ruling mark. The rules are solve.Parse's.
func cellCount(line string) int {
	if solve.IsRuling(line) {
		return 0
	}
	n := 0
	for _, r := range line {
		switch {
		case r >= '1' && r <= '9', r == '.', r == '0', r == '-', r == '*', r == '_':
			n++
		case r == ' ' || r == '\t' || r == '|' || r == '+' || r == '\r':
		default:
			return -1
		}
	}
	return n
}
