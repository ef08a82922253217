package grade_test

import (
	"testing"

	"sudokubank/grade"
	"sudokubank/grid"
)

// TestHintText writes steps of several sizes in short and in words:
// cells named in the grid's shape, values as the grid's symbols.
func TestHintText(t *testing.T) {
	s12, _ := grid.ShapeOf(12)
	s6, _ := grid.ShapeOf(6)
	tests := []struct {
		name          string
		shape         grid.Shape
		step          grade.SizedStep
		brief, phrase string
	}{
		{"NinePointing", grid.Nine,
			grade.Step{Technique: grade.Pointing, Rating: 26, Cells: []uint8{3, 4}, Digits: 1 << 5,
				Eliminations: []grade.Elimination{{6, 5}, {7, 5}}}.Sized(),
			"pointing 2.6, 5 in r1c4,r1c5: r1c7<>5, r1c8<>5",
			"Pointing on 5 in r1c4, r1c5: removes 5 from r1c7 and r1c8."},
		{"NineSingle", grid.Nine,
			grade.Step{Technique: grade.NakedSingle, Rating: 23, Cells: []uint8{40}, Digits: 1 << 7,
				Placements: []grade.Placement{{40, 7}}}.Sized(),
			"naked-single 2.3: r5c5=7",
			"Naked single: places 7 in r5c5."},
		{"SixXYWing", s6,
			grade.SizedStep{Technique: grade.XYWing, Rating: 42, Cells: []uint16{0, 5, 30}, Digits: 1<<2 | 1<<4 | 1<<6,
				Eliminations: []grade.SizedCandidate{{35, 6}, {34, 6}, {1, 2}}},
			"xy-wing 4.2, 246 in r1c1,r1c6,r6c1: r6c6<>6, r6c5<>6, r1c2<>2",
			"XY-wing on 2, 4, 6 in r1c1, r1c6, r6c1: removes 2 from r1c2; removes 6 from r6c6 and r6c5."},
		{"TwelveValuesAboveNine", s12,
			grade.SizedStep{Technique: grade.NakedPair, Rating: 30, Cells: []uint16{9*12 + 10, 9*12 + 11}, Digits: 1<<3 | 1<<11,
				Eliminations: []grade.SizedCandidate{{9*12 + 0, 11}, {9*12 + 0, 3}}, Placements: []grade.SizedCandidate{{143, 12}}},
			"naked-pair 3.0, 3B in r10c11,r10c12: r12c12=C, r10c1<>B, r10c1<>3",
			"Naked pair on 3, B in r10c11, r10c12: places C in r12c12; removes 3 from r10c1; removes B from r10c1."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.step.Brief(tt.shape); got != tt.brief {
				t.Errorf("Brief = %q, want %q", got, tt.brief)
			}
			if got := tt.step.Sentence(tt.shape); got != tt.phrase {
				t.Errorf("Sentence = %q, want %q", got, tt.phrase)
			}
		})
	}
}

// TestStepSizedKeepsStep: a 9x9 step read as a SizedStep keeps its
// cells, digits and conclusions, and is Named exactly when the step is.
func TestStepSizedKeepsStep(t *testing.T) {
	for _, line := range []string{
		"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
		"000000010400000000020000000000050407008000300001090000300400200050100000000806000",
	} {
		gr, err := grade.Rate(MustParse(t, line))
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range gr.Path {
			sz := st.Sized()
			if sz.Named() != st.Named() || sz.Technique != st.Technique || sz.Rating != st.Rating || sz.Digits != uint32(st.Digits) ||
				len(sz.Cells) != len(st.Cells) || len(sz.Placements) != len(st.Placements) || len(sz.Eliminations) != len(st.Eliminations) {
				t.Fatalf("step %d %s read as %+v", i+1, st, sz)
			}
			for j, p := range st.Placements {
				if sz.Placements[j] != (grade.SizedCandidate{Cell: uint16(p.Cell), Digit: p.Digit}) {
					t.Errorf("step %d placement %d: %+v, want %+v", i+1, j, sz.Placements[j], p)
				}
			}
			for j, e := range st.Eliminations {
				if sz.Eliminations[j] != (grade.SizedCandidate{Cell: uint16(e.Cell), Digit: e.Digit}) {
					t.Errorf("step %d elimination %d: %+v, want %+v", i+1, j, sz.Eliminations[j], e)
				}
			}
		}
	}
}
