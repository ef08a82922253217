package grade

import (
	"fmt"
	"strings"

	"sudokubank/grid"
)

// The words of a hint. One pair of formatters serves every size: a 9x9
// Step is read through its SizedStep view (Step.Sized), cells are named
// by the grid's shape (grid.Shape.CellName: r1c1, r10c12) and values are
// written as the grid's symbols (grid.Symbol: 1-9, then A for 10), the
// characters the puzzle's text and drawn grid show.

// Sized returns the step as a SizedStep of a 9x9 grid, the view the
// hint formatters read: the same cells, digits and conclusions.
func (st Step) Sized() SizedStep {
	out := SizedStep{Technique: st.Technique, Rating: st.Rating, Digits: uint32(st.Digits)}
	if len(st.Cells) > 0 {
		out.Cells = make([]uint16, len(st.Cells))
		for i, c := range st.Cells {
			out.Cells[i] = uint16(c)
		}
	}
	if len(st.Placements) > 0 {
		out.Placements = make([]SizedCandidate, len(st.Placements))
		for i, p := range st.Placements {
			out.Placements[i] = SizedCandidate{Cell: uint16(p.Cell), Digit: p.Digit}
		}
	}
	if len(st.Eliminations) > 0 {
		out.Eliminations = make([]SizedCandidate, len(st.Eliminations))
		for i, e := range st.Eliminations {
			out.Eliminations[i] = SizedCandidate{Cell: uint16(e.Cell), Digit: e.Digit}
		}
	}
	return out
}

// SizedPath returns a 9x9 hint path as SizedSteps (see Step.Sized).
func SizedPath(path []Step) []SizedStep {
	out := make([]SizedStep, len(path))
	for i, st := range path {
		out[i] = st.Sized()
	}
	return out
}

// SizedLinks returns gr.Links for the SizedSteps of its path
// (SizedPath), as SizedGrade.Links holds them: nil when gr has none.
func (gr *Grade) SizedLinks() [][]SizedLink {
	if gr.Links == nil {
		return nil
	}
	node := func(n ChainNode) SizedChainNode {
		return SizedChainNode{Cell: uint16(n.Cell), Digit: n.Digit, On: n.On}
	}
	out := make([][]SizedLink, len(gr.Links))
	for i, ls := range gr.Links {
		if len(ls) == 0 {
			continue
		}
		out[i] = make([]SizedLink, len(ls))
		for j, l := range ls {
			out[i][j] = SizedLink{From: node(l.From), To: node(l.To), Strong: l.Strong}
		}
	}
	return out
}

// Named reports whether the step has a pattern worth naming beside its
// conclusions: cells or digits beyond the one cell that a single fills.
func (st SizedStep) Named() bool {
	var placed uint16
	if len(st.Placements) == 1 {
		placed = st.Placements[0].Cell
	}
	return named(st.Cells, len(st.Placements), placed, len(st.Eliminations), st.Digits != 0)
}

// named is the rule of Step.Named and SizedStep.Named: a step is named
// unless it is a single, one placement in at most its own cell with no
// eliminations, and it has a pattern to name. placed is the cell of the
// placement when there is one.
func named[C uint8 | uint16](cells []C, placements int, placed C, eliminations int, digits bool) bool {
	single := len(cells) <= 1 && placements == 1 && eliminations == 0 &&
		(len(cells) == 0 || cells[0] == placed)
	return !single && (len(cells) > 0 || digits)
}

// Brief returns the step in short, as bankquery show lists a hint path:
// the technique's slug and rating, the pattern's digits and cells when
// the step is Named, then what it concludes, cells named in shape s:
// "pointing 2.6, 5 in r1c4,r1c5: r1c7<>5, r1c8<>5".
func (st SizedStep) Brief(s grid.Shape) string {
	var b strings.Builder
	b.WriteString(st.Technique.Slug())
	b.WriteByte(' ')
	b.WriteString(st.Rating.String())
	if st.Named() {
		b.WriteString(", ")
		if st.Digits != 0 {
			for d := 1; d <= grid.MaxN; d++ {
				if st.Digits&(1<<d) != 0 {
					b.WriteByte(grid.Symbol(uint8(d)))
				}
			}
			if len(st.Cells) > 0 {
				b.WriteString(" in ")
			}
		}
		for i, c := range st.Cells {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(s.CellName(int(c)))
		}
	}
	b.WriteString(": ")
	n := 0
	for _, p := range st.Placements {
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%c", s.CellName(int(p.Cell)), grid.Symbol(p.Digit))
		n++
	}
	for _, e := range st.Eliminations {
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s<>%c", s.CellName(int(e.Cell)), grid.Symbol(e.Digit))
		n++
	}
	return b.String()
}

// Sentence returns the step in words, as the web page shows a hint, cells
// named in shape s: "X-wing on 5 in r1c4, r1c5, r6c4, r6c5: removes 5
// from r1c7 and r6c7."
func (st SizedStep) Sentence(s grid.Shape) string {
	var b strings.Builder
	b.WriteString(st.Technique.String())
	if st.Named() {
		b.WriteString(" on ")
		var ds []string
		for d := 1; d <= grid.MaxN; d++ {
			if st.Digits&(1<<d) != 0 {
				ds = append(ds, string(grid.Symbol(uint8(d))))
			}
		}
		b.WriteString(strings.Join(ds, ", "))
		if len(ds) > 0 && len(st.Cells) > 0 {
			b.WriteString(" in ")
		}
		names := make([]string, len(st.Cells))
		for i, c := range st.Cells {
			names[i] = s.CellName(int(c))
		}
		b.WriteString(strings.Join(names, ", "))
	}
	b.WriteString(": ")
	var parts []string
	for _, p := range st.Placements {
		parts = append(parts, fmt.Sprintf("places %c in %s", grid.Symbol(p.Digit), s.CellName(int(p.Cell))))
	}
	// Eliminations of one digit read as one clause.
	for d := uint8(1); d <= grid.MaxN; d++ {
		var cells []string
		for _, e := range st.Eliminations {
			if e.Digit == d {
				cells = append(cells, s.CellName(int(e.Cell)))
			}
		}
		if len(cells) > 0 {
			parts = append(parts, fmt.Sprintf("removes %c from %s", grid.Symbol(d), andList(cells)))
		}
	}
	b.WriteString(strings.Join(parts, "; "))
	b.WriteByte('.')
	return b.String()
}

// andList joins words as "a, b and c".
func andList(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
