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
	for _, ru := range [...]rule{{26, 0, 0}, {30, 1, 2}, {32, 3, 2}, {34, 2, 2}, {36, 1, 3}, {38, 3, 3}, {40, 2, 3}, {42, 4, 2}, {44, 4, 3}, {45, 5, 0}, {50, 1, 4}, {52, 3, 4}, {54, 2, 4}, {56, 6, 0}} {
		s.reset(nil)
		switch ru.kind {
		case 4:
			if chainTestWing(p, ru.n == 3) {
				return ru.r
			}
			continue
		case 5:
			if chainTestUR1(p) {
				return ru.r
			}
			continue
		case 6:
			if chainTestBUG1(p) {
				return ru.r
			}
			continue
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
			// Apply every hint of the rule: the result does not depend
			// on the scan order, so isomorphs grade alike.
			for _, k := range s.rem {
				p.Cands[k/9] &^= 1 << (k%9 + 1)
			}
			return ru.r
		}
	}
	return 0
}

// chainTestTrace, when set, sees each position handed to the chainer.
var chainTestTrace func(p *Position)

// chainTestResult is what the driver found for one puzzle.
type chainTestResult struct {
	er, firstChain Rating
	steps          []Step
	solved, wrong  bool
}

// chainTestGrade solves g with the driver. It checks every chain step
// against the solution.
func chainTestGrade(g solve.Grid, c *chainer) chainTestResult {
	sol, ok := solve.Solve(g)
	if !ok {
		return chainTestResult{wrong: true}
	}
	return chainTestGradeSolved(g, sol, c)
}

// chainTestGradeSolved is chainTestGrade for a puzzle whose solution is
// known.
func chainTestGradeSolved(g, sol solve.Grid, c *chainer) chainTestResult {
	var res chainTestResult
	p := chainTestPosition(g)
	var sink chainRuleSink
	for {
		r := chainTestSingle(&p)
		if r == 0 {
			r = chainTestBasic(&p, &sink)
		}
		if r == 0 {
			if chainTestTrace != nil {
				chainTestTrace(&p)
			}
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

// chainTestSees reports whether cells a and b share a house.
func chainTestSees(a, b int) bool {
	for _, o := range chainPeers[a] {
		if int(o) == b {
			return true
		}
	}
	return false
}

// chainTestWing applies one XY-wing (or XYZ-wing when xyz is true).
func chainTestWing(p *Position, xyz bool) bool {
	var elim [81]uint16
	size := 2
	if xyz {
		size = 3
	}
	for pv := 0; pv < 81; pv++ {
		pm := p.Cands[pv]
		if bits.OnesCount16(pm) != size {
			continue
		}
		for _, a := range chainPeers[pv] {
			am := p.Cands[a]
			if bits.OnesCount16(am) != 2 || bits.OnesCount16(am&pm) != 1+b2i(xyz) {
				continue
			}
			for _, b := range chainPeers[pv] {
				bm := p.Cands[b]
				if b <= a || bits.OnesCount16(bm) != 2 || bits.OnesCount16(bm&pm) != 1+b2i(xyz) {
					continue
				}
				z := am & bm
				if bits.OnesCount16(z) != 1 || am == bm || (am|bm)&^pm != z&^pm {
					continue
				}
				if !xyz && (z&pm != 0 || (am|bm)&pm != pm) {
					continue
				}
				if xyz && (z&pm == 0 || (am|bm) != pm) {
					continue
				}
				for c := 0; c < 81; c++ {
					if p.Cands[c]&z == 0 || c == int(a) || c == int(b) || c == pv {
						continue
					}
					if !chainTestSees(c, int(a)) || !chainTestSees(c, int(b)) || (xyz && !chainTestSees(c, pv)) {
						continue
					}
					elim[c] |= z
				}
			}
		}
	}
	return chainTestApply(p, &elim)
}

// chainTestApply removes elim from p's candidates and reports whether
// anything went.
func chainTestApply(p *Position, elim *[81]uint16) bool {
	hit := false
	for c, m := range elim {
		if p.Cands[c]&m != 0 {
			p.Cands[c] &^= m
			hit = true
		}
	}
	return hit
}

// chainTestUR1 applies one unique rectangle of type 1.
func chainTestUR1(p *Position) bool {
	var elim [81]uint16
	for r1 := 0; r1 < 9; r1++ {
		for r2 := r1 + 1; r2 < 9; r2++ {
			for c1 := 0; c1 < 9; c1++ {
				for c2 := c1 + 1; c2 < 9; c2++ {
					if (r1/3 == r2/3) == (c1/3 == c2/3) {
						continue // the rectangle must span two boxes exactly
					}
					cs := [4]int{r1*9 + c1, r1*9 + c2, r2*9 + c1, r2*9 + c2}
					for i := 0; i < 4; i++ {
						m := p.Cands[cs[(i+1)%4]]
						if bits.OnesCount16(m) != 2 || p.Cands[cs[(i+2)%4]] != m || p.Cands[cs[(i+3)%4]] != m {
							continue
						}
						x := p.Cands[cs[i]]
						if x&m == m && x != m {
							elim[cs[i]] |= m
						}
					}
				}
			}
		}
	}
	return chainTestApply(p, &elim)
}

// chainTestBUG1 applies BUG+1: every empty cell is bivalue but one,
// which has three candidates; the digit that appears three times in its
// houses goes there.
func chainTestBUG1(p *Position) bool {
	tri := -1
	for c := 0; c < 81; c++ {
		switch bits.OnesCount16(p.Cands[c]) {
		case 0, 2:
		case 3:
			if tri >= 0 {
				return false
			}
			tri = c
		default:
			return false
		}
	}
	if tri < 0 {
		return false
	}
	for d := 1; d <= 9; d++ {
		if p.Cands[tri]&(1<<d) == 0 {
			continue
		}
		ok := true
		for _, u := range chainHouses[tri] {
			if bits.OnesCount16(chainUnitPositions(&p.Cands, int(u), d)) != 3 {
				ok = false
			}
		}
		if ok {
			chainTestPlace(p, tri, d)
			return true
		}
	}
	return false
}
