package importfmt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// lineScanner hands out the lines of a reader without their line ends,
// numbered from 1, a byte order mark before the first removed. A line
// over MaxLine bytes is read to its end but not kept: long reports it.
// Memory does not grow with the input.
type lineScanner struct {
	br   *bufio.Reader
	buf  []byte
	no   int
	done bool
}

// next returns the next line; ok is false at the end, err set when
// reading failed.
func (s *lineScanner) next() (line []byte, long, ok bool, err error) {
	if s.done {
		return nil, false, false, nil
	}
	s.buf = s.buf[:0]
	for {
		chunk, rerr := s.br.ReadSlice('\n')
		if !long && len(s.buf)+len(chunk) > MaxLine+2 {
			long, s.buf = true, s.buf[:0]
		}
		if !long {
			s.buf = append(s.buf, chunk...)
		}
		if rerr == bufio.ErrBufferFull {
			continue
		}
		if rerr == io.EOF {
			s.done = true
			if len(s.buf) == 0 && !long && len(chunk) == 0 {
				return nil, false, false, nil
			}
		} else if rerr != nil {
			return nil, false, false, fmt.Errorf("line %d: %w", s.no+1, rerr)
		}
		break
	}
	s.no++
	line = bytes.TrimSuffix(bytes.TrimSuffix(s.buf, []byte("\n")), []byte("\r"))
	if s.no == 1 {
		line = bytes.TrimPrefix(line, []byte(bom))
	}
	if len(line) > MaxLine {
		long = true
	}
	return line, long, true, nil
}

// emitter wraps emit with the context checks and the stop every reader
// needs.
type emitter struct {
	ctx    context.Context
	member string
	emit   func(Record) bool
	n      int
}

// put hands out one record: errStop when emit asks to stop, the
// context's error when it is done.
func (e *emitter) put(r Record) error {
	if e.n%checkEvery == 0 {
		if err := e.ctx.Err(); err != nil {
			return err
		}
	}
	e.n++
	r.Member = e.member
	if r.Err == nil {
		r.Shape = ShapeOf(r.Text)
	}
	if !e.emit(r) {
		return errStop
	}
	return nil
}

// bad hands out a bad record at line no.
func (e *emitter) bad(no int, format string, args ...any) error {
	return e.put(Record{Line: no, Err: fmt.Errorf(format, args...)})
}

// readLines reads one puzzle a line: '#' starts a comment, and blank
// lines are skipped.
func readLines(ctx context.Context, br *bufio.Reader, member string, emit func(Record) bool) error {
	e := &emitter{ctx: ctx, member: member, emit: emit}
	s := &lineScanner{br: br}
	for {
		line, long, ok, err := s.next()
		if err != nil || !ok {
			return err
		}
		if long {
			if err := e.put(Record{Line: s.no, Err: ErrLineTooLong}); err != nil {
				return err
			}
			continue
		}
		text, _, _ := strings.Cut(string(line), "#")
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		if err := e.put(Record{Line: s.no, Text: text}); err != nil {
			return err
		}
	}
}

// readJSON reads JSON Lines, the puzzle of each object.
func readJSON(ctx context.Context, br *bufio.Reader, member string, emit func(Record) bool) error {
	e := &emitter{ctx: ctx, member: member, emit: emit}
	s := &lineScanner{br: br}
	for {
		line, long, ok, err := s.next()
		if err != nil || !ok {
			return err
		}
		if long {
			err = e.put(Record{Line: s.no, Err: ErrLineTooLong})
		} else if len(bytes.TrimSpace(line)) > 0 {
			var obj struct {
				Puzzle *string `json:"puzzle"`
			}
			switch jerr := json.Unmarshal(line, &obj); {
			case jerr != nil:
				var te *json.UnmarshalTypeError
				if errors.As(jerr, &te) && te.Field == "" {
					// The line itself is not an object: [1,2], "text", 5.
					err = e.bad(s.no, "not a JSON object: a JSON %s", te.Value)
				} else if errors.As(jerr, &te) {
					err = e.bad(s.no, "the puzzle is a JSON %s, want a string", te.Value)
				} else {
					err = e.bad(s.no, "not a JSON object: %v", jerr)
				}
			case obj.Puzzle == nil:
				err = e.bad(s.no, `the object has no "puzzle"`)
			case strings.TrimSpace(*obj.Puzzle) == "":
				err = e.bad(s.no, "the puzzle is empty")
			default:
				err = e.put(Record{Line: s.no, Text: strings.TrimSpace(*obj.Puzzle)})
			}
		}
		if err != nil {
			return err
		}
	}
}

