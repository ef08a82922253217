package filters

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseLevels(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{"easy,evil", "[2 5]", false},
		{"5,1,evil", "[1 5]", false},
		{"Extremely-Easy", "[1]", false},
		{"medium, difficult", "[3 4]", false},
		{"0", "", true},
		{"6", "", true},
		{"hard", "", true},
		{"easy,,evil", "", true},
		{"", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseLevels(tt.in)
			if (err != nil) != tt.wantErr || (err == nil && fmt.Sprint(got) != tt.want) {
				t.Errorf("ParseLevels(%q) = %v, %v; want %s, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// The score parser never panics, and what it accepts is a sound range:
// bounds in range, lower not above upper, the store's "no bound" only at
// an open end (ranges.FuzzTenths does the same for ratings).
func FuzzParseScoreRange(f *testing.F) {
	for _, s := range []string{"3-5", "3-", "-4.5", "4", "NaN-", "Inf-", "5-3", "1e0-2e0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi, err := parseScoreRange(s)
		if err != nil {
			return
		}
		if lo == nil && hi == nil {
			t.Errorf("parseScoreRange(%q) has no bound", s)
		}
		for _, p := range []*float64{lo, hi} {
			if p != nil && !(*p >= 1 && *p <= 5) {
				t.Errorf("parseScoreRange(%q) has bound %v", s, *p)
			}
		}
		if lo != nil && hi != nil && *lo > *hi {
			t.Errorf("parseScoreRange(%q) = %v, %v", s, *lo, *hi)
		}
	})
}

// TestParseScoreRange checks the bounds the score filter takes: those
// within 1.0-5.0, the score's range, and nothing below it any more than
// above (0.5 was once taken, though the message for 5.5 named 1.0-5.0).
func TestParseScoreRange(t *testing.T) {
	for _, s := range []string{"1", "1-2", "3-5", "4.5-", "-1.5", "5", "1.0-5.0"} {
		if _, _, err := parseScoreRange(s); err != nil {
			t.Errorf("parseScoreRange(%q): %v", s, err)
		}
	}
	for _, s := range []string{"0", "0.5", "0-2", "0.99-", "-0.5", "5.5", "5.01", "1-6", "3-2", "x"} {
		if _, _, err := parseScoreRange(s); err == nil {
			t.Errorf("parseScoreRange(%q) took it; want an error", s)
		}
	}
	_, err := Values{Score: "0.5"}.Filter()
	if err == nil || !strings.Contains(err.Error(), `score "0.5": 0.5 is out of the score's range 1.0-5.0`) {
		t.Errorf("score 0.5: error %v, want one naming the score's range", err)
	}
}

func FuzzParseLevels(f *testing.F) {
	for _, s := range []string{"easy,evil", "5,1,evil", "Extremely-Easy", "0", "6", "hard", "easy,,evil", "", "1,2,3,4,5,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		levels, err := ParseLevels(s)
		if err != nil {
			if !strings.Contains(err.Error(), "level") {
				t.Errorf("ParseLevels(%q) error %q does not say what is wrong", s, err)
			}
			return
		}
		if len(levels) == 0 || len(levels) > 5 {
			t.Errorf("ParseLevels(%q) = %v", s, levels)
		}
		for i, l := range levels {
			if l < 1 || l > 5 || (i > 0 && levels[i-1] >= l) {
				t.Errorf("ParseLevels(%q) = %v, want rising levels 1..5", s, levels)
			}
		}
	})
}

// Each bad value's error is an *Error naming its filter and the value.
func TestValuesErrors(t *testing.T) {
	tests := []struct {
		name string
		v    Values
	}{
		{"level", Values{Level: "nightmare"}},
		{"rating", Values{Rating: "7-x"}},
		{"givens", Values{Givens: "30-20"}},
		{"score", Values{Score: "x"}},
		{"technique", Values{Technique: "x-wingz"}},
		{"hardest", Values{Hardest: "x"}},
		{"symmetry", Values{Symmetry: "rot45"}},
		{"size", Values{Size: "7"}},
		{"size", Values{Size: "16x9"}},
		{"givens", Values{Size: "4", Givens: "17"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.v.Filter()
			var fe *Error
			if !errors.As(err, &fe) || fe.Name != tt.name || fe.Value == "" {
				t.Errorf("error %v, want one naming %s and its value", err, tt.name)
			}
		})
	}
	for _, tt := range []struct {
		v        Values
		size     int
		min, max int
	}{
		{Values{Size: "16"}, 16, 0, 0},
		{Values{Size: "16x16", Givens: "100-120"}, 16, 100, 120},
		{Values{Size: " 4 ", Givens: "6-"}, 4, 6, 0},
		{Values{Size: "9", Givens: "-30"}, 9, 0, 30},
	} {
		f, err := tt.v.Filter()
		if err != nil || f.Size != tt.size || f.GivensMin != tt.min || f.GivensMax != tt.max {
			t.Errorf("%+v: Filter() = size %d, givens %d-%d, %v; want size %d, givens %d-%d",
				tt.v, f.Size, f.GivensMin, f.GivensMax, err, tt.size, tt.min, tt.max)
		}
	}
	f, err := Values{Level: "evil,1", Rating: "7-", Symmetry: "ROT180", Minimal: true, Source: "gen"}.Filter()
	if err != nil || fmt.Sprint(f.Levels) != "[1 5]" || f.RatingMin != 70 || f.Symmetry != "rot180" || !f.Minimal || f.Source != "gen" {
		t.Errorf("Filter() = %+v, %v", f, err)
	}
}
