package grade

import (
	"sudokubank/grid"
	"sudokubank/solve"
)

// Metrics are the four raw measures of the dig-hole paper's composite
// score (seeds/002, ../shared/GRADING.md), kept in the grade so that a
// different weighting can be recomputed without solving again.
type Metrics struct {
	Givens      int    // filled cells
	MinRowCol   int    // the fewest givens in any row or column
	ER          Rating // the techniques a person needs: the grade's ER
	SearchNodes int    // solve.Solver search nodes for a count to 2
}

// Weights weigh the four metrics, in the order of Metrics' fields.
type Weights [4]float64

// PaperWeights are the paper's example weights: givens 0.4, row/column
// bound 0.2, techniques 0.2, search effort 0.2.
var PaperWeights = Weights{0.4, 0.2, 0.2, 0.2}

// MetricsOf returns the givens metrics of p; ER and SearchNodes are left
// for the grader to fill.
func MetricsOf(p solve.Grid) Metrics {
	var rows, cols [9]int
	n := 0
	for c, v := range p {
		if v != 0 {
			n++
			rows[c/9]++
			cols[c%9]++
		}
	}
	low := 9
	for i := 0; i < 9; i++ {
		low = min(low, rows[i], cols[i])
	}
	return Metrics{Givens: n, MinRowCol: low}
}

// GivensScore maps the number of givens onto 1..5 with the givens ranges
// of the paper's level table: more than 49 is 1 (the paper says "more
// than 50" and starts level 2 at 49, so 50 goes to level 1), 36-49 is 2,
// 32-35 is 3, 28-31 is 4, 27 or fewer is 5.
func GivensScore(givens int) int {
	switch {
	case givens >= 50:
		return 1
	case givens >= 36:
		return 2
	case givens >= 32:
		return 3
	case givens >= 28:
		return 4
	}
	return 5
}

// RowColScore maps the lowest number of givens in a row or column onto
// 1..5 with the bounds of the paper's level table: 5 or more is 1, 4 is
// 2, 3 is 3, 2 is 4, 1 or 0 is 5.
func RowColScore(low int) int {
	switch {
	case low >= 5:
		return 1
	case low == 4:
		return 2
	case low == 3:
		return 3
	case low == 2:
		return 4
	}
	return 5
}

// ERScore maps an ER onto 1..5: the bank level of that ER (the Levels
// table).
func ERScore(er Rating) int { return int(LevelOf(er)) }

// SearchBreaks are the search-node counts (solve.Solver, Count to 2)
// that start scores 2, 3, 4 and 5: one more than the quintiles of
// minimal puzzles dug from random grids, raised where needed so that
// they rise strictly. They depend on the solver's search: when package
// solve changes it, go test -run SearchBreaks -accuracy prints new ones.
var SearchBreaks = [4]int{2, 3, 4, 6}

// SearchScore maps a search-node count onto 1..5 with SearchBreaks.
func SearchScore(nodes int) int {
	s := 1
	for _, b := range SearchBreaks {
		if nodes >= b {
			s++
		}
	}
	return s
}

// Score combines the four metrics, each mapped onto 1..5, into a weighted
// average on 1.0..5.0. Negative weights count as zero; all-zero weights
// give 0.
func (m Metrics) Score(w Weights) float64 {
	s := [4]int{GivensScore(m.Givens), RowColScore(m.MinRowCol), ERScore(m.ER), SearchScore(m.SearchNodes)}
	var sum, tw float64
	for i, x := range s {
		if w[i] > 0 {
			sum += w[i] * float64(x)
			tw += w[i]
		}
	}
	if tw == 0 {
		return 0
	}
	return sum / tw
}

// Score returns the composite score of gr, a grade of a puzzle of shape
// s, with PaperWeights, as the bank stores it. The score's breaks are
// defined on 9x9 counts, so the givens are scaled to 81 cells and the
// sparsest row or column to 9 first.
func (gr *SizedGrade) Score(s grid.Shape) float64 {
	m := Metrics{
		Givens:      (gr.Givens*81 + s.Cells()/2) / s.Cells(),
		MinRowCol:   (gr.MinRowCol*9 + s.N/2) / s.N,
		ER:          gr.ER,
		SearchNodes: gr.SearchNodes,
	}
	return m.Score(PaperWeights)
}
