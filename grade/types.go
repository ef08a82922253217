// Package grade rates Sudoku puzzles the way a person solves them: it
// applies the easiest technique that makes progress, step by step, and
// rates the puzzle by the hardest step on the Sudoku Explainer (SE) scale.
// It also maps the rating onto the bank's five levels and computes the
// dig-hole paper's composite score. It does not generate or store puzzles.
package grade

import (
	"fmt"
	"strconv"
	"strings"

	"sudokubank/solve"
)

// Rating is a difficulty on the SE scale in tenths: 23 means 2.3.
// Tenths keep comparisons exact; the scale never uses finer steps.
type Rating int

// String formats the rating with one decimal, as SE prints it: "2.3".
func (r Rating) String() string { return fmt.Sprintf("%d.%d", r/10, r%10) }

// Float returns the rating as a number, 2.3 for 23.
func (r Rating) Float() float64 { return float64(r) / 10 }

// Level is one of the bank's five difficulty levels, 1 to 5.
type Level uint8

// The five levels, named after the dig-hole paper (seeds/002).
const (
	ExtremelyEasy Level = 1 + iota
	Easy
	Medium
	Difficult
	Evil
)

// Levels holds each level's name and the highest ER it takes, from
// ../shared/GRADING.md ("The bank's five levels"). Evil has no ceiling.
var Levels = [...]struct {
	Level Level
	Name  string
	MaxER Rating
}{
	{ExtremelyEasy, "extremely-easy", 15},
	{Easy, "easy", 23},
	{Medium, "medium", 40},
	{Difficult, "difficult", 69},
	{Evil, "evil", 1 << 30},
}

// LevelOf returns the level of a puzzle whose hardest step rates er.
func LevelOf(er Rating) Level {
	for _, l := range Levels {
		if er <= l.MaxER {
			return l.Level
		}
	}
	return Evil
}

// String returns the level's name, such as "extremely-easy".
func (l Level) String() string {
	if l >= ExtremelyEasy && l <= Evil {
		return Levels[l-1].Name
	}
	return "level(" + strconv.Itoa(int(l)) + ")"
}

// ParseLevel reads a level by name ("evil") or number ("5").
func ParseLevel(s string) (Level, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, l := range Levels {
		if t == l.Name || t == strconv.Itoa(int(l.Level)) {
			return l.Level, nil
		}
	}
	return 0, fmt.Errorf("unknown level %q (want 1-5 or one of extremely-easy, easy, medium, difficult, evil)", s)
}

// Candidates are pencil marks: bit d (1..9) of cell i is set when digit d
// may still go in cell i. Bit 0 is never set.
type Candidates [81]uint16

// Position is the state of a logical solve: the digits placed so far and
// the candidates of the empty cells (a placed cell has no candidates).
type Position struct {
	Grid  solve.Grid
	Cands Candidates
}

// Placement puts Digit in Cell (0..80).
type Placement struct{ Cell, Digit uint8 }

// Elimination removes candidate Digit from Cell (0..80).
type Elimination struct{ Cell, Digit uint8 }

// Step is one move of a logical solve: the technique, its rating, what it
// looked at and what it concluded. A solve's steps form a hint path.
type Step struct {
	Technique    Technique
	Rating       Rating
	Cells        []uint8 // the cells of the pattern
	Digits       uint16  // the digits of the pattern, as a mask (bit d for digit d)
	Placements   []Placement
	Eliminations []Elimination
}

// The chain of a linear chain step is kept beside the path
// (Grade.Links), not in Step, so that a Step stays as small as the
// grading of a bank needs it.

// ChainNode is a candidate of a chain, Digit in Cell (0..80), and what
// the chain assumes of it: On true when the digit is placed there, false
// when it is removed.
type ChainNode struct {
	Cell, Digit uint8
	On          bool
}

// Link is one inference of a chain: if From holds, To holds. Strong
// links go from an off node to an on node (one of two candidates must
// be true), weak links from an on node to an off node (two candidates
// cannot both be true).
type Link struct {
	From, To ChainNode
	Strong   bool
}

// Named reports whether the step has a pattern worth naming beside its
// conclusions: cells or digits beyond the one cell that a single fills.
func (st Step) Named() bool {
	var placed uint8
	if len(st.Placements) == 1 {
		placed = st.Placements[0].Cell
	}
	return named(st.Cells, len(st.Placements), placed, len(st.Eliminations), st.Digits != 0)
}

// CellName names cell c (0..80, row by row) as rNcM, from r1c1 to r9c9.
func CellName(c uint8) string {
	return "r" + strconv.Itoa(int(c)/9+1) + "c" + strconv.Itoa(int(c)%9+1)
}
