package grade

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"sudokubank/solve"
)

// TestSolutionSkipsKeepSteps checks that the searches that skip what the
// solution shows to be in vain (aligned pair and triple exclusion, the
// cycles and forcing chains, Nishio, dynamic forcing chains), and the
// X-links chains that skip the digits where they found nothing before,
// return the same step as the full searches, at every step of the
// puzzles of the SE sample rated 6.2 to 9.0 (the top levels of the evil
// bank).
func TestSolutionSkipsKeepSteps(t *testing.T) {
	ps := samplePuzzles(t, 6.2, 9.0)
	if testing.Short() {
		ps = ps[:len(ps)/4]
	}
	skipped := 0 // steps at which the skipping searches ran
	for _, p := range ps {
		sol := mustSolution(t, p)
		var skip, full Grader
		skip.st.load(p)
		full.st.load(p)
		skip.sol = sol
		skip.st.sol, skip.chains.sol, skip.solState = &skip.sol, &skip.sol, 2
		skip.chains.dver = &skip.st.dver
		for n := 1; full.st.left > 0; n++ {
			want, wantOK := full.next()
			got, gotOK := skip.next()
			if got.Rating >= AlignedPairExclusion.BaseRating() || !gotOK {
				skipped++
			}
			if gotOK != wantOK || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s step %d: with the solution %v %s, without %v %s", p, n, gotOK, got, wantOK, want)
			}
			if !wantOK {
				break
			}
			full.st.apply(&want)
			skip.st.apply(&got)
		}
	}
	if skipped == 0 {
		t.Fatal("no step reached the searches that use the solution")
	}
	t.Logf("%d puzzles, %d steps past aligned pair exclusion", len(ps), skipped)
}

// TestFishSkipsKeepSteps checks that fish and locking, which skip the
// digits unchanged since they last found nothing, the naked and hidden
// sets, which skip such units, and the unique loops, which skip the
// pairs of digits whose cells are unchanged since they closed no loop,
// find what a full search finds, at every step of the SE sample's
// puzzles rated up to 9.0.
func TestFishSkipsKeepSteps(t *testing.T) {
	var g Grader
	tried := 0
	// The nested chains of the puzzles above 9.0 take seconds.
	for _, p := range samplePuzzles(t, 0, 9.0) {
		s := &g.st
		s.load(p)
		for s.left > 0 {
			for k := 2; k <= 4; k++ {
				searchesAgree(t, p, fmt.Sprintf("fish(%d)", k), "digit", s,
					func(f *state) { f.fishNone = [5][10]uint64{} },
					func(x *state) (Step, bool) { return x.fish(k) })
				searchesAgree(t, p, fmt.Sprintf("nakedSet(%d)", k), "unit", s,
					func(f *state) { f.nakedNone = [5][27]uint64{} },
					func(x *state) (Step, bool) { return x.nakedSet(k) })
				tried += 2
				for _, direct := range []bool{true, false} {
					if direct && k == 4 {
						continue
					}
					searchesAgree(t, p, fmt.Sprintf("hiddenSet(%d, %v)", k, direct), "unit", s,
						func(f *state) { f.hiddenNone = [5][2][27]uint64{} },
						func(x *state) (Step, bool) { return x.hiddenSet(k, direct) })
					tried++
				}
			}
			searchesAgree(t, p, "uniqueLoops", "pair of digits", s,
				func(f *state) { f.loopQuiet = [10]uint16{} },
				(*state).uniqueLoops)
			tried++
			for _, direct := range []bool{true, false} {
				searchesAgree(t, p, fmt.Sprintf("locking(%v)", direct), "digit", s,
					func(f *state) { f.lockNone = [2][10]uint64{} },
					func(x *state) (Step, bool) { return x.locking(direct) })
				tried++
			}
			st, ok := g.next()
			if !ok {
				break
			}
			s.apply(&st)
		}
	}
	t.Logf("%d searches", tried)
}

// searchesAgree checks that search on s, which skips what it last found
// nothing in, finds what it finds on a copy of s whose record of that
// forget clears, searching every digit or unit (each).
func searchesAgree(t *testing.T, p solve.Grid, what, each string, s *state, forget func(*state), search func(*state) (Step, bool)) {
	t.Helper()
	fresh := *s
	forget(&fresh)
	want, wantOK := search(&fresh)
	got, gotOK := search(s)
	if gotOK != wantOK || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: %s gives %v %s, a search of every %s %v %s", p, what, gotOK, got, each, wantOK, want)
	}
}

// samplePuzzles returns the puzzles of testdata/se_sample.txt whose SE
// rating is lo to hi, in file order.
func samplePuzzles(t *testing.T, lo, hi float64) []solve.Grid {
	t.Helper()
	f, err := os.Open("testdata/se_sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ps []solve.Grid
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 2 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		er, err := strconv.ParseFloat(fs[1], 64)
		if err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		if er >= lo && er <= hi {
			ps = append(ps, solve.GridOf(fs[0]))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 {
		t.Fatalf("no puzzle of the sample rated %.1f to %.1f", lo, hi)
	}
	return ps
}
