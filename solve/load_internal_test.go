package solve

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestLoadMatchesReference checks load against loadRef, the plain way
// it used to work (a given at a time), on the fixture puzzles, on their
// solutions with random cells emptied (up to all 81 givens), and on both
// with random cells overwritten by a random byte, which makes givens
// clash and values run out of range: the same verdict and, on success,
// the same position and dirty set.
func TestLoadMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var v Solver
	var grids []Grid
	for _, g := range v3Puzzles(t) {
		grids = append(grids, g)
		sol, ok := v.Solve(g)
		if !ok {
			continue
		}
		for range 3 {
			h := sol
			keep := rng.Float64()
			for i := range h {
				if rng.Float64() > keep {
					h[i] = 0
				}
			}
			grids = append(grids, h)
		}
		grids = append(grids, sol)
	}
	n := len(grids)
	for _, g := range grids[:n] {
		for range 2 {
			h := g
			for range 1 + rng.IntN(3) {
				switch i := rng.IntN(81); rng.IntN(4) {
				case 0:
					h[i] = uint8(rng.IntN(256))
				default:
					h[i] = uint8(1 + rng.IntN(9))
				}
			}
			grids = append(grids, h)
		}
	}
	bad, clash := 0, 0
	for _, g := range grids {
		var got, want board
		ok, wantOK := got.load(&g), want.loadRef(&g)
		if !wantOK {
			clash++
		}
		if ok != wantOK || ok && got != want {
			if bad++; bad <= 5 {
				t.Errorf("%v: load %v %+v, want %v %+v", g, ok, got, wantOK, want)
			}
		}
	}
	if clash < len(grids)/10 {
		t.Errorf("only %d of %d grids fail to load: the test no longer reaches clashes", clash, len(grids))
	}
}

// loadRef is load as it first worked, kept as the reference: each given
// adds its cell to its digit-band and its peers to the masks the
// digit's candidates lose.
func (s *board) loadRef(g *Grid) bool {
	// Each given of digit-band x adds its cell to given[x] and its peers
	// to seen: its row and box in the band, its column in the digit's
	// other bands. Two givens clash exactly when one is the other's
	// peer, which the end checks once per digit-band. The givens are
	// found eight cells at a time (see nonZeroRef), so that the empty
	// cells, usually two thirds or more, cost nothing.
	var given, seen [32]uint32
	var filled [3]uint32
	for b := range filled {
		band := (*[27]uint8)(g[b*27 : b*27+27])
		m := nonZeroRef(band[0:8]) | nonZeroRef(band[8:16])<<8 | nonZeroRef(band[16:24])<<16
		// (v + 255) >> 8 is 1 for a non-zero byte v, 0 for zero.
		m |= (uint32(band[24])+255)>>8<<24 | (uint32(band[25])+255)>>8<<25 | (uint32(band[26])+255)>>8<<26
		filled[b] = m
		for ; m != 0; m &= m - 1 {
			j := bits.TrailingZeros32(m) & 31
			v := g[b*27+j]
			if v > 9 {
				return false
			}
			x := (b*10 + int(v) - 1) & 31
			given[x] |= 1 << j
			seen[x] |= bandPeers[j]
			col := colOf[j]
			seen[mates[x][0]&31] |= col
			seen[mates[x][1]&31] |= col
		}
	}
	s.dirty = 0
	for b := range filled {
		free := bandAll &^ filled[b]
		for x := b * 10; x < b*10+9; x++ {
			p := given[x&31]
			if p&seen[x&31] != 0 {
				return false // two givens of one digit in a row, column or box
			}
			s.f[x&31] = free&^seen[x&31] | p
			// (6 - k) >> 2 is 1 for k < 3 givens, 0 for k = 3.
			s.dirty |= uint32(6-bits.OnesCount32(p)) >> 2 << x
		}
		s.u[b] = free
	}
	return true
}

// nonZeroRef returns the set of the eight bytes of p that are not zero,
// bit i for p[i].
func nonZeroRef(p []uint8) uint32 {
	w := binary.LittleEndian.Uint64(p)
	const low7, high1 = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	t := (w&low7 + low7 | w) & high1
	return uint32(t >> 7 * 0x0102040810204080 >> 56)
}

// TestGridRoundTrip checks that grid writes back every solution that
// load reads, for the solutions of the fixture puzzles under random
// relabellings of the digits, so that every value sits in every cell.
func TestGridRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var v Solver
	n := 0
	for _, g := range v3Puzzles(t) {
		sol, ok := v.Solve(g)
		if !ok {
			continue
		}
		for range 2 {
			perm := rng.Perm(9)
			h := sol
			for i := range h {
				h[i] = uint8(perm[h[i]-1] + 1)
			}
			var s board
			if !s.load(&h) || !s.solved() {
				t.Fatalf("%v: a solution does not load as solved", h)
			}
			var got Grid
			s.grid(&got)
			if got != h {
				t.Fatalf("grid wrote %v, want %v", got, h)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no solutions checked")
	}
}
