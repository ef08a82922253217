package gen_test

import (
	"testing"

	"sudokubank/gen"
	"sudokubank/solve"
)

func TestProfileValidate(t *testing.T) {
	tests := []struct {
		name string
		p    gen.Profile
		ok   bool
	}{
		{"Zero", gen.Profile{}, true},
		{"PaperEvil", gen.PaperLevels[4], true},
		{"MinimalIgnoresRange", gen.Profile{Minimal: true, MinGivens: 50, MaxGivens: 10}, true},
		{"RangeReversed", gen.Profile{MinGivens: 30, MaxGivens: 20}, false},
		{"RangeNegative", gen.Profile{MinGivens: -1, MaxGivens: 20}, false},
		{"RangeTooHigh", gen.Profile{MinGivens: 30, MaxGivens: 82}, false},
		{"RowColTooHigh", gen.Profile{RowColMin: 10}, false},
		{"RowColNegative", gen.Profile{RowColMin: -1}, false},
		{"BadSequence", gen.Profile{Sequence: 9}, false},
		{"BadSymmetry", gen.Profile{Symmetry: 9}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if got := err == nil; got != tt.ok {
				t.Errorf("Validate() = %v, want ok %v", err, tt.ok)
			}
		})
	}
	for _, p := range gen.PaperLevels {
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
}

func TestPaperLevels(t *testing.T) {
	// The paper's table: givens range, lower bound per row and column, order.
	want := []struct {
		min, max, rowCol int
		seq              gen.Sequence
	}{
		{51, 59, 5, gen.Random},
		{36, 49, 4, gen.Random},
		{32, 35, 3, gen.JumpOne},
		{28, 31, 2, gen.WanderingS},
		{22, 27, 0, gen.LeftToRight},
	}
	for i, p := range gen.PaperLevels {
		w := want[i]
		if p.MinGivens != w.min || p.MaxGivens != w.max || p.RowColMin != w.rowCol || p.Sequence != w.seq || p.Minimal || p.Symmetry != gen.NoSymmetry {
			t.Errorf("PaperLevels[%d] = %+v, want %+v", i, p, w)
		}
	}
}

