package importfmt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// readCSV reads CSV with a header row, the puzzle column of each row.
func readCSV(ctx context.Context, br *bufio.Reader, member string, emit func(Record) bool) error {
	e := &emitter{ctx: ctx, member: member, emit: emit}
	comma := headerComma(br)
	lim := &limitReader{r: br}
	cr := csv.NewReader(lim)
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.ReuseRecord = true
	col := -1
	last := 0 // the line of the last record read
	for {
		lim.left = MaxRecord
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, errRecordTooLong) {
			return e.bad(last+1, "%v; the rest of the file is not read", errRecordTooLong)
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return err
			}
			last = pe.Line
			if err := e.bad(pe.StartLine, "%v", pe.Err); err != nil {
				return err
			}
			continue
		}
		line, _ := cr.FieldPos(0)
		last = line
		if col < 0 {
			if col = puzzleColumn(rec); col < 0 {
				return e.bad(line, `the header row names no "puzzle" column`)
			}
			continue
		}
		if col >= len(rec) {
			err = e.bad(line, "a row of %d fields, without the puzzle (field %d)", len(rec), col+1)
		} else if p := strings.TrimSpace(rec[col]); p == "" {
			err = e.bad(line, "the puzzle field is empty")
		} else {
			err = e.put(Record{Line: line, Text: p})
		}
		if err != nil {
			return err
		}
	}
}

// headerComma returns the separator of the CSV that br starts with, told
// from its header line (csvComma) without reading it; a header that
// names no puzzle column reads with a comma.
func headerComma(br *bufio.Reader) rune {
	head, _ := br.Peek(br.Size())
	head = bytes.TrimPrefix(head, []byte(bom))
	// encoding/csv skips empty lines before the header.
	head = bytes.TrimLeft(head, "\r\n")
	line, _, _ := bytes.Cut(head, []byte("\n"))
	c, _ := csvComma(string(line))
	return c
}

// readOpenSudoku reads the OpenSudoku XML, the data of each game. A
// syntax error ends the file: XML cannot be read on past one.
func readOpenSudoku(ctx context.Context, br *bufio.Reader, member string, emit func(Record) bool) error {
	e := &emitter{ctx: ctx, member: member, emit: emit}
	lim := &limitReader{r: br}
	in := &errRecorder{r: lim}
	d := xml.NewDecoder(in)
	root := true
	for {
		lim.left = MaxRecord
		// Where the next token starts: a <game> written over several
		// lines is placed at its '<', not at its end.
		start, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			if root {
				return e.bad(0, "an XML file without an <opensudoku> element")
			}
			return nil
		}
		line, _ := d.InputPos()
		if err != nil {
			if errors.Is(in.err, errRecordTooLong) {
				return e.bad(line, "%v; the rest of the file is not read", errRecordTooLong)
			}
			if in.err != nil {
				return in.err
			}
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return e.bad(se.Line, "XML: %s; the rest of the file is not read", se.Msg)
			}
			return e.bad(line, "%v; the rest of the file is not read", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root {
			if el.Name.Local != "opensudoku" {
				return e.bad(line, "an XML file of <%s>, not <opensudoku>", el.Name.Local)
			}
			root = false
			continue
		}
		if el.Name.Local != "game" {
			continue
		}
		data, found := "", false
		for _, a := range el.Attr {
			if a.Name.Local == "data" {
				data, found = strings.TrimSpace(a.Value), true
			}
		}
		switch cells, derr := gameCells(data); {
		case !found || data == "":
			err = e.bad(start, `a <game> without data`)
		case derr != nil:
			err = e.bad(start, "a <game> whose data %v", derr)
		default:
			err = e.put(Record{Line: start, Text: cells})
		}
		if err != nil {
			return err
		}
	}
}

// gameCells returns the puzzle of a game's data. A game the app itself
// exported holds its cells as the app saves them, "version: N", a line
// break, then value|note|editable| for each of the 81 cells (the note a
// number, or in version 1 a list such as "1,2," or "-"): its givens are
// the cells that may not be edited, and a value the player entered is
// not one. Any other data is the puzzle as written, 81 digits.
func gameCells(data string) (string, error) {
	rest, ok := strings.CutPrefix(data, "version:")
	if !ok {
		return data, nil
	}
	// The line break may reach here as a space: XML readers may turn one
	// written raw in an attribute into a space.
	rest = strings.TrimLeft(rest, " \t")
	n := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if n < 0 {
		n = len(rest)
	}
	version, cells := rest[:n], rest[n:]
	// The app splits the cells on '|' and skips empty fields: version 2
	// wrote some notes with a '|' too many.
	fields := strings.FieldsFunc(strings.TrimSpace(cells), func(r rune) bool { return r == '|' })
	if len(fields) != 3*81 {
		return "", fmt.Errorf("(OpenSudoku version %s) holds %d fields, want 3 for each of 81 cells", version, len(fields))
	}
	var b strings.Builder
	for i := 0; i < 81; i++ {
		value, editable := fields[3*i], fields[3*i+2]
		if len(value) != 1 || value[0] < '0' || value[0] > '9' || editable != "0" && editable != "1" {
			return "", fmt.Errorf("(OpenSudoku version %s) has cell %d as %q, want a digit, a note and 0 or 1", version, i+1, fields[3*i]+"|"+fields[3*i+1]+"|"+editable)
		}
		if editable == "1" || value == "0" {
			b.WriteByte('.')
		} else {
			b.WriteString(value)
		}
	}
	return b.String(), nil
}

// errRecorder remembers the error its reader failed with, to tell a
// failing reader from bad XML.
type errRecorder struct {
	r   io.Reader
	err error
}

func (e *errRecorder) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

// MaxRecord bounds what a CSV record or an XML token may take, so that a
// file without a closing quote or '>' cannot fill the memory.
const MaxRecord = 4 << 20

var errRecordTooLong = errors.New("a record longer than 4 MiB")

// limitReader fails with errRecordTooLong once left bytes have been read;
// its reader resets left before each record.
type limitReader struct {
	r    io.Reader
	left int
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errRecordTooLong
	}
	if len(p) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= n
	return n, err
}
