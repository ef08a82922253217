package importfmt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
				if errors.As(jerr, &te) {
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
	var rows []string
	start := 0
	// incomplete reports a grid cut short, if one is open.
	incomplete := func() error {
		if len(rows) == 0 {
			return nil
		}
		n := len(rows)
		rows = rows[:0]
		return e.bad(start, "a grid of %d rows, want 9", n)
	}
	for {
		line, long, ok, err := s.next()
		if err != nil {
			return err
		}
		if !ok {
			return incomplete()
		}
		text := strings.TrimSpace(string(line))
		if long {
			if err := incomplete(); err != nil {
				return err
			}
			if err := e.put(Record{Line: s.no, Err: ErrLineTooLong}); err != nil {
				return err
			}
			continue
		}
		if text == "" || text[0] == '#' {
			if err := incomplete(); err != nil {
				return err
			}
			continue
		}
		switch n := cellCount(text); n {
		case 0: // a ruling
		case 9:
			if len(rows) == 0 {
				start = s.no
			}
			rows = append(rows, cellsOf(text))
			if len(rows) == 9 {
				g := strings.Join(rows, "")
				rows = rows[:0]
				if err := e.put(Record{Line: start, Text: g}); err != nil {
					return err
				}
			}
		case 81:
			if err := incomplete(); err != nil {
				return err
			}
			if err := e.put(Record{Line: s.no, Text: text}); err != nil {
				return err
			}
		default:
			if err := incomplete(); err != nil {
				return err
			}
			what := fmt.Sprintf("%d cells", n)
			if n < 0 {
				what = "a character that is not a cell"
			}
			if err := e.bad(s.no, "a grid line of %s, want 9", what); err != nil {
				return err
			}
		}
	}
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
