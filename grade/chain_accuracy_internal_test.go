package grade

import (
	"flag"
	"testing"
	"time"
)

var (
	chainMaxER  = flag.Int("chainmaxer", 100, "TestChainAccuracy: skip puzzles whose reference ER is above this many units")
	chainSingle = flag.Bool("chainsingle", false, "TestChainAccuracy: apply one hint per step, as SE does, not all of the lowest rating")
	chainSource = flag.String("chainsource", "", "TestChainAccuracy: only puzzles of this source")
)

// TestChainAccuracy grades the puzzles of dev_se.txt with the driver and
// compares ER with the reference. Every chain step is checked against the
// solution (a wrong elimination fails the test). By default it takes a
// few puzzles of each source; -chainfull takes them all (slow).
func TestChainAccuracy(t *testing.T) {
	lines := chainTestData(t)
	perSource := 15
	if *chainFull {
		perSource = 1 << 30
	}
	if testing.Short() {
		perSource = 3
	}
	maxER := Rating(*chainMaxER * 10)
	type stat struct{ n, exact, near, unsolved, chained int }
	stats := map[string]*stat{}
	taken := map[string]int{}
	var c chainer
	c.hints.single = *chainSingle
	for _, l := range lines {
		if l.er < 65 || l.er > maxER {
			continue
		}
		if taken[l.src] >= perSource {
			continue
		}
		if *chainSource != "" && l.src != *chainSource {
			continue
		}
		if (l.src == "h11" || l.src == "q2") && !*chainFull {
			continue
		}
		taken[l.src]++
		st := stats[l.src]
		if st == nil {
			st = &stat{}
			stats[l.src] = st
		}
		start := time.Now()
		res := chainTestGrade(l.g, &c)
		el := time.Since(start)
		if res.wrong {
			t.Errorf("%s: a chain step is wrong (%v)", l.g, res.steps)
			continue
		}
		st.n++
		if !res.solved {
			st.unsolved++
			t.Logf("unsolved %s %s want %v (%v)", l.src, l.g, l.er, el)
			continue
		}
		if res.er == l.er {
			st.exact++
		} else if d := res.er - l.er; d >= -2 && d <= 2 {
			st.near++
		}
		if res.er != l.er {
			t.Logf("%s %s: got ER %v, want %v (first chain %v) %v", l.src, l.g, res.er, l.er, res.firstChain, el)
		}
	}
	for src, st := range stats {
		t.Logf("%-4s n=%d exact=%d within0.2=%d unsolved=%d", src, st.n, st.exact, st.exact+st.near, st.unsolved)
	}
}
