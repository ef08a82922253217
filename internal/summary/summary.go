// Package summary is a bank's counts as JSON: the object that bankquery
// stats -json prints and bankserve serves at /api/v1/stats, defined once
// so that both keep the same names.
package summary

import (
	"cmp"
	"slices"

	"sudokubank/grade"
	"sudokubank/store"
)

// Counts is the bank's families and puzzles, in all, per level, per
// (level, givens) bucket and per (technique, level), over every size.
// A bank that holds a size other than 9x9 has the same counts per size
// in Sizes; a bank of 9x9 puzzles alone has none, and reads as before
// banks held sizes.
type Counts struct {
	Families   int64       `json:"families"`
	Puzzles    int64       `json:"puzzles"`
	Levels     []Level     `json:"levels"`
	Buckets    []Bucket    `json:"buckets"`
	Techniques []Technique `json:"techniques"`
	// Sizes holds the counts of each size, smallest first.
	Sizes []Size `json:"sizes,omitempty"`
}

// Size is the counts of the families and puzzles of one size.
type Size struct {
	Size int `json:"size"` // N of the N x N grids
	Counts
}

// Level counts the families and puzzles of one level.
type Level struct {
	Level    int    `json:"level"`
	Name     string `json:"name"`
	Families int64  `json:"families"`
	Puzzles  int64  `json:"puzzles"`
}

// Bucket counts the families and puzzles of one level with one number of
// givens.
type Bucket struct {
	Level    int   `json:"level"`
	Givens   int   `json:"givens"`
	Families int64 `json:"families"`
	Puzzles  int64 `json:"puzzles"`
}

// Technique counts the families of one level whose solve uses one
// technique, and their puzzles.
type Technique struct {
	Technique string `json:"technique"`
	Name      string `json:"name"` // the display name, such as "X-wing"
	Level     int    `json:"level"`
	Families  int64  `json:"families"`
	Puzzles   int64  `json:"puzzles"`
}

// Of returns the counts of st: every level, empty ones too, and the
// techniques in the grader's order, levels rising within each; and,
// unless st holds 9x9 puzzles alone (or nothing), the same per size.
func Of(st store.Stats) Counts {
	c := counts(st)
	sizes := st.Sizes()
	if len(sizes) == 0 || len(sizes) == 1 && (sizes[0] == 9 || sizes[0] == 0) {
		return c
	}
	for _, n := range sizes {
		c.Sizes = append(c.Sizes, Size{Size: n, Counts: counts(st.OfSize(n))})
	}
	return c
}

// OfSize returns the counts of the size x size grids of st alone, as
// one of Of's Sizes: every level, empty ones too, even where st holds
// no grid of that size.
func OfSize(st store.Stats, size int) Size {
	return Size{Size: size, Counts: counts(st.OfSize(size))}
}

// counts returns the counts of st, over whatever sizes it holds: the
// buckets and techniques of several sizes are summed by their (level,
// givens) and (technique, level).
func counts(st store.Stats) Counts {
	c := Counts{Families: st.Families, Puzzles: st.Puzzles, Buckets: []Bucket{}, Techniques: []Technique{}}
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		c.Levels = append(c.Levels, Level{Level: int(l), Name: l.String()})
	}
	buckets := map[[2]int]int{} // (level, givens) -> index in c.Buckets
	for _, b := range st.Buckets {
		k := [2]int{b.Level, b.Givens}
		if i, ok := buckets[k]; ok {
			c.Buckets[i].Families += b.Families
			c.Buckets[i].Puzzles += b.Puzzles
		} else {
			buckets[k] = len(c.Buckets)
			c.Buckets = append(c.Buckets, Bucket{Level: b.Level, Givens: b.Givens, Families: b.Families, Puzzles: b.Puzzles})
		}
		if b.Level >= 1 && b.Level <= len(c.Levels) {
			c.Levels[b.Level-1].Families += b.Families
			c.Levels[b.Level-1].Puzzles += b.Puzzles
		}
	}
	slices.SortFunc(c.Buckets, func(a, b Bucket) int {
		return cmp.Or(cmp.Compare(a.Level, b.Level), cmp.Compare(a.Givens, b.Givens))
	})
	techs := map[Technique]int{} // (technique, level) -> index in c.Techniques
	for _, t := range st.Techniques {
		k := Technique{Technique: t.Technique, Level: t.Level}
		if i, ok := techs[k]; ok {
			c.Techniques[i].Families += t.Families
			c.Techniques[i].Puzzles += t.Puzzles
			continue
		}
		techs[k] = len(c.Techniques)
		c.Techniques = append(c.Techniques, Technique{Technique: t.Technique, Name: techniqueName(t.Technique), Level: t.Level, Families: t.Families, Puzzles: t.Puzzles})
	}
	// A (technique, level) has one entry, so the order is total.
	slices.SortFunc(c.Techniques, func(a, b Technique) int {
		return cmp.Or(grade.CompareSlugs(a.Technique, b.Technique), cmp.Compare(a.Level, b.Level))
	})
	return c
}

// techniqueName returns the display name of the technique slug, or the
// slug when the grader does not know it (a bank of another version).
func techniqueName(slug string) string {
	if t, ok := grade.ParseTechnique(slug); ok {
		return t.String()
	}
	return slug
}
