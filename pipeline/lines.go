package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"sudokubank/importfmt"
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
