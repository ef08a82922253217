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
	empty := summary.Of(store.Stats{})
	if len(empty.Levels) != 5 || empty.Buckets == nil || empty.Techniques == nil {
		t.Errorf("empty bank: %+v; want every level and empty lists, not null", empty)
	}
}

// A bank with a size other than 9x9 has its counts per size beside the
// totals, which sum the sizes' buckets and techniques by their keys.
func TestOfSizes(t *testing.T) {
	st := store.Stats{Families: 4, Puzzles: 9,
		Buckets: []store.Bucket{{Size: 4, Level: 1, Givens: 10, Families: 1, Puzzles: 1}, {Size: 9, Level: 1, Givens: 10, Families: 2, Puzzles: 6},
			{Size: 16, Level: 3, Givens: 120, Families: 1, Puzzles: 2}},
		Techniques: []store.TechniqueCount{{Size: 4, Technique: "full-house", Level: 1, Families: 1, Puzzles: 1}, {Size: 9, Technique: "full-house", Level: 1, Families: 2, Puzzles: 6}}}
	c := summary.Of(st)
	if len(c.Sizes) != 3 || c.Sizes[0].Size != 4 || c.Sizes[1].Size != 9 || c.Sizes[2].Size != 16 {
		t.Fatalf("sizes %+v, want 4, 9 and 16", c.Sizes)
	}
	if len(c.Buckets) != 2 || c.Buckets[0].Families != 3 || c.Buckets[0].Puzzles != 7 || c.Levels[0].Families != 3 || c.Levels[2].Puzzles != 2 {
		t.Errorf("totals: buckets %+v, levels %+v", c.Buckets, c.Levels)
	}
	if len(c.Techniques) != 1 || c.Techniques[0].Families != 3 {
		t.Errorf("techniques of every size %+v, want full-house 3 at level 1", c.Techniques)
	}
	if s := c.Sizes[2]; s.Families != 1 || s.Puzzles != 2 || len(s.Buckets) != 1 || s.Buckets[0].Givens != 120 || len(s.Techniques) != 0 || s.Sizes != nil {
		t.Errorf("16x16: %+v", s)
	}
	one := store.Stats{Families: 1, Puzzles: 1, Buckets: []store.Bucket{{Size: 16, Level: 2, Givens: 120, Families: 1, Puzzles: 1}}}
	if c := summary.Of(one); len(c.Sizes) != 1 || c.Sizes[0].Size != 16 {
		t.Errorf("a bank of 16x16 alone: sizes %+v, want its one size", c.Sizes)
	}
	if c := summary.Of(st.OfSize(9)); c.Sizes != nil {
		t.Errorf("a bank of 9x9 alone: sizes %+v, want none", c.Sizes)
	}
}
