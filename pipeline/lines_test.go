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
	want := []pipeline.Line{{3, "abc"}, {4, "def"}, {6, "ghi"}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Lines = %v, %v, want %v", got, err, want)
	}
}

func TestParseLine(t *testing.T) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"Plain", p, true},
		{"Zeros", strings.ReplaceAll(p, ".", "0"), true},
		{"Rated", p + " 9.0 1.2 1.2 forum", true},
		{"Short", p[:80], false},
		{"Letters", "x" + p[1:], false},
		{"Repeated", "44" + p[2:], false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := pipeline.ParseLine(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("ParseLine error = %v, want ok %v", err, tt.ok)
			}
			if tt.ok && g.String() != p {
				t.Errorf("ParseLine = %s, want %s", g, p)
			}
		})
	}
	if got := pipeline.GridOf(p); got.String() != p {
		t.Errorf("GridOf = %s, want %s", got, p)
	}
}
