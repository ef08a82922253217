package grade

import (
	"bufio"
	"flag"
	"os"
	"strings"
	"testing"

	"sudokubank/solve"
)

// chainPosition builds a position with no placed digit from a function
// giving each cell's candidates.
func chainPosition(cands func(r, c int) uint16) Position {
	var p Position
	for i := 0; i < 81; i++ {
		p.Cands[i] = cands(i/9, i%9)
	}
	return p
}

// TestChainTurbotFish builds a skyscraper on digit 1: columns 1 and 7
// (1-based) hold 1 only in rows 1 and 6, and rows 2 and 6. Every other
// digit is a candidate everywhere, so no other link is strong. Either
// r1c1 or r2c7 is 1, so 1 leaves r1c8, r1c9, r2c2 and r2c3: four X-chains
// of 6 nodes (a turbot fish), rated 6.6.
func TestChainTurbotFish(t *testing.T) {
	const all = 0x3fc // digits 2..9
	p := chainPosition(func(r, c int) uint16 {
		switch c {
		case 0:
			if r == 0 || r == 5 {
				return all | 2
			}
			return all
		case 6:
			if r == 1 || r == 5 {
				return all | 2
			}
			return all
		}
		return all | 2
	})
	var c chainer
	st, ok := c.next(&p)
	if !ok {
		t.Fatal("no step")
	}
	got := chainFormatStep(st)
	want := "x-chain 6.6 r1c8-1;r1c9-1;r2c2-1;r2c3-1"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestChainNothing: with every digit a candidate in every cell no link is
// strong and nothing can be concluded; the chainer must not fire.
func TestChainNothing(t *testing.T) {
	p := chainPosition(func(r, c int) uint16 { return 0x3fe })
	c := chainer{maxLevel: 1}
	if st, ok := c.next(&p); ok {
		t.Errorf("got %s, want no step", chainFormatStep(st))
	}
}

// TestChainLengthBonus checks LengthBonus against the SE table in
// GRADING.md: one tenth each time nodes-2 passes 4, 6, 8, 12, 16, 24, 32,
// 48, 64, 96, 128.
func TestChainLengthBonus(t *testing.T) {
	ceilings := []int{4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}
	for nodes := 0; nodes < 200; nodes++ {
		want := Rating(0)
		for _, c := range ceilings {
			if nodes-2 > c {
				want++
			}
		}
		if got := LengthBonus(nodes); got != want {
			t.Errorf("LengthBonus(%d) = %v, want %v", nodes, got, want)
		}
	}
}

// chainTransform maps a grid to an isomorph: digits relabelled by perm,
// then rows permuted within bands and bands swapped, then transposed.
func chainTransform(g solve.Grid, perm [10]uint8, rows [9]int, transpose bool) solve.Grid {
	var out solve.Grid
	for i := 0; i < 81; i++ {
		r, c := rows[i/9], i%9
		if transpose {
			r, c = c, r
		}
		out[r*9+c] = perm[g[i]]
	}
	return out
}

// TestChainIsomorphs grades the puzzles named in the fixture file and
// isomorphs of them with the driver: the ER must not change. (The
// intermediate steps may: SE's dynamic chains count ancestors in the
// order the cells are visited.)
func TestChainIsomorphs(t *testing.T) {
	f, err := os.Open(chainFixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var puzzles []solve.Grid
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 3 && fs[0] == "#" && len(fs[2]) == 82 {
			g, err := solve.Parse(strings.TrimSuffix(fs[2], ","))
			if err == nil {
				puzzles = append(puzzles, g)
			}
		}
	}
	if len(puzzles) == 0 {
		t.Fatal("no puzzles in the fixture file")
	}
	keep := 8
	if testing.Short() {
		keep = 3
	}
	if !*chainFull && len(puzzles) > keep {
		puzzles = puzzles[:keep]
	}
	perm := [10]uint8{0, 5, 3, 9, 1, 7, 2, 8, 4, 6}
	rows := [9]int{6, 8, 7, 0, 2, 1, 3, 5, 4}
	ratings := func(res chainTestResult) string {
		var b strings.Builder
		for _, s := range res.steps {
			b.WriteString(s.Rating.String() + " ")
		}
		return b.String()
	}
	var c chainer
	for _, g := range puzzles {
		base := chainTestGrade(g, &c)
		for _, tr := range []bool{false, true} {
			iso := chainTransform(g, perm, rows, tr)
			res := chainTestGrade(iso, &c)
			if res.wrong || res.er != base.er {
				t.Errorf("%s transpose=%v: ER %v steps %s, original ER %v steps %s", g, tr, res.er, ratings(res), base.er, ratings(base))
			}
		}
	}
}

var chainIsoAll = flag.Bool("chainiso", false, "TestChainIsomorphsData: grade isomorphs of the dev_se puzzles rated 7.5-9.0 (slow)")

// TestChainIsomorphsData counts, over the dev_se puzzles rated 7.5 to 9.0
// (where Nishio and dynamic chains decide), how often an isomorph gets a
// different ER from the driver. SE's dynamic chains count ancestors in
// visiting order, so a few may differ; the test reports the rate.
func TestChainIsomorphsData(t *testing.T) {
	if !*chainIsoAll {
		t.Skip("needs -chainiso")
	}
	perm := [10]uint8{0, 5, 3, 9, 1, 7, 2, 8, 4, 6}
	rows := [9]int{6, 8, 7, 0, 2, 1, 3, 5, 4}
	var c chainer
	n, diff := 0, 0
	for _, l := range chainTestData(t) {
		if l.er < 75 || l.er > 90 {
			continue
		}
		base := chainTestGrade(l.g, &c)
		for _, tr := range []bool{false, true} {
			res := chainTestGrade(chainTransform(l.g, perm, rows, tr), &c)
			n++
			if res.er != base.er {
				diff++
				t.Logf("%s transpose=%v: ER %v, original %v (reference %v)", l.g, tr, res.er, base.er, l.er)
			}
		}
	}
	t.Logf("%d isomorphs, %d with a different ER", n, diff)
	// SE's dynamic chains count ancestors in visiting order, so a few
	// isomorphs rate 0.1 apart (1 of 496 when measured); more than 1% is
	// a regression, not that quirk.
	if diff*100 > n {
		t.Errorf("%d of %d isomorphs rate differently, want at most 1%%", diff, n)
	}
}

// TestChainMaxNodes checks the closed form against the definition: the
// most nodes n (up to 2000) with base+LengthBonus(n) within the bound.
func TestChainMaxNodes(t *testing.T) {
	for bound := Rating(1); bound <= 130; bound++ {
		for base := Rating(1); base <= 130; base++ {
			h := chainHints{any: true, best: bound}
			n := 1
			for n < 2000 && base+LengthBonus(n+1) <= bound {
				n++
			}
			if base+LengthBonus(n) > bound {
				n = 0
			}
			if got := chainMaxNodes(&h, base); got != n {
				t.Fatalf("bound %s base %s: %d nodes, want %d", bound, base, got, n)
			}
		}
	}
}
