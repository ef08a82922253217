package export

import (
	"sudokubank/grade"
	"sudokubank/store"
)

// FromRow returns the bank row r as the item numbered n: the one place
// a row becomes the fields every format writes, so that bankquery's
// lists and exports and bankserve's JSON name them alike.
func FromRow(n int, r store.Row) Item {
	return Item{
		Number:    n,
		Size:      r.Size,
		ID:        r.ID,
		Family:    r.FamilyID,
		Puzzle:    r.Puzzle,
		Solution:  r.Solution,
		Givens:    r.Givens,
		Level:     r.Level,
		LevelName: grade.Level(r.Level).String(),
		Rating:    grade.Rating(r.ER).Float(),
		Pearl:     grade.Rating(r.EP).Float(),
		Diamond:   grade.Rating(r.ED).Float(),
		Score:     r.Score,
		Hardest:   r.Hardest,
		Symmetry:  r.Symmetry,
		Minimal:   r.Minimal,
		Source:    r.Source,
	}
}

// FromRows numbers rows from first as items.
func FromRows(rows []store.Row, first int) []Item {
	out := make([]Item, len(rows))
	for i, r := range rows {
		out[i] = FromRow(first+i, r)
	}
	return out
}