// readGrid reads puzzles drawn as 9 lines of 9 cells: .sdk files and
// the grids people paste.
func readGrid(ctx context.Context, br *bufio.Reader, member string, emit func(Record) bool) error {
	e := &emitter{ctx: ctx, member: member, emit: emit}
	s := &lineScanner{br: br}
	g := &gridReader{e: e}
	for {
		line, long, ok, err := s.next()
		if err != nil {
			return err
		}
		if !ok {
			return g.end()
		}
		text := strings.TrimSpace(string(line))
		switch {
		case long:
			if err = g.end(); err == nil {
				err = e.put(Record{Line: s.no, Err: ErrLineTooLong})
			}
		case text == "" || text[0] == '#':
			err = g.end()
		default:
			switch n := cellCount(text); n {
			case 0: // a ruling
			case 9:
				err = g.add(gridLine{no: s.no, cells: cellsOf(text)})
			case 81:
				if err = g.end(); err == nil {
					err = e.put(Record{Line: s.no, Text: text})
				}
			default:
				what := fmt.Sprintf("of %d cells", n)
				if n < 0 {
					what = "with a character that is not a cell"
				}
				err = g.add(gridLine{no: s.no, bad: fmt.Sprintf("a grid line %s, want 9", what)})
			}
		}
		if err != nil {
			return err
		}
	}
}

// gridLine is a line of a grid being read: a row of 9 cells, or a line
// that cannot be one, bad saying why.
type gridLine struct {
	no    int
	cells string
	bad   string
}

// gridReader gathers the lines of the grid being read. A grid with a bad
// line is one bad record when a blank line, a '#' line or the end closes
// it after 9 lines, the bad ones counted: one mistyped row is one
// skipped puzzle. Otherwise its pieces are told apart as they come: the
// rows before a bad line as a grid cut short, the bad line on its own,
// and the rows after it as a grid of their own.
type gridReader struct {
	e     *emitter
	lines []gridLine
	bad   bool // lines holds a bad line
}

// add takes the next line of the grid.
func (g *gridReader) add(l gridLine) error {
	g.lines = append(g.lines, l)
	g.bad = g.bad || l.bad != ""
	if !g.bad {
		if len(g.lines) == 9 {
			return g.whole()
		}
		return nil
	}
	// More than 9 lines are not one grid: the pieces go their own ways,
	// and 9 rows after the last bad line become a grid of their own.
	if len(g.lines) > 9 {
		return g.split()
	}
	return nil
}

// end closes the grid at a blank line, a '#' line or the end.
func (g *gridReader) end() error {
	if g.bad && len(g.lines) == 9 {
		first := g.lines[0].no
		for i, l := range g.lines {
			if l.bad != "" {
				g.lines, g.bad = g.lines[:0], false
				return g.e.bad(l.no, "%s (row %d of the grid from line %d)", l.bad, i+1, first)
			}
		}
	}
	if err := g.split(); err != nil {
		return err
	}
	return g.cutShort()
}

// whole hands out the 9 rows gathered as a grid.
func (g *gridReader) whole() error {
	var b strings.Builder
	for _, l := range g.lines {
		b.WriteString(l.cells)
	}
	first := g.lines[0].no
	g.lines = g.lines[:0]
	return g.e.put(Record{Line: first, Text: b.String()})
}

// cutShort reports the rows gathered, fewer than 9, as a grid cut short.
func (g *gridReader) cutShort() error {
	if len(g.lines) == 0 {
		return nil
	}
	n, first := len(g.lines), g.lines[0].no
	g.lines = g.lines[:0]
	return g.e.bad(first, "a grid of %d rows, want 9", n)
}

// split hands out the pieces of a grid with bad lines: the rows before
// each bad line as a grid cut short, then the bad line. The rows after
// the last one stay gathered, a grid if 9.
func (g *gridReader) split() error {
	if !g.bad {
		return nil
	}
	lines := slices.Clone(g.lines)
	g.lines, g.bad = g.lines[:0], false
	for _, l := range lines {
		if l.bad == "" {
			g.lines = append(g.lines, l)
			continue
		}
		if err := g.cutShort(); err != nil {
			return err
		}
		if err := g.e.bad(l.no, "%s", l.bad); err != nil {
			return err
		}
	}
	if len(g.lines) == 9 {
		return g.whole()
	}
	return nil
}

// cellsOf returns the cells of a grid line, without the spaces and
// ruling marks between them.
func cellsOf(line string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '|', '+', '\r':
			return -1
		}
		return r
	}, line)
}
