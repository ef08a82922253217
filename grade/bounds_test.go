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
