package grade_test

import (
	"context"
	"reflect"
	"testing"

	"sudokubank/grade"
)

// TestGradeWithinAgrees grades the sample below 9.0 with a range of
// bounds and checks that GradeWithinContext either makes the full grade
// GradeIntoContext makes, or stops early on a puzzle whose full grade is
// outside the bounds; and that it stops early on some of them.
func TestGradeWithinAgrees(t *testing.T) {
	ps := MustReadRated(t, "testdata/se_sample.txt")
	bounds := []grade.Bounds{
		{},
		{Floor: 23},
		{Floor: 45},
		{Floor: 75},
		{Floor: 85, Ceiling: 89},
		{Floor: 32, Ceiling: 32},
		{Ceiling: 40},
		// Ceilings below aligned pairs, the chains, aligned triples and
		// the forcing chains' stages, which the grader does not try.
		{Ceiling: 52},
		{Floor: 45, Ceiling: 63},
		{Floor: 65, Ceiling: 66},
		{Ceiling: 74},
		{Floor: 70, Ceiling: 82},
	}
	if testing.Short() {
		bounds = bounds[3:5]
	}
	var g, full grade.Grader
	var within, want grade.Grade
	stopped := 0
	for _, rp := range ps {
		if rp.er >= 90 {
			continue // nested chains: seconds a puzzle
		}
		if err := full.GradeIntoContext(context.Background(), rp.puzzle, &want); err != nil {
			t.Fatal(err)
		}
		for _, b := range bounds {
			ok, err := g.GradeWithinContext(context.Background(), rp.puzzle, &within, b)
			if err != nil {
				t.Fatal(err)
			}
			out := want.ER < b.Floor || b.Ceiling > 0 && want.ER > b.Ceiling
			switch {
			case ok && !reflect.DeepEqual(within, want):
				t.Errorf("%s within %+v: grade differs from the full grade:\n got %+v\nwant %+v", rp.puzzle, b, within, want)
			case !ok && !out:
				t.Errorf("%s within %+v: stopped early, but its ER %v is inside", rp.puzzle, b, want.ER)
			case !ok:
				stopped++
			}
		}
	}
	if stopped == 0 {
		t.Error("no grade stopped early")
	}
}

// TestFixedRatesBase checks that every step of a Fixed technique in the
// sample's solves rates the technique's base rating, and that a
// technique whose steps rated otherwise is not Fixed.
func TestFixedRatesBase(t *testing.T) {
	var g grade.Grader
	varied := map[grade.Technique]bool{}
	for _, rp := range MustReadRated(t, "testdata/se_sample.txt") {
		if rp.er >= 90 {
			continue
		}
		gr, err := g.Grade(rp.puzzle)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range gr.Path {
			if st.Rating != st.Technique.BaseRating() {
				varied[st.Technique] = true
			}
			if st.Technique.Fixed() && st.Rating != st.Technique.BaseRating() {
				t.Errorf("%s: a %s step rates %v, not its base %v", rp.puzzle, st.Technique.Slug(), st.Rating, st.Technique.BaseRating())
			}
		}
	}
	if len(varied) == 0 {
		t.Error("no step rated other than its base: the sample tests nothing")
	}
	for _, tc := range []grade.Technique{grade.UniqueRectangle, grade.BUG3, grade.AIC, grade.BruteForce, grade.NoTechnique} {
		if tc.Fixed() {
			t.Errorf("%s is Fixed", tc.Slug())
		}
	}
}
