package main

import (
	"sudokubank/export"
	"sudokubank/grade"
	"sudokubank/store"
)

// item turns a bank row into the export item numbered n.
func item(n int, r store.Row) export.Item { return export.FromRow(n, r) }

// items numbers rows from first as export items.
func items(rows []store.Row, first int) []export.Item { return export.FromRows(rows, first) }

// levelName returns the name of level l, such as "evil".
func levelName(l int) string { return grade.Level(l).String() }

// tenths returns a rating in tenths as a number: 23 is 2.3.
func tenths(r int) float64 { return grade.Rating(r).Float() }
