package solve

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTriads checks the gathered triads against their definition, bit
// k*3+r set when row r of box k holds a cell, on every single cell and on
// random masks.
func TestTriads(t *testing.T) {
	want := func(a uint32) uint32 {
		var w uint32
		for r := 0; r < 3; r++ {
			for k := 0; k < 3; k++ {
				if a>>(r*9+k*3)&7 != 0 {
					w |= 1 << (k*3 + r)
				}
			}
		}
		return w
	}
	masks := []uint32{0, bandAll}
	for c := 0; c < 27; c++ {
		masks = append(masks, 1<<c, bandAll&^(1<<c))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		masks = append(masks, rng.Uint32()&bandAll)
	}
	for _, a := range masks {
		if got, want := triads(a), want(a); got != want {
			t.Fatalf("triads(%027b) = %09b, want %09b", a, got, want)
		}
	}
}

// searchPositions walks a search path from each puzzle of
// testdata/minimal.txt and calls visit at each position on it: pre is
// the position before the rules and naked singles, s after them, and biv
// holds s's bivalue cells; s is nil where they solve the puzzle or fail,
// which ends the path. The path takes the first candidate of each branch
// cell, or a random one when rng is set.
func searchPositions(t *testing.T, rng *rand.Rand, visit func(line string, pre, s *board, biv *[3]uint32)) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "minimal.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if len(line) < 81 {
			continue
		}
		g, err := Parse(line[:81])
		if err != nil {
			t.Fatal(err)
		}
		var s board
		if !s.load(&g) {
			t.Fatalf("%s: does not load", line)
		}
		for {
			pre := s
			var biv [3]uint32
			if !s.propagate(&biv) || s.solved() {
				visit(line, &pre, nil, &biv)
				break
			}
			visit(line, &pre, &s, &biv)
			b, c, m := s.branch(&biv)
			if rng != nil {
				for k := rng.IntN(bits.OnesCount32(m)); k > 0; k-- {
					m &= m - 1
				}
			}
			s.place(b, bits.TrailingZeros32(m), c)
		}
	}
}

// TestBranchChoice checks branch's choice against its definition,
// written plainly: of the bivalue cells given, the one with the most
// unsolved peers (row, column and box, counted cell by cell), the first
// in grid order on a tie. The positions are those along the leftmost path
// of the search from each puzzle of testdata/minimal.txt, each offered
// with its bivalue cells and with a random subset of them.
func TestBranchChoice(t *testing.T) {
	unsolved := func(s *board, i int) bool { return s.u[i/27]>>(i%27)&1 != 0 }
	want := func(s *board, biv *[3]uint32) int {
		best, bestScore := -1, -1
		for i := 0; i < 81; i++ {
			if biv[i/27]>>(i%27)&1 == 0 {
				continue
			}
			score := 0
			for j := 0; j < 81; j++ {
				peer := j/9 == i/9 || j%9 == i%9 || (j/27 == i/27 && j%9/3 == i%9/3)
				if j != i && peer && unsolved(s, j) {
					score++
				}
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		return best
	}
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	searchPositions(t, nil, func(line string, _, s *board, biv *[3]uint32) {
		if s == nil {
			return
		}
		for _, offer := range [][3]uint32{*biv, {biv[0] & rng.Uint32(), biv[1] & rng.Uint32(), biv[2] & rng.Uint32()}} {
			if offer == ([3]uint32{}) {
				continue
			}
			b, c, m := s.branch(&offer)
			if w := want(s, &offer); b*27+int(c) != w {
				t.Fatalf("%s: branch chose cell %d, want %d", line, b*27+int(c), w)
			}
			if m != s.cands(b, c) {
				t.Fatalf("%s: branch gave candidates %b, want %b", line, m, s.cands(b, c))
			}
			checked++
		}
	})
	if checked < 100 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestPlaceSingle checks placeSingle against place on every naked single
// of the positions along random search paths from each puzzle of
// testdata/minimal.txt, each position taken after the band rules: the
// same masks, unsolved cells and dirty bits.
func TestPlaceSingle(t *testing.T) {
	checked := 0
	searchPositions(t, rand.New(rand.NewPCG(7, 8)), func(line string, pre, _ *board, _ *[3]uint32) {
		r := *pre
		if !r.rules() {
			return
		}
		for b := range r.u {
			for m := r.u[b]; m != 0; m &= m - 1 {
				c := uint(bits.TrailingZeros32(m))
				d := r.cands(b, c)
				if bits.OnesCount32(d) != 1 {
					continue
				}
				want, got := r, r
				want.dirty, got.dirty = 0, 0
				if !want.place(b, bits.TrailingZeros32(d), c) {
					t.Fatalf("%s: place refuses the single %d at cell %d of band %d", line, d, c, b)
				}
				got.placeSingle(b, bits.TrailingZeros32(d), c)
				if got != want {
					t.Fatalf("%s: placeSingle gives %+v, place %+v", line, got, want)
				}
				checked++
			}
		}
	})
	if checked < 1000 {
		t.Fatalf("only %d singles checked", checked)
	}
}

// TestPlaceCands checks placeCands against place on every candidate of
// every unsolved cell of the positions along random search paths from
// each puzzle of testdata/minimal.txt: the same masks, unsolved cells and
// dirty bits.
func TestPlaceCands(t *testing.T) {
	checked := 0
	searchPositions(t, rand.New(rand.NewPCG(9, 10)), func(line string, _, s *board, _ *[3]uint32) {
		if s == nil {
			return
		}
		for b := range s.u {
			for u := s.u[b]; u != 0; u &= u - 1 {
				c := uint(bits.TrailingZeros32(u))
				m := s.cands(b, c)
				for o := m; o != 0; o &= o - 1 {
					d := bits.TrailingZeros32(o)
					want, got := *s, *s
					want.dirty, got.dirty = 0, 0
					want.place(b, d, c)
					got.placeCands(b, d, c, m)
					if got != want {
						t.Fatalf("%s: placeCands(%d, %d, %d, %b) gives %+v, place %+v", line, b, d, c, m, got, want)
					}
					checked++
				}
			}
		}
	})
	if checked < 1000 {
		t.Fatalf("only %d placements checked", checked)
	}
}
