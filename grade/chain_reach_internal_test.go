package grade

import (
	"math/bits"
	"math/rand/v2"
	"reflect"
	"testing"

	"sudokubank/solve"
)

// TestChainReachMatchesExact checks the pre-pass of the unary searches
// (chainReach) against the searches it cuts short, on the grid of every
// step of evil and hard digs and on a copy of it with candidates the
// solution does not need removed at random: each search from a fresh
// start, with or without a bound and the solution, records the same
// hints run as far as the pre-pass lets it as run in full (so every start
// that records something is kept), and chainUnary finds the same hints,
// paths and hint counts with the pre-pass as without.
func TestChainReachMatchesExact(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 3
	}
	var ps []solve.Grid
	for _, file := range []string{"testdata/evil_digs.txt", "testdata/hard_digs.txt"} {
		ps = append(ps, triplePuzzles(t, file, n)...)
	}
	rng := rand.New(rand.NewPCG(28, 6))
	var c chainReachCounts
	for _, p := range ps {
		sol := mustSolution(t, p)
		var g Grader
		g.st.load(p)
		gradeSteps(&g, func(int) {
			// One grid a step, with or without the solution, under one of
			// the bounds, drawn at random.
			cands := g.st.p.Cands
			if rng.IntN(2) == 0 {
				cands = chainReachThin(&cands, &sol, rng)
			}
			s := &sol
			if rng.IntN(2) == 0 {
				s = nil
			}
			bound := []Rating{0, AIC.BaseRating() + 2, XCycle.BaseRating() + 4}[rng.IntN(3)]
			chainReachCheckUnary(t, &cands, s, &c)
			chainReachCheckStarts(t, &cands, s, bound, &c)
		})
	}
	if c.recorded == 0 || c.skipped == 0 || c.cut == 0 || c.hints == 0 {
		t.Fatalf("%+v: the test shows nothing", c)
	}
	t.Logf("%d puzzles: %+v", len(ps), c)
}

// chainReachCounts counts what TestChainReachMatchesExact saw: searches
// that recorded something, searches the pre-pass skipped or cut short,
// and chainUnary passes that found a hint.
type chainReachCounts struct {
	searches, recorded, skipped, cut, hints int
}

// chainReachThin returns a copy of cands with each candidate the solution
// does not place removed with probability 1/3.
func chainReachThin(cands *Candidates, sol *solve.Grid, rng *rand.Rand) Candidates {
	out := *cands
	for c := range out {
		for m := out[c] &^ (1 << sol[c]); m != 0; m &= m - 1 {
			if rng.IntN(3) == 0 {
				out[c] &^= 1 << bits.TrailingZeros16(m)
			}
		}
	}
	return out
}

// chainReachCheckUnary compares chainUnary on cands with and without the
// pre-pass, keeping one hint and all.
func chainReachCheckUnary(t *testing.T, cands *Candidates, sol *solve.Grid, c *chainReachCounts) {
	t.Helper()
	for _, single := range []bool{false, true} {
		var got, want chainHints
		var gotXNone, wantXNone bool
		for _, h := range []*chainHints{&got, &want} {
			h.single, h.path = single, new(chainPath)
			h.reset(cands)
			h.sol = sol
			sc := new(chainUnaryScratch)
			sc.exact = h == &want
			xNone := chainUnary(h, sc, cands, nil, 0)
			if h == &want {
				wantXNone = xNone
			} else {
				gotXNone = xNone
			}
		}
		if gotXNone != wantXNone || !reflect.DeepEqual(got, want) {
			t.Fatalf("%v single %v: with the pre-pass %v %+v, without %v %+v", cands, single, gotXNone, got, wantXNone, want)
		}
		if want.found() {
			c.hints++
		}
	}
}

// chainReachCheckStarts runs the searches of each link mode on cands in
// turn, from hints with the bound given, in full and as far as the
// pre-pass lets them, and compares what they have recorded after each.
func chainReachCheckStarts(t *testing.T, cands *Candidates, sol *solve.Grid, bound Rating, c *chainReachCounts) {
	t.Helper()
	var pos [27][10]uint16
	chainUnitPositionsAll(cands, &pos)
	fresh := func(h *chainHints) {
		h.path = new(chainPath)
		h.reset(cands)
		h.sol = sol
		if bound > 0 {
			h.any, h.best = true, bound
		}
	}
	var st chainStatic
	var r chainReach
	var b chainBFS
	for _, mode := range [3][2]bool{{false, true}, {true, false}, {true, true}} {
		st.build(cands, &pos, mode[0], mode[1], false, allDigits)
		var h chainHints
		fresh(&h)
		ss := chainSearches(&h, &st, allDigits, nil)
		r.build(&st, allDigits)
		var got, want chainHints
		fresh(&got)
		fresh(&want)
		for i, se := range ss {
			l := i % 64
			if l == 0 {
				r.run(&got, &st, ss[i:min(len(ss), i+64)])
			}
			seq := want.seq
			// What the pre-pass lets the search do, with the bound it
			// starts with.
			if se.off {
				if !r.offMeets(l, chainOffBound(&got, &st)) {
					c.skipped++
				}
			} else {
				maxCycle, maxChain := chainOnBounds(&got, &st, se.chains)
				switch m := r.onNodes(l, int(se.k), &st, maxCycle, maxChain); {
				case m == 0:
					c.skipped++
				case m < max(maxCycle, maxChain):
					c.cut++
				}
			}
			if se.off {
				chainFromOff(&want, &st, &b, int(se.k), nil, 0)
				chainFromOff(&got, &st, &b, int(se.k), &r, l)
			} else {
				chainFromOn(&want, &st, &b, int(se.k), se.chains, nil, 0)
				chainFromOn(&got, &st, &b, int(se.k), se.chains, &r, l)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v mode %v bound %s search %d %+v: cut short %+v, in full %+v", cands, mode, bound, i, se, got, want)
			}
			c.searches++
			if want.seq > seq {
				c.recorded++
			}
		}
	}
}
