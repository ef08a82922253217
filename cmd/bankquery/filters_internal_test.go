package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"sudokubank/grade"
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
			got, err := parseLevels(tt.in)
			if (err != nil) != tt.wantErr || (err == nil && fmt.Sprint(got) != tt.want) {
				t.Errorf("parseLevels(%q) = %v, %v; want %s, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// The score parser never panics, and what it accepts is a sound range:
// lower not above upper, the store's "no bound" only at an open end.
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
			if p != nil && !(*p >= 0 && *p <= 5) {
				t.Errorf("parseScoreRange(%q) has bound %v", s, *p)
			}
		}
		if lo != nil && hi != nil && *lo > *hi {
			t.Errorf("parseScoreRange(%q) = %v, %v", s, *lo, *hi)
		}
	})
}

func FuzzParseLevels(f *testing.F) {
	for _, s := range []string{"easy,evil", "5,1,evil", "Extremely-Easy", "0", "6", "hard", "easy,,evil", "", "1,2,3,4,5,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		levels, err := parseLevels(s)
		if err != nil {
			if !strings.Contains(err.Error(), "level") {
				t.Errorf("parseLevels(%q) error %q does not say what is wrong", s, err)
			}
			return
		}
		if len(levels) == 0 || len(levels) > 5 {
			t.Errorf("parseLevels(%q) = %v", s, levels)
		}
		for i, l := range levels {
			if l < 1 || l > 5 || (i > 0 && levels[i-1] >= l) {
				t.Errorf("parseLevels(%q) = %v, want rising levels 1..5", s, levels)
			}
		}
	})
}

// Every filter flag's error names the flag and the value, for any value.
func FuzzFilterErrors(f *testing.F) {
	f.Add("level", "nightmare")
	f.Add("rating", "7-x")
	f.Add("givens", "30-20")
	f.Add("score", "x")
	f.Add("technique", "x-wingz")
	f.Add("symmetry", "rot45")
	f.Fuzz(func(t *testing.T, name, value string) {
		ff := &filterFlags{}
		switch name {
		case "level":
			ff.level = value
		case "rating":
			ff.rating = value
		case "givens":
			ff.givens = value
		case "score":
			ff.score = value
		case "technique":
			ff.technique = value
		case "symmetry":
			ff.symmetry = value
		default:
			return
		}
		if value == "" {
			return
		}
		_, err := ff.filter()
		if err == nil {
			return
		}
		if want := fmt.Sprintf("-%s %q: ", name, value); !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %q, want it to start with %q", err, want)
		}
		if ExitCode(err) != exitUsage {
			t.Errorf("exit status %d for a bad -%s, want %d", ExitCode(err), name, exitUsage)
		}
	})
}

func TestRuns(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", "a"},
		{"a a a b a", "a x3, b, a"},
		{"full-house:1.0 full-house:1.0 claiming:2.8", "full-house:1.0 x2, claiming:2.8"},
	}
	for _, tt := range tests {
		if got := runs(strings.Fields(tt.in)); got != tt.want {
			t.Errorf("runs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// compareTechniques, which stats and show list techniques by, puts the
// grader's techniques in its order, then slugs it does not know by name.
func TestCompareTechniques(t *testing.T) {
	var want []string
	for _, tc := range grade.Techniques() {
		want = append(want, tc.Slug())
	}
	want = append(want, "aaa-retired", "zzz-retired")
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, compareTechniques)
	if !slices.Equal(got, want) {
		t.Errorf("sorted: %v\nwant %v", got, want)
	}
}
