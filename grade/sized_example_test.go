package grade_test

import (
	"context"
	"fmt"
	"strings"

	"sudokubank/grade"
	"sudokubank/grid"
)

// A 6x6 puzzle graded on the SE scale: its ratings, level, hardest
// technique, and the path of technique slugs that the bank stores.
func ExampleSizedGrader_GradeContext() {
	p, err := grid.Parse("..41...3...21..5.4......3.........65")
	if err != nil {
		fmt.Println(err)
		return
	}
	gr, err := grade.NewSized().GradeContext(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s/%s/%s %s %s, %d steps\n", gr.ER, gr.EP, gr.ED, gr.Level, gr.Hardest.Slug(), len(gr.Steps))
	fmt.Println(strings.Join(gr.Slugs()[:4], " "))
	// Output:
	// 4.2/1.2/1.2 difficult xy-wing, 29 steps
	// hidden-single-box hidden-single-box hidden-single-line hidden-single-line
}

// The hint of the hardest step of a 6x6 solve, in short and in words.
func ExampleSizedStep_Sentence() {
	p, err := grid.Parse("..41...3...21..5.4......3.........65")
	if err != nil {
		fmt.Println(err)
		return
	}
	gr, err := grade.NewSized().GradeContext(context.Background(), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, st := range gr.Steps {
		if st.Rating == gr.ER {
			fmt.Println(st.Brief(p.Shape))
			fmt.Println(st.Sentence(p.Shape))
			break
		}
	}
	// Output:
	// xy-wing 4.2, 235 in r1c5,r1c2,r3c5: r3c2<>2
	// XY-wing on 2, 3, 5 in r1c5, r1c2, r3c5: removes 2 from r3c2.
}
