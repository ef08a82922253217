package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"sudokubank/solve"
)

// Line is one puzzle line of an import file.
type Line struct {
	No   int    // line number, from 1
	Text string // the line, comment removed
}

// maxLine bounds an import line; a longer one is an error, not a puzzle.
const maxLine = 1 << 20

// Lines returns a producer of the puzzle lines of r, skipping blank lines
// and '#' comments. It reads as it goes: memory does not grow with r.
func Lines(r io.Reader) func(ctx context.Context, emit func(Line) bool) error {
	return func(ctx context.Context, emit func(Line) bool) error {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		no := 0
		for sc.Scan() {
			no++
			text, _, _ := strings.Cut(sc.Text(), "#")
			text = strings.TrimSpace(text)
			if text == "" {
				continue
			}
			if !emit(Line{No: no, Text: text}) {
				return nil
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("line %d: %w", no+1, err)
		}
		return nil
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
