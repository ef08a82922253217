package solve_test

import (
	"strings"
	"testing"

	"sudokubank/solve"
)

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
			g, err := solve.ParseLine(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("ParseLine error = %v, want ok %v", err, tt.ok)
			}
			if tt.ok && g.String() != p {
				t.Errorf("ParseLine = %s, want %s", g, p)
			}
		})
	}
	if got := solve.GridOf(p); got.String() != p {
		t.Errorf("GridOf = %s, want %s", got, p)
	}
}

// FuzzParseLine checks that ParseLine never panics and that an accepted
// line gives a grid that solve.Parse reads back from its String.
func FuzzParseLine(f *testing.F) {
	const p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	f.Add(p)
	f.Add(p + " 9.0 1.2 1.2 forum")
	f.Add(strings.ReplaceAll(p, ".", "0") + "\tx")
	f.Add("|4 . . |. . . |8 . 5|")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := solve.ParseLine(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("ParseLine(%q): empty error", s)
			}
			return
		}
		back, err := solve.Parse(g.String())
		if err != nil || back != g {
			t.Fatalf("ParseLine(%q) = %s, which parses back to %s, %v", s, g, back, err)
		}
	})
}
