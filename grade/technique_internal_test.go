package grade

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// blank returns the state of the empty grid: every cell holds every
// candidate.
func blank() *state {
	s := &state{}
	for c := range s.p.Cands {
		s.p.Cands[c] = allDigits
	}
	s.refresh()
	return s
}

// set gives cell c exactly the candidates ds.
func (s *state) set(c int, ds ...int) *state {
	s.p.Cands[c] = 0
	for _, d := range ds {
		s.p.Cands[c] |= bit(d)
	}
	s.refresh()
	return s
}

// only keeps digit d, within unit u, in the cells cs alone.
func (s *state) only(d, u int, cs ...int) *state {
	for _, c := range unitCells[u] {
		if !slices.Contains(cs, int(c)) {
			s.p.Cands[c] &^= bit(d)
		}
	}
	s.refresh()
	return s
}

// conclusions writes a step's placements and eliminations in a sorted,
// comparable form: "12=4" and "40:3".
func conclusions(st Step) string {
	var out []string
	for _, p := range st.Placements {
		out = append(out, fmt.Sprintf("%d=%d", p.Cell, p.Digit))
	}
	for _, e := range st.Eliminations {
		out = append(out, fmt.Sprintf("%d:%d", e.Cell, e.Digit))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// elims lists the eliminations of digit d from cells cs, in the form of
// conclusions.
func elims(d int, cs ...int) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%d:%d", c, d))
	}
	return out
}

func join(parts ...[]string) string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	slices.Sort(all)
	return strings.Join(all, " ")
}

