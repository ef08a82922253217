package grade

import (
	"math/bits"
	"reflect"
	"testing"

	"sudokubank/solve"
)

// TestAlignedTriplesKeepSteps checks that the aligned triple search,
// which skips the triples unchanged since a grid on which it found
// nothing and stops looking at a candidate at its first possible
// combination, finds what a search of every combination of every triple
// finds (alignedTriplesRef), at every step of hard, evil and SE sample
// puzzles; the skipping search is given every step's grid in turn, and
// the grid before each chain step as the grader does.
func TestAlignedTriplesKeepSteps(t *testing.T) {
	var ps []solve.Grid
	for _, file := range []string{"testdata/hard_digs.txt", "testdata/evil_digs.txt"} {
		n := 20
		if testing.Short() {
			n = 5
		}
		ps = append(ps, triplePuzzles(t, file, n)...)
	}
	sample := samplePuzzles(t, 6.2, 9.0)
	if testing.Short() {
		sample = sample[:len(sample)/4]
	}
	ps = append(ps, sample...)
	found, tried := 0, 0
	for _, p := range ps {
		sol := mustSolution(t, p)
		var g Grader
		g.st.load(p)
		var every, atChains chainTripleQuiet
		for n := 1; g.st.left > 0; n++ {
			var want chainHints
			want.reset(&g.st.p.Cands)
			alignedTriplesRef(&want, &g.st.p.Cands)
			for _, c := range []struct {
				name string
				q    *chainTripleQuiet
				sol  *solve.Grid
			}{{"fresh", nil, nil}, {"every step", &every, &sol}, {"fresh with the solution", nil, &sol}} {
				var got chainHints
				got.reset(&g.st.p.Cands)
				got.sol = c.sol
				chainAlignedTriples(&got, &g.st.p.Cands, c.q)
				if got.found() != want.found() || got.found() && !reflect.DeepEqual(got.step(), want.step()) {
					t.Fatalf("%s step %d, %s: found %v %v, every combination %v %v", p, n, c.name, got.found(), got.step(), want.found(), want.step())
				}
			}
			st, ok := g.next()
			if !ok {
				break
			}
			if st.Rating >= AlignedTripleExclusion.BaseRating() {
				// The grader tried the triples on this grid.
				var got chainHints
				got.reset(&g.st.p.Cands)
				got.sol = &sol
				chainAlignedTriples(&got, &g.st.p.Cands, &atChains)
				if got.found() != want.found() || got.found() && !reflect.DeepEqual(got.step(), want.step()) {
					t.Fatalf("%s step %d, at chain steps: found %v %v, every combination %v %v", p, n, got.found(), got.step(), want.found(), want.step())
				}
				tried++
			}
			if want.found() {
				found++
			}
			g.st.apply(&st)
		}
	}
	if found == 0 || tried == 0 {
		t.Fatalf("%d grids with an aligned triple exclusion, %d chain steps: the test shows nothing", found, tried)
	}
	t.Logf("%d puzzles, %d chain steps, %d grids with an aligned triple exclusion", len(ps), tried, found)
}

// triplePuzzles returns the first n puzzles of a file of rated puzzles.
func triplePuzzles(t *testing.T, file string, n int) []solve.Grid {
	t.Helper()
	var ps []solve.Grid
	for _, l := range chainFixtureLines(t, file, 2) {
		p, err := solve.Parse(l[0])
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
		if len(ps) == n {
			break
		}
	}
	return ps
}

// alignedTriplesRef is chainAlignedTriples as first written: every triple
// SE would choose, every combination of its candidates.
func alignedTriplesRef(h *chainHints, cands *Candidates) {
	r := AlignedTripleExclusion.BaseRating()
	var excl [81]chainCells81
	var base []int
	var ones, few chainCells81
	for c := 0; c < 81; c++ {
		switch bits.OnesCount16(cands[c]) {
		case 1:
			ones.add(c)
		case 2, 3:
			few.add(c)
		}
	}
	for c := 0; c < 81; c++ {
		if bits.OnesCount16(cands[c]) < 2 {
			continue
		}
		ps := &chainPeerSet[c]
		excl[c] = chainCells81{ps[0] & few[0], ps[1] & few[1]}
		if ps[0]&ones[0]|ps[1]&ones[1] == 0 && excl[c] != (chainCells81{}) {
			base = append(base, c)
		}
	}
	// sees reports whether cells a and b share a house.
	sees := func(a, b int) bool {
		return a != b && (a/9 == b/9 || a%9 == b%9 || a/27 == b/27 && a%9/3 == b%9/3)
	}
	small := func(x, y, z int) bool {
		return bits.OnesCount16(cands[x]) <= 3 && (sees(x, y) || sees(x, z))
	}
	for i, a := range base {
		for j := i + 1; j < len(base); j++ {
			b := base[j]
			for _, c := range base[j+1:] {
				var common []int
				for w := 0; w < 2; w++ {
					for m := excl[a][w] & excl[b][w] & excl[c][w]; m != 0; m &= m - 1 {
						common = append(common, w*64+bits.TrailingZeros64(m))
					}
				}
				if len(common) < 2 || !small(a, b, c) && !small(b, a, c) && !small(c, a, b) {
					continue
				}
				t := [3]int{a, b, c}
				var allowed [3]uint16
				for m0 := cands[a]; m0 != 0; m0 &= m0 - 1 {
					for m1 := cands[b]; m1 != 0; m1 &= m1 - 1 {
						for m2 := cands[c]; m2 != 0; m2 &= m2 - 1 {
							v := [3]uint16{m0 & -m0, m1 & -m1, m2 & -m2}
							if sees(a, b) && v[0] == v[1] || sees(a, c) && v[0] == v[2] || sees(b, c) && v[1] == v[2] {
								continue
							}
							ok := true
							for _, e := range common {
								if cands[e]&^(v[0]|v[1]|v[2]) == 0 {
									ok = false
								}
							}
							if ok {
								for k := range v {
									allowed[k] |= v[k]
								}
							}
						}
					}
				}
				var cells chainCells81
				for _, x := range t {
					cells.add(x)
				}
				for _, e := range common {
					cells.add(e)
				}
				for k, x := range t {
					if e := cands[x] &^ allowed[k]; e != 0 {
						h.add(r, AlignedTripleExclusion, x, e, 0, cells, e)
					}
				}
			}
		}
	}
}
