package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"sudokubank/importfmt"
	"sudokubank/solve"
)

// Line is one puzzle line of an import file, or one puzzle of a file in
// another format (see Records).
type Line struct {
	No     int    // line number, from 1; 0 for an error about a whole file
	Member string // the file inside a zip the puzzle is in, "" outside one
	Text   string // the line, comment removed; "" when Err is set
	// Err says why the line was not read as text: ErrLineTooLong. The
	// line is still handed out, numbered, so that it is reported and
	// skipped like any bad line.
	Err error
}

// maxLine bounds an import line; a longer one is an error, not a puzzle.
const maxLine = 1 << 20

// bom is the UTF-8 byte order mark some editors put before a file's
// first line.
const bom = "\uFEFF"

// Where returns the line's place for a message about the input named
// file: "file:12", or "file:0003.sdk:5" in a zip.
func (l Line) Where(file string) string {
	return importfmt.Record{Member: l.Member, Line: l.No}.Where(file)
}

// Records returns a producer of the puzzles of r in any format importfmt
// reads, told apart by content: one a line (as Lines reads them), sdk
// files and 9-line grids, zips of them, OpenSudoku XML, and the CSV and
// JSON Lines of bankquery. A bad record is handed out with its error.
func Records(r io.Reader) func(ctx context.Context, emit func(Line) bool) error {
	return func(ctx context.Context, emit func(Line) bool) error {
		_, err := importfmt.Read(ctx, r, func(rec importfmt.Record) bool {
			return emit(Line{No: rec.Line, Member: rec.Member, Text: rec.Text, Err: rec.Err})
		})
		return err
	}
}

// Lines returns a producer of the puzzle lines of r, skipping blank lines
// and '#' comments and a byte order mark at the start. A line longer
// than 1 MiB is handed out with ErrLineTooLong, its text skipped, and
// reading goes on. It reads as it goes: memory does not grow with r.
func Lines(r io.Reader) func(ctx context.Context, emit func(Line) bool) error {
	return func(ctx context.Context, emit func(Line) bool) error {
		br := bufio.NewReaderSize(r, 64<<10)
		var buf []byte
		for no := 1; ; no++ {
			line, long, err := nextLine(br, buf[:0])
			buf = line
			if err != nil && err != io.EOF {
				return fmt.Errorf("line %d: %w", no, err)
			}
			if err == io.EOF && len(line) == 0 && !long {
				return nil
			}
			l := Line{No: no}
			if long {
				l.Err = ErrLineTooLong
			} else {
				text := string(line)
				if no == 1 {
					text = strings.TrimPrefix(text, bom)
				}
				text, _, _ = strings.Cut(text, "#")
				l.Text = strings.TrimSpace(text)
			}
			if (l.Text != "" || l.Err != nil) && !emit(l) {
				return nil
			}
			if err == io.EOF {
				return nil
			}
		}
	}
}

// nextLine reads the next line of br into buf, without its '\n'. A line
// of more than maxLine bytes is read to its end but not kept: long
// reports it. err is nil, io.EOF for a last line without '\n' (or none
// at all), or what reading failed with.
func nextLine(br *bufio.Reader, buf []byte) (line []byte, long bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		if !long && len(buf)+len(chunk) > maxLine {
			long, buf = true, buf[:0]
		}
		if !long {
			buf = append(buf, chunk...)
		}
		if err != bufio.ErrBufferFull {
			return buf, long, err
		}
	}
}

// ParseLine reads the puzzle of one import line: anything solve.Parse
// takes on one line, or such a puzzle as the first of several
// space-separated fields (rated lists put ratings after it).
func ParseLine(s string) (solve.Grid, error) {
	g, err := solve.Parse(s)
	if err == nil {
		return g, nil
	}
	if f := strings.Fields(s); len(f) > 1 && len(f[0]) == 81 {
		if g, err2 := solve.Parse(f[0]); err2 == nil {
			return g, nil
		}
	}
	return g, err
}

// GridOf reads an 81-character grid string as the store keeps it ('.' or
// '0' for an empty cell) without the checks of solve.Parse, for loading
// canonical forms fast. Other characters read as empty cells.
func GridOf(s string) solve.Grid {
	var g solve.Grid
	for i := 0; i < len(s) && i < 81; i++ {
		if c := s[i]; c >= '1' && c <= '9' {
			g[i] = c - '0'
		}
	}
	return g
}