func TestParseProfile(t *testing.T) {
	tests := []struct {
		name string
		want gen.Profile
	}{
		{"minimal", gen.Profile{Name: "minimal", Minimal: true}},
		{"minimal-rot180", gen.Profile{Name: "minimal-rot180", Minimal: true, Symmetry: gen.Rot180}},
		{"paper-easy", gen.PaperLevels[1]},
		{"paper-evil-mirror", gen.Profile{Name: "paper-evil-mirror", Sequence: gen.LeftToRight, MinGivens: 22, MaxGivens: 27, Symmetry: gen.Mirror}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := gen.ParseProfile(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ParseProfile(%q) = %+v, want %+v", tt.name, got, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "paper", "minimal-", "minimal-spiral", "paper-easy-", "paper-easy-rot45", "hard"} {
		if p, err := gen.ParseProfile(bad); err == nil {
			t.Errorf("ParseProfile(%q) = %+v, want an error", bad, p)
		}
	}
	for _, sym := range allSymmetries {
		p := gen.MinimalProfile(sym)
		got, err := gen.ParseProfile(p.Name)
		if err != nil || got != p {
			t.Errorf("ParseProfile(%q) = %+v, %v, want %+v", p.Name, got, err, p)
		}
	}
}

func TestParseSequence(t *testing.T) {
	for _, s := range []gen.Sequence{gen.Random, gen.JumpOne, gen.WanderingS, gen.LeftToRight} {
		got, err := gen.ParseSequence(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSequence(%q) = %v, %v, want %v", s.String(), got, err, s)
		}
	}
	if _, err := gen.ParseSequence("spiral"); err == nil {
		t.Error("ParseSequence(spiral) succeeded, want an error")
	}
}

func TestSequenceOrders(t *testing.T) {
	tests := []struct {
		seq  gen.Sequence
		head []uint8 // the first cells
		tail []uint8 // the last cells
	}{
		{gen.LeftToRight, []uint8{0, 1, 2, 3}, []uint8{79, 80}},
		{gen.WanderingS, []uint8{7, 8, 17, 16, 15}, []uint8{79, 80}},
		{gen.JumpOne, []uint8{0, 2, 4, 6, 8, 16, 14}, []uint8{77, 79}},
	}
	for _, tt := range tests {
		t.Run(tt.seq.String(), func(t *testing.T) {
			order := gen.SequenceOrder(tt.seq)
			var seen [81]bool
			for _, c := range order {
				if seen[c] {
					t.Fatalf("cell %d twice in %v", c, order)
				}
				seen[c] = true
			}
			got := order[:len(tt.head)]
			if tt.seq == gen.WanderingS {
				got = order[7 : 7+len(tt.head)]
			}
			for i := range tt.head {
				if got[i] != tt.head[i] {
					t.Fatalf("order starts %v, want %v", got, tt.head)
				}
			}
			got = order[81-len(tt.tail):]
			for i := range tt.tail {
				if got[i] != tt.tail[i] {
					t.Fatalf("order ends %v, want %v", got, tt.tail)
				}
			}
		})
	}
}

func TestMinRowColGivens(t *testing.T) {
	full := gen.Terminal(newRand(3))
	tests := []struct {
		name string
		p    solve.Grid
		want int
	}{
		{"Empty", solve.Grid{}, 0},
		{"Full", full, 9},
		{"OneCell", pattern([2]int{4, 4}), 0},
		{"Diagonal", pattern([2]int{0, 0}, [2]int{1, 1}, [2]int{2, 2}, [2]int{3, 3}, [2]int{4, 4}, [2]int{5, 5}, [2]int{6, 6}, [2]int{7, 7}, [2]int{8, 8}), 1},
	}
	rowGone := full
	for c := 9; c < 18; c++ {
		rowGone[c] = 0
	}
	tests = append(tests, struct {
		name string
		p    solve.Grid
		want int
	}{"RowEmptied", rowGone, 0})
	colThin := full
	colThin[4], colThin[13], colThin[22] = 0, 0, 0
	tests = append(tests, struct {
		name string
		p    solve.Grid
		want int
	}{"ColumnThinned", colThin, 6})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gen.MinRowColGivens(tt.p); got != tt.want {
				t.Errorf("MinRowColGivens = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestSurvey(t *testing.T) {
	var s gen.Survey
	var d gen.Digger
	rng := newRand(5)
	for i := 0; i < 10; i++ {
		s.Add(d.Generate(gen.MinimalProfile(gen.NoSymmetry), rng), i%3)
	}
	if s.Puzzles != 10 || s.Minimal != 10 {
		t.Errorf("Puzzles, Minimal = %d, %d, want 10, 10", s.Puzzles, s.Minimal)
	}
	if got, want := s.Classes[0:3], []int{4, 3, 3}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Classes[0:3] = %v, want %v", got, want)
	}
	total := 0
	for _, k := range s.Givens {
		total += k
	}
	if total != 10 {
		t.Errorf("Givens histogram sums to %d, want 10", total)
	}
	t.Log(s.GivensSummary())
}

// FuzzParseProfile checks that ParseProfile never panics and that every
// profile it accepts is valid and carries the name it was parsed from.
func FuzzParseProfile(f *testing.F) {
	for _, s := range []string{"minimal", "minimal-rot90", "paper-evil", "paper-easy-flip", "paper-", "minimal-x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		p, err := gen.ParseProfile(name)
		if err != nil {
			return
		}
		if p.Name != name {
			t.Errorf("ParseProfile(%q).Name = %q", name, p.Name)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("ParseProfile(%q) = %+v: %v", name, p, err)
		}
	})
}
