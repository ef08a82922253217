package grade_test

import (
	"context"
	"slices"
	"testing"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/solve"
)

// linear reports whether t is a chain technique whose steps are one line
// of links (Grade.Links).
func linear(t grade.Technique) bool {
	switch t {
	case grade.XCycle, grade.YCycle, grade.XChain, grade.XYChain, grade.AIC:
		return true
	}
	return false
}

// TestStepLinks grades puzzles whose paths hold cycles and chains with
// links recorded (Grade.Links): every linear chain step has a connected
// chain of alternating weak and strong links inside its cells that ends
// in what it concludes (or closes, for a cycle), no other step has
// links, and the path is the one grading without links gives.
func TestStepLinks(t *testing.T) {
	tests := []struct{ name, puzzle string }{
		{"YCycle", "7..2...6...87.94...4....5...7......6..2...84..59.6....1...987..9..4..23.........."},
		{"XChain", "...8...4.3.6...1..8...6..7..854...6.....5.....7....4...1...27....26.45...5.9....2"},
		{"AIC", "4.1.........935...6....1..8.1..8..5.......4.7.69.............8....4..96...279...5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := solve.Parse(tc.puzzle)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := grade.New().Grade(p)
			if err != nil {
				t.Fatal(err)
			}
			g := grade.New()
			g.RecordLinks(true)
			gr, err := g.Grade(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(gr.Path) != len(plain.Path) || gr.ER != plain.ER {
				t.Fatalf("with links: %d steps, ER %v; without: %d steps, ER %v", len(gr.Path), gr.ER, len(plain.Path), plain.ER)
			}
			if plain.Links != nil || len(gr.Links) != len(gr.Path) {
				t.Fatalf("links of %d steps without RecordLinks, of %d of %d steps with", len(plain.Links), len(gr.Links), len(gr.Path))
			}
			sized := gr.SizedLinks()
			chains := 0
			for i, st := range gr.Path {
				if st.String() != plain.Path[i].String() {
					t.Fatalf("step %d: %s with links, %s without", i+1, st, plain.Path[i])
				}
				if !linear(st.Technique) {
					if gr.Links[i] != nil || sized[i] != nil {
						t.Errorf("step %d (%s): links %v", i+1, st.Technique.Slug(), gr.Links[i])
					}
					continue
				}
				chains++
				checkLinks(t, i+1, st, gr.Links[i], sized[i])
			}
			if chains == 0 {
				t.Fatal("no linear chain step in the path")
			}
		})
	}
}

// checkLinks checks the chain ls of the linear chain step st, number n,
// and its links as SizedLinks, sz.
func checkLinks(t *testing.T, n int, st grade.Step, ls []grade.Link, sz []grade.SizedLink) {
	t.Helper()
	if len(ls) < 2 {
		t.Fatalf("step %d (%s): %d links", n, st, len(ls))
	}
	for i, l := range ls {
		if i > 0 && l.From != ls[i-1].To {
			t.Errorf("step %d: link %d starts at %v, link %d ends at %v", n, i+1, l.From, i, ls[i-1].To)
		}
		if l.From.On == l.To.On || l.Strong != !l.From.On {
			t.Errorf("step %d: link %d %+v does not alternate", n, i+1, l)
		}
		a, b := l.From, l.To
		sameCell := a.Cell == b.Cell && a.Digit != b.Digit
		peers := a.Digit == b.Digit && a.Cell != b.Cell &&
			(a.Cell/9 == b.Cell/9 || a.Cell%9 == b.Cell%9 || a.Cell/27 == b.Cell/27 && a.Cell%9/3 == b.Cell%9/3)
		if !sameCell && !peers {
			t.Errorf("step %d: link %d %+v joins unrelated candidates", n, i+1, l)
		}
		for _, c := range [2]uint8{a.Cell, b.Cell} {
			if !slices.Contains(st.Cells, c) {
				t.Errorf("step %d: link %d %+v leaves the step's cells %v", n, i+1, l, st.Cells)
			}
		}
	}
	if len(sz) != len(ls) {
		t.Fatalf("step %d: %d sized links, %d links", n, len(sz), len(ls))
	}
	for i, l := range ls {
		want := grade.SizedLink{
			From:   grade.SizedChainNode{Cell: uint16(l.From.Cell), Digit: l.From.Digit, On: l.From.On},
			To:     grade.SizedChainNode{Cell: uint16(l.To.Cell), Digit: l.To.Digit, On: l.To.On},
			Strong: l.Strong,
		}
		if sz[i] != want {
			t.Errorf("step %d: sized link %d is %+v, want %+v", n, i+1, sz[i], want)
		}
	}
	first, last := ls[0].From, ls[len(ls)-1].To
	// A step may apply chains and cycles of the same rating at once, its
	// technique the lowest of theirs: the links, the first of them, are a
	// cycle when they close.
	switch {
	case first == last:
	case first.Cell != last.Cell || first.Digit != last.Digit || first.On == last.On:
		t.Errorf("step %d: chain from %v ends at %v, not its opposite", n, first, last)
	case last.On:
		if !slices.Contains(st.Placements, grade.Placement{Cell: last.Cell, Digit: last.Digit}) {
			t.Errorf("step %d: chain places %v, not among %v", n, last, st.Placements)
		}
	default:
		if !slices.Contains(st.Eliminations, grade.Elimination{Cell: last.Cell, Digit: last.Digit}) {
			t.Errorf("step %d: chain removes %v, not among %v", n, last, st.Eliminations)
		}
	}
}

