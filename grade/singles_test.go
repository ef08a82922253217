package grade_test

import (
	"math/rand/v2"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/solve"
)

// TestSinglesLevel checks that SinglesLevel, where it answers, gives the
// level of the full grade, and that it answers for every puzzle the full
// grade rates extremely easy (an easy one may need a direct pointing or
// hidden pair, which it leaves to the grade): on digs to 22-46 givens,
// the sample of rated puzzles and the evil digs.
func TestSinglesLevel(t *testing.T) {
	var ps []solve.Grid
	n := 600
	if testing.Short() {
		n = 200
	}
	var d gen.Digger
	rng := rand.New(rand.NewPCG(28, 9))
	for i := range n {
		lo := 22 + i%25
		ps = append(ps, d.Generate(gen.GivensProfile(lo, lo, gen.NoSymmetry), rng).Grid)
	}
	for _, file := range []string{"testdata/se_sample.txt", "testdata/evil_digs.txt"} {
		for _, rp := range MustReadRated(t, file) {
			ps = append(ps, rp.puzzle)
		}
	}
	var g grade.Grader
	var answered [grade.Evil + 1]int
	for _, p := range ps {
		gr, err := g.Grade(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		l, ok := grade.SinglesLevel(&p)
		switch {
		case ok && l != gr.Level:
			t.Errorf("%s: SinglesLevel %s, the grade %s (ER %s)", p, l, gr.Level, gr.ER)
		case !ok && gr.Level == grade.ExtremelyEasy:
			t.Errorf("%s: SinglesLevel does not answer, the grade is %s (ER %s)", p, gr.Level, gr.ER)
		case ok:
			answered[l]++
		}
	}
	if answered[grade.ExtremelyEasy] == 0 || answered[grade.Easy] == 0 {
		t.Errorf("answered %d extremely easy and %d easy: the sample misses a level", answered[grade.ExtremelyEasy], answered[grade.Easy])
	}
}

// TestSinglesLevelRefuses checks that SinglesLevel gives no level to a
// puzzle a full grade refuses or rates above easy.
func TestSinglesLevelRefuses(t *testing.T) {
	for _, tc := range []struct{ name, p string }{
		{"no solution", "123456789........................................................1234567.8......."},
		{"two solutions", "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642"},
		{"empty", "................................................................................."},
		{"medium (ER 3.4)", "5....6.9.......5...619.4..7..716......9........4..32.5..........1.24....9......13"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := solve.Parse(tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if l, ok := grade.SinglesLevel(&p); ok {
				t.Errorf("SinglesLevel(%s) = %s, want no answer", tc.p, l)
			}
		})
	}
	// Parse refuses conflicting givens; a caller may still pass them.
	var p solve.Grid
	p[0], p[1] = 1, 1
	if l, ok := grade.SinglesLevel(&p); ok {
		t.Errorf("SinglesLevel of two 1s in row 1 = %s, want no answer", l)
	}
}
