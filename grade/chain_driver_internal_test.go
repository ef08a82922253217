package grade

import (
	"bufio"
	"flag"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"testing"

	"sudokubank/solve"
)

// This file holds a test-only stand-in for the basic grader: singles and
// the basic techniques of chain_rules.go in SE's order, then the chainer.
// It lacks the wings, unique rectangles, BUG and aligned pair exclusion,
// so on puzzles that need those it calls the chainer where SE would not.

var chainFull = flag.Bool("chainfull", false, "run the chain checks over the whole of ../shared/data/rated/dev_se.txt")

// chainTestPosition returns the position of a grid with every candidate
// that the givens allow.
func chainTestPosition(g solve.Grid) Position {
	p := Position{Grid: g}
	for c := 0; c < 81; c++ {
		if g[c] != 0 {
			continue
		}
		p.Cands[c] = 0x3fe
		for _, o := range chainPeers[c] {
			if v := g[o]; v != 0 {
				p.Cands[c] &^= 1 << v
			}
		}
	}
	return p
}

// chainTestPlace puts digit d in cell c.
func chainTestPlace(p *Position, c, d int) {
	p.Grid[c] = uint8(d)
	p.Cands[c] = 0
	for _, o := range chainPeers[c] {
		p.Cands[o] &^= 1 << d
	}
}

// chainTestSingle applies one single and returns its rating, or 0.
func chainTestSingle(p *Position) Rating {
	for u := 0; u < 27; u++ {
		for d := 1; d <= 9; d++ {
			pm := chainUnitPositions(&p.Cands, u, d)
			if bits.OnesCount16(pm) == 1 {
				chainTestPlace(p, solve.Units[u][bits.TrailingZeros16(pm)], d)
				if u >= 18 {
					return 12
				}
				return 15
			}
		}
	}
	for c := 0; c < 81; c++ {
		if bits.OnesCount16(p.Cands[c]) == 1 {
			chainTestPlace(p, c, bits.TrailingZeros16(p.Cands[c]))
			return 23
		}
	}
	return 0
}

// chainTestBasic applies the first basic technique, in SE's order, that
// eliminates something, and returns its rating, or 0.
func chainTestBasic(p *Position, s *chainRuleSink) Rating {
	type rule struct {
		r    Rating
		kind int
		n    int
	}
	for _, ru := range [...]rule{{26, 0, 0}, {30, 1, 2}, {32, 3, 2}, {34, 2, 2}, {36, 1, 3}, {38, 3, 3}, {40, 2, 3}, {50, 1, 4}, {52, 3, 4}, {54, 2, 4}} {
		s.reset(nil)
		switch ru.kind {
		case 0:
			chainLockingRule(s, &p.Cands)
		case 1:
			chainNakedSetRule(s, &p.Cands, ru.n)
		case 2:
			chainHiddenSetRule(s, &p.Cands, ru.n)
		case 3:
			chainFishRule(s, &p.Cands, ru.n)
		}
		if s.hints() > 0 {
			for _, k := range s.rem[:s.remEnd[0]] {
				p.Cands[k/9] &^= 1 << (k%9 + 1)
			}
			return ru.r
		}
	}
	return 0
}

// chainTestResult is what the driver found for one puzzle.
type chainTestResult struct {
	er, firstChain Rating
	steps          []Step
	solved, wrong  bool
}

// chainTestGrade solves g with the driver. It checks every chain step
// against the solution.
func chainTestGrade(g solve.Grid, c *chainer) chainTestResult {
	var res chainTestResult
	sol, ok := solve.Solve(g)
	if !ok {
		res.wrong = true
		return res
	}
	p := chainTestPosition(g)
	var sink chainRuleSink
	for {
		r := chainTestSingle(&p)
		if r == 0 {
			r = chainTestBasic(&p, &sink)
		}
		if r == 0 {
			st, ok := c.next(&p)
			if !ok {
				return res
			}
			res.steps = append(res.steps, st)
			if res.firstChain == 0 {
				res.firstChain = st.Rating
			}
			r = st.Rating
			for _, pl := range st.Placements {
				if sol[pl.Cell] != pl.Digit {
					res.wrong = true
					return res
				}
				chainTestPlace(&p, int(pl.Cell), int(pl.Digit))
			}
			for _, el := range st.Eliminations {
				if sol[el.Cell] == el.Digit {
					res.wrong = true
					return res
				}
				p.Cands[el.Cell] &^= 1 << el.Digit
			}
		}
		if r > res.er {
			res.er = r
		}
		if p.Grid.Givens() == 81 {
			res.solved = true
			return res
		}
	}
}

// chainTestLine is one line of dev_se.txt.
type chainTestLine struct {
	g          solve.Grid
	er, ep, ed Rating
	src        string
}

// chainTestData reads ../shared/data/rated/dev_se.txt, or skips.
func chainTestData(tb testing.TB) []chainTestLine {
	tb.Helper()
	f, err := os.Open("../../shared/data/rated/dev_se.txt")
	if err != nil {
		tb.Skipf("shared data absent: %v", err)
	}
	defer f.Close()
	var out []chainTestLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 5 {
			continue
		}
		g, err := solve.Parse(fs[0])
		if err != nil {
			tb.Fatal(err)
		}
		var rs [3]Rating
		for i := 0; i < 3; i++ {
			v, err := strconv.ParseFloat(fs[1+i], 64)
			if err != nil {
				tb.Fatal(err)
			}
			rs[i] = Rating(v*10 + 0.5)
		}
		out = append(out, chainTestLine{g, rs[0], rs[1], rs[2], fs[4]})
	}
	return out
}