// TestSizedStepLinks grades the puzzles of TestStepLinks with the sized
// grader, whose chain search serves every shape: its linear chain steps
// have connected, alternating chains inside their cells that end in
// what they conclude or close, and grading without links gives the
// same path.
func TestSizedStepLinks(t *testing.T) {
	for _, puzzle := range []string{
		"7..2...6...87.94...4....5...7......6..2...84..59.6....1...987..9..4..23..........",
		"...8...4.3.6...1..8...6..7..854...6.....5.....7....4...1...27....26.45...5.9....2",
		"4.1.........935...6....1..8.1..8..5.......4.7.69.............8....4..96...279...5",
	} {
		p, err := grid.ParseIn(grid.Nine, puzzle)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := grade.NewSized().GradeContext(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		g := grade.NewSized()
		g.RecordLinks(true)
		gr, err := g.GradeContext(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if len(gr.Steps) != len(plain.Steps) || len(gr.Links) != len(gr.Steps) || plain.Links != nil {
			t.Fatalf("%s: %d steps and %d links with links, %d steps and %d links without",
				puzzle, len(gr.Steps), len(gr.Links), len(plain.Steps), len(plain.Links))
		}
		chains := 0
		for i, st := range gr.Steps {
			if b, pb := st.Brief(grid.Nine), plain.Steps[i].Brief(grid.Nine); b != pb {
				t.Fatalf("%s step %d: %s with links, %s without", puzzle, i+1, b, pb)
			}
			if !linear(st.Technique) {
				if gr.Links[i] != nil {
					t.Errorf("%s step %d (%s): links %v", puzzle, i+1, st.Technique.Slug(), gr.Links[i])
				}
				continue
			}
			chains++
			checkSizedLinks(t, grid.Nine, i+1, st, gr.Links[i])
		}
		if chains == 0 {
			t.Errorf("%s: no linear chain step", puzzle)
		}
	}
}

// checkSizedLinks checks the chain ls of the linear chain step st,
// number n, of a grid of shape s.
func checkSizedLinks(t *testing.T, s grid.Shape, n int, st grade.SizedStep, ls []grade.SizedLink) {
	t.Helper()
	if len(ls) < 2 {
		t.Fatalf("step %d (%s): %d links", n, st.Brief(s), len(ls))
	}
	sees := func(a, b int) bool { return s.Row(a) == s.Row(b) || s.Col(a) == s.Col(b) || s.Box(a) == s.Box(b) }
	for i, l := range ls {
		if i > 0 && l.From != ls[i-1].To {
			t.Errorf("step %d: link %d starts at %v, link %d ends at %v", n, i+1, l.From, i, ls[i-1].To)
		}
		if l.From.On == l.To.On || l.Strong != !l.From.On {
			t.Errorf("step %d: link %d %+v does not alternate", n, i+1, l)
		}
		a, b := l.From, l.To
		sameCell := a.Cell == b.Cell && a.Digit != b.Digit
		peers := a.Digit == b.Digit && a.Cell != b.Cell && sees(int(a.Cell), int(b.Cell))
		if !sameCell && !peers {
			t.Errorf("step %d: link %d %+v joins unrelated candidates", n, i+1, l)
		}
		for _, c := range [2]uint16{a.Cell, b.Cell} {
			if !slices.Contains(st.Cells, c) {
				t.Errorf("step %d: link %d %+v leaves the step's cells %v", n, i+1, l, st.Cells)
			}
		}
	}
	first, last := ls[0].From, ls[len(ls)-1].To
	switch {
	case first == last:
	case first.Cell != last.Cell || first.Digit != last.Digit || first.On == last.On:
		t.Errorf("step %d: chain from %v ends at %v, not its opposite", n, first, last)
	case last.On:
		if !slices.Contains(st.Placements, grade.SizedCandidate{Cell: last.Cell, Digit: last.Digit}) {
			t.Errorf("step %d: chain places %v, not among %v", n, last, st.Placements)
		}
	default:
		if !slices.Contains(st.Eliminations, grade.SizedCandidate{Cell: last.Cell, Digit: last.Digit}) {
			t.Errorf("step %d: chain removes %v, not among %v", n, last, st.Eliminations)
		}
	}
}
