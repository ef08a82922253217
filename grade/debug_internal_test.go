package grade

import (
	"os"
	"testing"

	"sudokubank/solve"
)

func TestDebugPath(t *testing.T) {
	p := os.Getenv("PUZ")
	if p == "" {
		t.Skip()
	}
	g, err := solve.Parse(p)
	if err != nil {
		t.Fatal(err)
	}
	var gr Grader
	res, err := gr.Grade(g)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range res.Path {
		if st.Rating > 15 {
			t.Logf("%d %s %s cells %v digits %b pl %v el %v", i, st.Technique.Slug(), st.Rating, st.Cells, st.Digits, st.Placements, st.Eliminations)
		}
	}
	t.Logf("ER %s EP %s ED %s", res.ER, res.EP, res.ED)
}
