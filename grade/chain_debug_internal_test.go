package grade

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"sudokubank/solve"
)

var chainDebug = flag.String("chaindebug", "", "TestChainDebug: puzzle to trace")

func TestChainDebug(t *testing.T) {
	if *chainDebug == "" {
		t.Skip("no -chaindebug puzzle")
	}
	g, err := solve.Parse(*chainDebug)
	if err != nil {
		t.Fatal(err)
	}
	var c chainer
	chainTestTrace = func(p *Position) {
		var b strings.Builder
		for r := 0; r < 9; r++ {
			for c := 0; c < 9; c++ {
				v := p.Cands[r*9+c]
				s := ""
				if p.Grid[r*9+c] != 0 {
					s = fmt.Sprint(p.Grid[r*9+c]) + "."
				}
				for d := 1; d <= 9; d++ {
					if v&(1<<d) != 0 {
						s += fmt.Sprint(d)
					}
				}
				fmt.Fprintf(&b, "%-9s ", s)
			}
			b.WriteString("\n")
		}
		t.Logf("position:\n%s", b.String())
	}
	defer func() { chainTestTrace = nil }()
	res := chainTestGrade(g, &c)
	for _, s := range res.steps {
		t.Logf("%v %v cells=%v digits=%b place=%v elim=%v", s.Technique, s.Rating, s.Cells, s.Digits, s.Placements, s.Eliminations)
	}
	t.Logf("er=%v solved=%v wrong=%v", res.er, res.solved, res.wrong)
}