func TestTechniques(t *testing.T) {
	tests := []struct {
		name  string
		state func() *state
		find  func(*state) (Step, bool)
		tech  Technique // NoTechnique: must not fire
		want  string
	}{
		{"HiddenSingleBox", func() *state { return blank().only(5, 18, 10) },
			func(s *state) (Step, bool) { return s.hiddenSingle(true) }, HiddenSingleBox, "10=5"},
		{"HiddenSingleBoxNotTwo", func() *state { return blank().only(5, 18, 10, 11) },
			func(s *state) (Step, bool) { return s.hiddenSingle(true) }, NoTechnique, ""},
		{"HiddenSingleRow", func() *state { return blank().only(5, 4, 40) },
			func(s *state) (Step, bool) { return s.hiddenSingle(false) }, HiddenSingleLine, "40=5"},
		{"NakedSingle", func() *state { return blank().set(30, 7) },
			func(s *state) (Step, bool) { return s.nakedSingle() }, NakedSingle, "30=7"},
		{"Pointing", func() *state { return blank().only(3, 18, 0, 1) },
			func(s *state) (Step, bool) { return s.locking(false) }, Pointing, join(elims(3, 3, 4, 5, 6, 7, 8))},
		{"PointingNotAcrossLines", func() *state { return blank().only(3, 18, 0, 10) },
			func(s *state) (Step, bool) { return s.locking(false) }, NoTechnique, ""},
		{"Claiming", func() *state { return blank().only(3, 0, 0, 1, 2) },
			func(s *state) (Step, bool) { return s.locking(false) }, Claiming, join(elims(3, 9, 10, 11, 18, 19, 20))},
		{"DirectPointing", func() *state { return blank().only(4, 18, 0, 1).only(4, 19, 3, 12) },
			func(s *state) (Step, bool) { return s.locking(true) }, DirectPointing, "12=4"},
		{"DirectPointingNoSingle", func() *state { return blank().only(4, 18, 0, 1).only(4, 19, 3, 12, 13) },
			func(s *state) (Step, bool) { return s.locking(true) }, NoTechnique, ""},
		{"DirectClaiming", func() *state { return blank().only(4, 0, 0, 1).only(4, 1, 10, 13).only(4, 2, 18, 19, 24, 25) },
			func(s *state) (Step, bool) { return s.locking(true) }, DirectClaiming, "13=4"},
		{"NakedPair", func() *state { return blank().set(0, 1, 2).set(1, 1, 2) },
			func(s *state) (Step, bool) { return s.nakedSet(2) }, NakedPair,
			join(elims(1, 2, 9, 10, 11, 18, 19, 20), elims(2, 2, 9, 10, 11, 18, 19, 20))},
		{"NakedPairNotThree", func() *state { return blank().set(0, 1, 2).set(1, 1, 3) },
			func(s *state) (Step, bool) { return s.nakedSet(2) }, NoTechnique, ""},
		{"NakedTriple", func() *state { return blank().set(0, 1, 2).set(1, 2, 3).set(2, 1, 3) },
			func(s *state) (Step, bool) { return s.nakedSet(3) }, NakedTriple,
			join(elims(1, 9, 10, 11, 18, 19, 20), elims(2, 9, 10, 11, 18, 19, 20), elims(3, 9, 10, 11, 18, 19, 20))},
		{"HiddenPair", func() *state { return blank().only(1, 18, 0, 1).only(2, 18, 0, 1) },
			func(s *state) (Step, bool) { return s.hiddenSet(2, false) }, HiddenPair,
			join(elims(3, 0, 1), elims(4, 0, 1), elims(5, 0, 1), elims(6, 0, 1), elims(7, 0, 1), elims(8, 0, 1), elims(9, 0, 1))},
		{"HiddenPairNotWithThirdPlace", func() *state { return blank().only(1, 18, 0, 1).only(2, 18, 0, 1, 2) },
			func(s *state) (Step, bool) { return s.hiddenSet(2, false) }, NoTechnique, ""},
		{"DirectHiddenPair", func() *state { return blank().only(1, 18, 0, 1).only(2, 18, 0, 1).only(3, 18, 0, 1, 2) },
			func(s *state) (Step, bool) { return s.hiddenSet(2, true) }, DirectHiddenPair, "2=3"},
		{"DirectHiddenPairNoSingle", func() *state { return blank().only(1, 18, 0, 1).only(2, 18, 0, 1) },
			func(s *state) (Step, bool) { return s.hiddenSet(2, true) }, NoTechnique, ""},
		{"XWing", func() *state { return blank().only(5, 9, 9, 54).only(5, 12, 12, 57) },
			func(s *state) (Step, bool) { return s.fish(2) }, XWing,
			join(elims(5, 10, 11, 13, 14, 15, 16, 17, 55, 56, 58, 59, 60, 61, 62))},
		{"XWingRows", func() *state { return blank().only(5, 1, 9, 12).only(5, 6, 54, 57) },
			func(s *state) (Step, bool) { return s.fish(2) }, XWing,
			join(elims(5, 0, 18, 27, 36, 45, 63, 72, 3, 21, 30, 39, 48, 66, 75))},
		{"XWingNotWithThirdRow", func() *state { return blank().only(5, 9, 9, 54).only(5, 12, 12, 57, 66) },
			func(s *state) (Step, bool) { return s.fish(2) }, NoTechnique, ""},
		{"Swordfish", func() *state {
			return blank().only(5, 9, 9, 36).only(5, 12, 39, 66).only(5, 15, 15, 69)
		}, func(s *state) (Step, bool) { return s.fish(3) }, Swordfish,
			join(elims(5, 10, 11, 13, 14, 16, 17, 37, 38, 40, 41, 43, 44, 64, 65, 67, 68, 70, 71))},
		{"XYWing", func() *state { return blank().set(0, 1, 2).set(4, 1, 3).set(36, 2, 3) },
			func(s *state) (Step, bool) { return s.wing(false) }, XYWing, "40:3"},
		{"XYWingNeedsZInBothWings", func() *state { return blank().set(0, 1, 2).set(4, 1, 3).set(36, 2, 4) },
			func(s *state) (Step, bool) { return s.wing(false) }, NoTechnique, ""},
		{"XYZWing", func() *state { return blank().set(0, 1, 2, 3).set(1, 1, 3).set(27, 2, 3) },
			func(s *state) (Step, bool) { return s.wing(true) }, XYZWing, "18:3 9:3"},
		{"UniqueRectangleType1", func() *state { return blank().set(0, 1, 2).set(3, 1, 2).set(9, 1, 2).set(12, 1, 2, 5, 7) },
			func(s *state) (Step, bool) { return s.uniqueLoops() }, UniqueRectangle, "12:1 12:2"},
		{"UniqueRectangleNotInFourBoxes", func() *state { return blank().set(0, 1, 2).set(3, 1, 2).set(27, 1, 2).set(30, 1, 2, 5, 7) },
			func(s *state) (Step, bool) { return s.uniqueLoops() }, NoTechnique, ""},
		{"UniqueRectangleType2", func() *state { return blank().set(0, 1, 2).set(3, 1, 2).set(9, 1, 2, 7).set(12, 1, 2, 7) },
			func(s *state) (Step, bool) { return s.uniqueLoops() }, UniqueRectangle, join(elims(7, 10, 11, 13, 14, 15, 16, 17))},
		{"UniqueRectangleType3", func() *state {
			return blank().set(0, 1, 2).set(3, 1, 2).set(9, 1, 2, 5).set(12, 1, 2, 6).set(15, 5, 6)
		}, func(s *state) (Step, bool) { return s.uniqueLoops() }, UniqueRectangle,
			join(elims(5, 10, 11, 13, 14, 16, 17), elims(6, 10, 11, 13, 14, 16, 17))},
		{"UniqueRectangleType4", func() *state {
			return blank().set(0, 1, 2).set(3, 1, 2).set(9, 1, 2, 5).set(12, 1, 2, 6).only(1, 1, 9, 12)
		}, func(s *state) (Step, bool) { return s.uniqueLoops() }, UniqueRectangle, "12:2 9:2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, ok := tt.find(tt.state())
			if tt.tech == NoTechnique {
				if ok {
					t.Fatalf("fired: %v", st)
				}
				return
			}
			if !ok {
				t.Fatalf("did not fire, want %s", tt.tech.Slug())
			}
			if st.Technique != tt.tech {
				t.Errorf("technique = %s, want %s", st.Technique.Slug(), tt.tech.Slug())
			}
			if got := conclusions(st); got != tt.want {
				t.Errorf("conclusions = %q, want %q", got, tt.want)
			}
		})
	}
}
