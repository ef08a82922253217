package pipeline_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"sudokubank/pipeline"
)

func TestLines(t *testing.T) {
	in := "# a comment\n\nabc\r\n  def  # trailing\n#\nghi"
	var got []pipeline.Line
	err := pipeline.Lines(strings.NewReader(in))(context.Background(), func(l pipeline.Line) bool {
		got = append(got, l)
		return true
	})
	want := []pipeline.Line{{No: 3, Text: "abc"}, {No: 4, Text: "def"}, {No: 6, Text: "ghi"}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Lines = %v, %v, want %v", got, err, want)
	}
}

// TestLinesSkipsWhatIsNotAPuzzle reads files that used to lose lines: a
// byte order mark hid the first puzzle, and a line over 1 MiB ended the
// whole import. The long line is handed out as an error, numbered, and
// the lines after it are read.
func TestLinesSkipsWhatIsNotAPuzzle(t *testing.T) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	long := strings.Repeat("1", 1<<20+1)
	justFits := strings.Repeat("2", 1<<20)
	tests := []struct {
		name, in string
		want     []pipeline.Line
	}{
		{"ByteOrderMark", "\uFEFF" + p + "\n" + p + "\n", []pipeline.Line{{No: 1, Text: p}, {No: 2, Text: p}}},
		{"ByteOrderMarkCRLF", "\uFEFF" + p + "\r\n", []pipeline.Line{{No: 1, Text: p}}},
		{"ByteOrderMarkOnlyFirst", p + "\n\uFEFF" + p, []pipeline.Line{{No: 1, Text: p}, {No: 2, Text: "\uFEFF" + p}}},
		{"LongLine", p + "\n" + long + "\n" + p + "\n", []pipeline.Line{{No: 1, Text: p}, {No: 2, Err: pipeline.ErrLineTooLong}, {No: 3, Text: p}}},
		{"LongLastLine", p + "\n" + long, []pipeline.Line{{No: 1, Text: p}, {No: 2, Err: pipeline.ErrLineTooLong}}},
		{"LongLineCRLF", long + "\r\n" + p, []pipeline.Line{{No: 1, Err: pipeline.ErrLineTooLong}, {No: 2, Text: p}}},
		{"JustFits", justFits + "\n" + p, []pipeline.Line{{No: 1, Text: justFits}, {No: 2, Text: p}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []pipeline.Line
			err := pipeline.Lines(strings.NewReader(tt.in))(context.Background(), func(l pipeline.Line) bool {
				got = append(got, l)
				return true
			})
			if err != nil {
				t.Fatalf("Lines: %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Lines = %.200v, want %.200v", got, tt.want)
			}
		})
	}
}

// FuzzLines checks that the line reader never panics, numbers lines in
// rising order and hands out only trimmed, comment-free, non-empty text.
func FuzzLines(f *testing.F) {
	f.Add("# c\n\nabc\r\n  def  # x\n#\nghi")
	f.Add("\n\n\r\n")
	f.Add("\uFEFF# c\nabc")
	f.Fuzz(func(t *testing.T, in string) {
		last := 0
		err := pipeline.Lines(strings.NewReader(in))(context.Background(), func(l pipeline.Line) bool {
			if l.No <= last {
				t.Fatalf("line %d after line %d", l.No, last)
			}
			last = l.No
			if l.Err != nil {
				if l.Text != "" {
					t.Fatalf("line %d: error %v and text %q", l.No, l.Err, l.Text)
				}
				return true
			}
			if l.Text == "" || l.Text != strings.TrimSpace(l.Text) || strings.Contains(l.Text, "#") || strings.Contains(l.Text, "\n") {
				t.Fatalf("line %d: text %q", l.No, l.Text)
			}
			return true
		})
		if err != nil {
			t.Fatalf("Lines: %v", err)
		}
	})
}

// Records reads any format importfmt knows and places each puzzle.
func TestRecords(t *testing.T) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	in := "<?xml version=\"1.0\"?>\n<opensudoku version=\"2\">\n<folder name=\"f\">\n" +
		"<game data=\"" + p + "\" created=\"1\"/>\n<game note=\"none\"/>\n</folder>\n</opensudoku>\n"
	var got []pipeline.Line
	err := pipeline.Records(strings.NewReader(in))(context.Background(), func(l pipeline.Line) bool {
		got = append(got, l)
		return true
	})
	if err != nil || len(got) != 2 {
		t.Fatalf("Records = %v, %v; want 2 lines", got, err)
	}
	if got[0].Text != p || got[0].Where("f.xml") != "f.xml:4" {
		t.Errorf("first = %+v at %s, want the puzzle at f.xml:4", got[0], got[0].Where("f.xml"))
	}
	if got[1].Err == nil || got[1].Where("f.xml") != "f.xml:5" {
		t.Errorf("second = %+v at %s, want an error at f.xml:5", got[1], got[1].Where("f.xml"))
	}
}
