package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"sudokubank/grade"
)

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
