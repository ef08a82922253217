package grade

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sudokubank/solve"
)

// chainFixturePositions returns the positions of the chain fixture file.
func chainFixturePositions(tb testing.TB) []Position {
	tb.Helper()
	var out []Position
	for _, fs := range chainFixtureLines(tb, chainFixtureFile, 2) {
		p, err := chainParsePosition(fs[0])
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		tb.Fatal("no positions in " + chainFixtureFile)
	}
	return out
}

// chainWeakRef returns every weak link of candidate k as SE lists them:
// the other candidates of its cell (with Y-links), then its digit in the
// peers in chainPeers order.
func chainWeakRef(cands *Candidates, k int, y bool) []int16 {
	c, d := k/9, k%9+1
	var out []int16
	if y {
		for m := cands[c] &^ (1 << d); m != 0; m &= m - 1 {
			out = append(out, int16(c*9+bits.TrailingZeros16(m)-1))
		}
	}
	for _, o := range chainPeers[c] {
		if cands[o]&(1<<d) != 0 {
			out = append(out, int16(int(o)*9+d-1))
		}
	}
	return out
}

// TestChainStaticLinks checks the link lists of every mode against the
// plain definition: with all links, every weak link in SE's order; else
// only those to a candidate with a strong link, in the same order.
func TestChainStaticLinks(t *testing.T) {
	var st chainStatic
	for i, p := range chainFixturePositions(t) {
		var pos [27][10]uint16
		chainUnitPositionsAll(&p.Cands, &pos)
		for _, mode := range [...][3]bool{{false, true, false}, {true, false, false}, {true, true, false}, {true, true, true}} {
			y, x, all := mode[0], mode[1], mode[2]
			st.build(&p.Cands, &pos, y, x, all, allDigits)
			for c := 0; c < 81; c++ {
				for m := p.Cands[c]; m != 0; m &= m - 1 {
					k := c*9 + bits.TrailingZeros16(m) - 1
					ref := chainWeakRef(&p.Cands, k, y)
					for _, q := range ref {
						if !st.sees(k, int(q)) {
							t.Fatalf("position %d, mode %v: %d does not see %d", i, mode, k, q)
						}
					}
					if !all {
						if st.strongN[k] == 0 {
							continue // no list: only a start, served by fill
						}
						var kept []int16
						for _, q := range ref {
							if st.strongN[q] > 0 {
								kept = append(kept, q)
							}
						}
						ref = kept
					}
					if got := st.weak(k); !slices.Equal(got, ref) {
						t.Fatalf("position %d, mode %v, candidate %d: weak links %v, want %v", i, mode, k, got, ref)
					}
				}
			}
		}
	}
}

// TestRunStaticMatchesRunChain runs every candidate of the fixture
// positions on and off with static links both ways, through the
// prebuilt lists and through the general propagation, and compares what
// they force, the counts and the contradictions.
func TestRunStaticMatchesRunChain(t *testing.T) {
	for i, p := range chainFixturePositions(t) {
		var e chainEngine
		e.mode = chainMode{multiple: true, tech: MultipleForcingChains}
		e.orig = &p.Cands
		e.gen = 1
		chainUnitPositionsAll(&p.Cands, &e.opos)
		e.links.build(&p.Cands, &e.opos, true, true, true, allDigits)
		var a, b chainRun
		for c := 0; c < 81; c++ {
			for m := p.Cands[c]; m != 0; m &= m - 1 {
				k := c*9 + bits.TrailingZeros16(m) - 1
				for _, on := range [2]bool{true, false} {
					e.runStatic(&a, k, on)
					e.runChain(&b, k, on)
					if a.on != b.on || a.off != b.off || a.contra != b.contra {
						t.Fatalf("position %d, candidate %d on=%v: static run forces other nodes", i, k, on)
					}
					if a.contra && (a.contraSum != b.contraSum || a.contraK != b.contraK) {
						t.Fatalf("position %d, candidate %d on=%v: contradiction %d/%d, want %d/%d", i, k, on, a.contraK, a.contraSum, b.contraK, b.contraSum)
					}
					for n := 0; n < 1458; n++ {
						set := &a.off
						if n&1 == 1 {
							set = &a.on
						}
						if set.has(n>>1) && a.cnt[n] != b.cnt[n] {
							t.Fatalf("position %d, candidate %d on=%v: node %d count %d, want %d", i, k, on, n, a.cnt[n], b.cnt[n])
						}
					}
				}
			}
		}
	}
}

