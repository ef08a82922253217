package grade

import (
	"math/bits"
	"reflect"
	"testing"
)

// TestRunDynamicMatchesRunChain runs every candidate on and off, as
// Nishio and as dynamic forcing chains, through runDynamic, which numbers
// ancestors in the order the run reaches them, and through runChain,
// which keeps a full set per node, and compares what they force, the
// counts and the contradictions, on the fixture positions and on the
// positions where the hard digs' grades take a chain step.
func TestRunDynamicMatchesRunChain(t *testing.T) {
	ps := chainFixturePositions(t)
	n := 12
	if testing.Short() {
		n = 3
	}
	ps = append(ps, chainStepPositions(t, "testdata/hard_digs.txt", n)...)
	long := 0 // runs that reached more than 64 nodes
	for i := range ps {
		p := &ps[i]
		for _, m := range []chainMode{
			{nishio: true, dynamic: true, tech: Nishio},
			{multiple: true, dynamic: true, tech: DynamicForcingChains},
		} {
			var e chainEngine
			e.mode = m
			e.orig = &p.Cands
			e.gen = 1
			chainUnitPositionsAll(&p.Cands, &e.opos)
			var a, b chainRun
			for c := 0; c < 81; c++ {
				for mm := p.Cands[c]; mm != 0; mm &= mm - 1 {
					k := c*9 + bits.TrailingZeros16(mm) - 1
					for _, on := range [2]bool{true, false} {
						e.runDynamic(&a, k, on)
						e.runChain(&b, k, on)
						if a.on != b.on || a.off != b.off || a.contra != b.contra {
							t.Fatalf("position %d, %v, candidate %d on=%v: runDynamic forces other nodes", i, m.tech, k, on)
						}
						if a.contra && (a.contraSum != b.contraSum || a.contraK != b.contraK) {
							t.Fatalf("position %d, %v, candidate %d on=%v: contradiction %d/%d, want %d/%d", i, m.tech, k, on, a.contraK, a.contraSum, b.contraK, b.contraSum)
						}
						nodes := 0
						for n := 0; n < 1458; n++ {
							set := &a.off
							if n&1 == 1 {
								set = &a.on
							}
							if !set.has(n >> 1) {
								continue
							}
							nodes++
							if a.cnt[n] != b.cnt[n] {
								t.Fatalf("position %d, %v, candidate %d on=%v: node %d count %d, want %d", i, m.tech, k, on, n, a.cnt[n], b.cnt[n])
							}
						}
						if nodes > 64 {
							long++
						}
					}
				}
			}
		}
	}
	if long == 0 {
		t.Fatal("no run reached more than 64 nodes: the sets' later words are untested")
	}
}

// chainStepPositions grades the first n puzzles of a file of rated
// puzzles and returns the positions on which the grader took a step of
// the forcing chains (Nishio or harder).
func chainStepPositions(t *testing.T, file string, n int) []Position {
	t.Helper()
	var out []Position
	for _, p := range triplePuzzles(t, file, n) {
		var g Grader
		g.st.load(p)
		for g.st.left > 0 {
			pos := g.st.p
			st, ok := g.next()
			if !ok {
				break
			}
			if st.Technique >= Nishio {
				out = append(out, pos)
			}
			g.st.apply(&st)
		}
	}
	return out
}

// TestNishioSkipKeepsSteps checks that the grader's chains, which skip
// Nishio in the digits unchanged since it met no contradiction there
// (and the X-links chains in such digits), take the same step as chains
// that skip nothing but what the solution rules out, at every step of
// hard digs.
func TestNishioSkipKeepsSteps(t *testing.T) {
	n := 25
	if testing.Short() {
		n = 6
	}
	skipped := 0
	for _, p := range triplePuzzles(t, "testdata/hard_digs.txt", n) {
		sol := mustSolution(t, p)
		var skip, full Grader
		for _, g := range []*Grader{&skip, &full} {
			g.st.load(p)
			g.sol = sol
			g.st.sol, g.chains.sol, g.solState = &g.sol, &g.sol, 2
		}
		skip.chains.dver = &skip.st.dver
		for n := 1; full.st.left > 0; n++ {
			want, wantOK := full.next()
			got, gotOK := skip.next()
			if e := skip.chains.eng; e != nil && e.nishioSkip != 0 {
				skipped++
			}
			if gotOK != wantOK || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s step %d: skipping %v %s, not skipping %v %s", p, n, gotOK, got, wantOK, want)
			}
			if !wantOK {
				break
			}
			full.st.apply(&want)
			skip.st.apply(&got)
		}
	}
	if skipped == 0 {
		t.Fatal("Nishio skipped no digit")
	}
}
