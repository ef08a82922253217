package summary_test

import (
	"testing"

	"sudokubank/internal/summary"
	"sudokubank/store"
)

func TestOf(t *testing.T) {
	st := store.Stats{Families: 3, Puzzles: 7,
		Buckets:    []store.Bucket{{Level: 2, Givens: 30, Families: 1, Puzzles: 2}, {Level: 2, Givens: 31, Families: 1, Puzzles: 4}, {Level: 5, Givens: 24, Families: 1, Puzzles: 1}},
		Techniques: []store.TechniqueCount{{Technique: "x-wing", Level: 3, Families: 1, Puzzles: 1}, {Technique: "naked-single", Level: 2, Families: 2, Puzzles: 6}}}
	c := summary.Of(st)
	if len(c.Levels) != 5 || c.Levels[1].Name != "easy" || c.Levels[1].Families != 2 || c.Levels[1].Puzzles != 6 || c.Levels[4].Puzzles != 1 || c.Levels[0].Families != 0 {
		t.Errorf("levels %+v", c.Levels)
	}
	if len(c.Buckets) != 3 {
		t.Errorf("buckets %+v", c.Buckets)
	}
	if len(c.Techniques) != 2 || c.Techniques[0].Technique != "naked-single" {
		t.Errorf("techniques %+v, want the grader's order (naked-single first)", c.Techniques)
	}
	if c.Techniques[0].Name != "Naked single" || c.Techniques[1].Name != "X-wing" {
		t.Errorf("techniques %+v, want the display names beside the slugs", c.Techniques)
	}
	// A slug this grader does not know names itself.
	if u := summary.Of(store.Stats{Techniques: []store.TechniqueCount{{Technique: "new-trick", Level: 5}}}); u.Techniques[0].Name != "new-trick" {
		t.Errorf("unknown technique: %+v, want its slug as its name", u.Techniques)
	}
	empty := summary.Of(store.Stats{})
	if len(empty.Levels) != 5 || empty.Buckets == nil || empty.Techniques == nil {
		t.Errorf("empty bank: %+v; want every level and empty lists, not null", empty)
	}
}