// TestChainLockedMasks checks the mask tests of the locking rule against
// the cells: a box's places in one row or column, a line's in one box.
func TestChainLockedMasks(t *testing.T) {
	for pm := uint16(0); pm < 1<<9; pm++ {
		if bits.OnesCount16(pm) < 2 {
			continue
		}
		for b := 18; b < 27; b++ {
			want := [2]int{-1, -1}
			rows, cols := map[int]bool{}, map[int]bool{}
			for w := pm; w != 0; w &= w - 1 {
				c := solve.Units[b][bits.TrailingZeros16(w)]
				rows[c/9], cols[9+c%9] = true, true
			}
			for r := range rows {
				if len(rows) == 1 {
					want[0] = r
				}
			}
			for col := range cols {
				if len(cols) == 1 {
					want[1] = col
				}
			}
			if got := chainLockedLines(b, pm); got != want {
				t.Fatalf("box %d, places %09b: lines %v, want %v", b, pm, got, want)
			}
		}
		for line := 0; line < 18; line++ {
			boxes := map[int]bool{}
			for w := pm; w != 0; w &= w - 1 {
				boxes[int(chainHouses[solve.Units[line][bits.TrailingZeros16(w)]][0])] = true
			}
			want := -1
			for b := range boxes {
				if len(boxes) == 1 {
					want = b
				}
			}
			if got := chainLineBox(line, pm); got != want {
				t.Fatalf("line %d, places %09b: box %d, want %d", line, pm, got, want)
			}
		}
	}
}

// TestChainRulesSkipUnits removes candidates from the fixture positions
// as a chain would and checks that the rules, told which units lost
// which digits, find the same hints with parents as a full scan.
func TestChainRulesSkipUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type rule func(s *chainRuleSink, cands *Candidates)
	rules := []rule{
		chainLockingRule,
		func(s *chainRuleSink, c *Candidates) { chainHiddenSetRule(s, c, 2) },
		func(s *chainRuleSink, c *Candidates) { chainNakedSetRule(s, c, 2) },
		func(s *chainRuleSink, c *Candidates) { chainFishRule(s, c, 2) },
	}
	hints := 0
	for i, p := range chainFixturePositions(t) {
		for trial := 0; trial < 100; trial++ {
			work := p.Cands
			var units [10]uint32
			for n := 1 + rng.IntN(30); n > 0; n-- {
				c := rng.IntN(81)
				if bits.OnesCount16(work[c]) < 2 {
					continue
				}
				m := work[c]
				for j := rng.IntN(bits.OnesCount16(m)); j > 0; j-- {
					m &= m - 1
				}
				d := bits.TrailingZeros16(m)
				work[c] &^= 1 << d
				units[d] |= chainCellUnits[c]
			}
			var pos [27][10]uint16
			chainUnitPositionsAll(&work, &pos)
			for ri, r := range rules {
				var full, part chainRuleSink
				full.reset(&p.Cands)
				full.pos = &pos
				r(&full, &work)
				part.reset(&p.Cands)
				part.pos, part.units = &pos, &units
				r(&part, &work)
				got, want := chainParentHints(&part), chainParentHints(&full)
				if got != want {
					t.Fatalf("position %d, trial %d, rule %d: hints with parents\n%s\nwant\n%s", i, trial, ri, got, want)
				}
				if want != "" {
					hints++
				}
			}
		}
	}
	if hints < 20 {
		t.Fatalf("rules found hints with parents %d times: too few to test", hints)
	}
}

// chainParentHints lists the hints of s that have parents, one a line.
func chainParentHints(s *chainRuleSink) string {
	var b strings.Builder
	rs, ps := 0, 0
	for h := 0; h < s.hints(); h++ {
		re, pe := s.remEnd[h], s.parEnd[h]
		if pe > ps {
			fmt.Fprintf(&b, "%v %v\n", s.rem[rs:re], s.par[ps:pe])
		}
		rs, ps = re, pe
	}
	return b.String()
}
