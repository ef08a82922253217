package importfmt_test

import (
	"bytes"
	"context"
	"testing"

	"sudokubank/importfmt"
)

// fuzzRead reads data as format f (or by detection when f is "") and
// checks what every reader promises: no error from an in-memory input,
// and every record either a text or an error, at a line within the input.
func fuzzRead(t *testing.T, f importfmt.Format, data []byte) {
	lines := bytes.Count(data, []byte("\n")) + 1
	check := func(r importfmt.Record) bool {
		if (r.Text == "") == (r.Err == nil) {
			t.Fatalf("record %+v: want a text or an error", r)
		}
		if r.Err == nil && r.Shape != importfmt.ShapeOf(r.Text) {
			t.Fatalf("record %+v: shape is not ShapeOf its text", r)
		}
		if r.Member == "" && (r.Line < 0 || r.Line > lines) {
			t.Fatalf("record %+v: line outside the input's %d", r, lines)
		}
		return true
	}
	var err error
	if f == "" {
		_, err = importfmt.Read(context.Background(), bytes.NewReader(data), check)
	} else {
		err = importfmt.ReadFormat(context.Background(), bytes.NewReader(data), f, check)
	}
	if err != nil {
		t.Fatalf("reading %q: %v", data, err)
	}
}

// fuzzSeeds adds export's goldens and a few hand-made inputs.
func fuzzSeeds(f *testing.F) {
	for _, g := range goldens {
		f.Add(MustGolden(f, g.file))
	}
	for _, s := range []string{"", "#\n", "1,puzzle\n\"a", "{", "<opensudoku><game data=\"1\"/>", "+---+\n|123|\n", "PK\x05\x06", "\uFEFF\"puzzle\";\"n\"\r\n1;\"2;3\"\r\n", "a\tpuzzle\n1\t2\n", "<opensudoku version=\"2\"><game data=\"version: 3&#10;5|0|0|0|12|1|\"/>"} {
		f.Add([]byte(s))
	}
}

func FuzzRead(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, "", data) })
}

func FuzzLines(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, importfmt.Lines, data) })
}

func FuzzGrid(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, importfmt.Grid, data) })
}

func FuzzCSV(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, importfmt.CSV, data) })
}

func FuzzJSON(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, importfmt.JSON, data) })
}

func FuzzOpenSudoku(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, importfmt.OpenSudoku, data) })
}

func FuzzZip(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, importfmt.Zip, data) })
}
