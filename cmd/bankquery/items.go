package main

import (
	"sudokubank/export"
	"sudokubank/grade"
	"sudokubank/store"
)

// item turns a bank row into the export item numbered n.
func item(n int, r store.Row) export.Item {
	return export.Item{
		Number:    n,
		ID:        r.ID,
		Family:    r.FamilyID,
		Puzzle:    r.Puzzle,
		Solution:  r.Solution,
		Givens:    r.Givens,
		Level:     r.Level,
		LevelName: levelName(r.Level),
		Rating:    tenths(r.ER),
		Pearl:     tenths(r.EP),
		Diamond:   tenths(r.ED),
		Score:     r.Score,
		Hardest:   r.Hardest,
		Symmetry:  r.Symmetry,
		Minimal:   r.Minimal,
		Source:    r.Source,
	}
}

// items numbers rows from first as export items.
func items(rows []store.Row, first int) []export.Item {
	out := make([]export.Item, len(rows))
	for i, r := range rows {
		out[i] = item(first+i, r)
	}
	return out
}

// levelName returns the name of level l, such as "evil".
func levelName(l int) string { return grade.Level(l).String() }

// tenths returns a rating in tenths as a number: 23 is 2.3.
func tenths(r int) float64 { return grade.Rating(r).Float() }
