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
// (level, givens) bucket and per (technique, level).
type Counts struct {
	Families   int64       `json:"families"`
	Puzzles    int64       `json:"puzzles"`
	Levels     []Level     `json:"levels"`
	Buckets    []Bucket    `json:"buckets"`
	Techniques []Technique `json:"techniques"`
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
// techniques in the grader's order, levels rising within each.
func Of(st store.Stats) Counts {
	c := Counts{Families: st.Families, Puzzles: st.Puzzles, Buckets: []Bucket{}, Techniques: []Technique{}}
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		c.Levels = append(c.Levels, Level{Level: int(l), Name: l.String()})
	}
	for _, b := range st.Buckets {
		c.Buckets = append(c.Buckets, Bucket(b))
		if b.Level >= 1 && b.Level <= len(c.Levels) {
			c.Levels[b.Level-1].Families += b.Families
			c.Levels[b.Level-1].Puzzles += b.Puzzles
		}
	}
	for _, t := range st.Techniques {
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
