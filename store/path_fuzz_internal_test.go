package store

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzPathSteps reads any path column, as a damaged bank may hold: it
// never panics, never expands to more steps than a solve can have, a
// refusal wraps errPath and quotes the path, a list-form path reads as
// its words, and what a runs-form path reads encodes back (EncodePath)
// to a path that reads as the same steps.
func FuzzPathSteps(f *testing.F) {
	for _, s := range []string{"", ",full-house,a", ",hidden-single-box,full-house,bug-1,a2bc3b", "naked-single full-house",
		",x-wing,a12", ",a,b", ",a,a1", ",a,a0", ",,a", ",a", ",", ",a,a99999999999", "a,b", ",A B,a", ",a,a02", ",a,Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		steps, err := PathSteps(path)
		if err != nil {
			if !errors.Is(err, errPath) || !strings.Contains(err.Error(), strconv.Quote(path)) {
				t.Fatalf("PathSteps(%q): error %v does not wrap errPath and quote the path", path, err)
			}
			if _, cerr := pathCounts(path); cerr == nil {
				t.Fatalf("PathSteps(%q) fails (%v) but pathCounts reads it", path, err)
			}
			return
		}
		if !pathHasCounts(path) {
			// The list form is words as an older writer left them, not
			// always slugs, which the runs form would refuse.
			if !slices.Equal(steps, strings.Fields(path)) {
				t.Fatalf("PathSteps(%q) = %q, want its words", path, steps)
			}
			return
		}
		if len(steps) > maxPathSteps {
			t.Fatalf("PathSteps(%q) = %d steps, more than %d", path, len(steps), maxPathSteps)
		}
		counts, err := pathCounts(path)
		if err != nil {
			t.Fatalf("PathSteps(%q) reads but pathCounts says %v", path, err)
		}
		for slug, n := range counts {
			if got := countSlug(steps, slug); got != n {
				t.Fatalf("path %q: pathCounts[%q] = %d, PathSteps has %d", path, slug, n, got)
			}
		}
		enc, err := EncodePath(steps)
		if err != nil {
			t.Fatalf("PathSteps(%q) = %q, which EncodePath refuses: %v", path, steps, err)
		}
		back, err := PathSteps(enc)
		if err != nil || !slices.Equal(back, steps) {
			t.Fatalf("path %q: steps %q encode as %q, which reads as %q, %v", path, steps, enc, back, err)
		}
	})
}

// countSlug returns how many of steps are slug.
func countSlug(steps []string, slug string) int {
	n := 0
	for _, s := range steps {
		if s == slug {
			n++
		}
	}
	return n
}
