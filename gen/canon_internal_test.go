package gen

import (
	"bufio"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"sudokubank/solve"
)

// TestCanonGridMatchesPuzzleSearch checks the full-grid search against the
// puzzle search, which knows nothing of full grids (and is slow on them).
func TestCanonGridMatchesPuzzleSearch(t *testing.T) {
	f, err := os.Open("testdata/canon/minimal.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 60
	if testing.Short() {
		n = 10
	}
	var z Canonicalizer
	sc := bufio.NewScanner(f)
	for i := 0; i < n && sc.Scan(); i++ {
		fields := strings.Fields(sc.Text())
		g, err := solve.Parse(fields[1])
		if err != nil {
			t.Fatal(err)
		}
		want, _ := z.canonPuzzle(&g, false)
		got, tr := z.CanonGrid(g)
		if got != want {
			t.Errorf("CanonGrid(%v) = %v, want %v", g, got, want)
		}
		if tr.Apply(g) != got {
			t.Errorf("CanonGrid(%v): transform %v does not give the form", g, tr)
		}
	}
}

// TestCanonLower checks the bound a row's first digit sets on its level:
// empty cells before the digit and 15s from there, lowered only, and the
// children kept so far dropped when it lowers.
func TestCanonLower(t *testing.T) {
	tests := []struct {
		name      string
		best      uint64
		first     int // 7 plus the first digit's column, 16 for an empty row
		wantBest  uint64
		wantDrops bool
	}{
		{"first digit at column 0 from the start", ^uint64(0), 7, 0xfffffffff, true},
		{"first digit at column 5 from the start", ^uint64(0), 12, 0x00000ffff, true},
		{"empty row from the start", ^uint64(0), 16, 0, true},
		{"a smaller best stays", 0x000001023, 12, 0x000001023, false},
		{"a larger best drops", 0x000102034, 12, 0x00000ffff, true},
		{"an empty row's best stays", 0, 16, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var z Canonicalizer
			z.best = tt.best
			z.nxt = make([]canonCand, 2)
			z.lower(tt.first)
			if z.best != tt.wantBest {
				t.Errorf("best = %#x, want %#x", z.best, tt.wantBest)
			}
			if dropped := len(z.nxt) == 0; dropped != tt.wantDrops {
				t.Errorf("children dropped = %v, want %v", dropped, tt.wantDrops)
			}
		})
	}
}

// TestCanonOneDigit checks the shortcut for a first row with one digit
// against the general expansion, for the digit in every column of every
// row of the grid and of its transpose.
func TestCanonOneDigit(t *testing.T) {
	var z Canonicalizer
	for cell := range 81 {
		var g solve.Grid
		g[cell] = uint8(cell%9 + 1)
		if !z.load(&g) {
			t.Fatalf("load(%v) rejects a valid grid", g)
		}
		for tr := range uint8(2) {
			r := cell / 9
			if tr == 1 {
				r = cell % 9
			}
			m := z.mask[tr][r]
			c := canonCand{tr: tr, next: 1, stackOf: [3]uint8{noStack, noStack, noStack},
				label: [16]uint8{0, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit}}
			z.best = firstRowKey[m]
			z.nxt = z.nxt[:0]
			z.expand(&c, 0, r)
			want := slices.Clone(z.nxt)
			z.nxt = z.nxt[:0]
			z.oneDigit(&c, r, m)
			if !slices.Equal(z.nxt, want) {
				t.Errorf("cell %d, transposed %d: oneDigit gives %+v, expand %+v", cell, tr, z.nxt, want)
			}
		}
	}
}

// TestCanonLastRows checks the sorted last band against the level-by-level
// search (fixedRows, which labels each row) from random states of one
// candidate with every column placed: for every fixture puzzle, its
// transpose too, any two bands done, all digits labelled or all but one.
func TestCanonLastRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 5))
	var ps []solve.Grid
	for _, name := range []string{"minimal.txt", "17clue.txt", "magictour.txt"} {
		ps = append(ps, canonReadLines(t, "testdata/canon/"+name)...)
	}
	if testing.Short() {
		ps = ps[:600]
	}
	ps = append(ps, solve.Grid{0: 1, 80: 2}, solve.Grid{}) // empty rows
	var z, ref Canonicalizer
	sorted := 0
	for i, p := range ps {
		if !z.load(&p) {
			t.Fatalf("load(%v) rejects a valid grid", p)
		}
		ref.load(&p)
		c := canonCand{tr: uint8(i % 2)}
		for j, s := range rng.Perm(3) {
			c.stackOf[j] = uint8(s)
			for k, x := range rng.Perm(3) {
				c.cols[3*j+k] = uint8(3*s + x)
			}
		}
		for j, d := range rng.Perm(9) {
			c.label[d+1] = uint8(j + 1)
		}
		c.next = 10
		if i%3 == 0 {
			// The digit labelled 9 not seen yet.
			c.label[slices.Index(c.label[:10], 9)] = newDigit
			c.next = 9
		}
		bands := rng.Perm(3)
		for j := range 6 {
			c.rows[j] = uint8(3*bands[j/3] + j%3)
			c.used |= 1 << c.rows[j]
		}
		level := 6 + i%4%3 // 6, 7 or 8, after rows of the last band too
		for l := 6; l < level; l++ {
			c.rows[l] = uint8(3*bands[2] + l - 6)
			c.used |= 1 << c.rows[l]
		}
		ref.cur = append(ref.cur[:0], c)
		for l := level; l < 9; l++ {
			ref.nxt = ref.nxt[:0]
			ref.best = ^uint64(0)
			ref.fixedRows(&ref.cur[0], l, allowedRows(ref.cur[0].used, &ref.cur[0].rows, l))
			ref.keys[l] = ref.best
			ref.cur, ref.nxt = ref.nxt, ref.cur
		}
		z.cur = append(z.cur[:0], c)
		if !z.lastRows(level) {
			empty := false
			for r := range 9 {
				empty = empty || c.used&(1<<r) == 0 && z.mask[c.tr][r] == 0
			}
			if !empty {
				t.Fatalf("%v (transposed %d) from level %d: lastRows declines a band with no empty row", p, c.tr, level)
			}
			continue
		}
		sorted++
		if len(ref.cur) != 1 || z.cur[0].rows != ref.cur[0].rows || !slices.Equal(z.keys[level:], ref.keys[level:]) {
			t.Fatalf("%v (transposed %d) from level %d: lastRows gives rows %v keys %x, the search %d candidates, rows %v keys %x",
				p, c.tr, level, z.cur[0].rows, z.keys[level:], len(ref.cur), ref.cur[0].rows, ref.keys[level:])
		}
	}
	if sorted < len(ps)/2 {
		t.Errorf("lastRows sorted %d of %d bands", sorted, len(ps))
	}
}

// TestCanonBoundSecondRow checks the bound the rows of every candidate
// set on result row 1 before any is tried: the latest first digit among
// them, here that of the second candidate's row 4.
func TestCanonBoundSecondRow(t *testing.T) {
	var g solve.Grid
	g[0*9+8] = 1 // row 0: one digit, the first candidate's first row
	g[1*9+0] = 2 // row 1: its smallest pattern 000 001 000
	g[2*9+0], g[2*9+1] = 3, 4
	g[3*9+8] = 3 // row 3: one digit, the second candidate's first row
	g[4*9+7] = 5 // row 4: 000 000 010 (tied with the empty column 6)
	g[5*9+0] = 6 // row 5: 000 001 000
	var z Canonicalizer
	if !z.load(&g) {
		t.Fatalf("load(%v) rejects a valid grid", g)
	}
	c := canonCand{next: 1, stackOf: [3]uint8{noStack, noStack, noStack},
		label: [16]uint8{0, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit}}
	z.nxt = z.nxt[:0]
	z.oneDigit(&c, 0, z.mask[0][0])
	z.oneDigit(&c, 3, z.mask[0][3])
	z.cur, z.nxt = z.nxt, z.cur[:0]
	z.nxt = append(z.nxt, canonCand{}) // a child kept before: dropped
	z.best = ^uint64(0)
	z.boundSecondRow()
	if want := uint64(0xff); z.best != want || len(z.nxt) != 0 {
		t.Errorf("best = %#x with %d children kept, want %#x with none", z.best, len(z.nxt), want)
	}
}

// TestCanonPlacedRowsFirst checks that placedRowsFirst, which labels the
// row with the smallest pattern before the others, keeps the same
// children in the same order as trying the rows in order, for the first
// candidate of a first row of the second band with every stack placed
// (with ties, as placedRows takes them, or without, as fixedRows does), on
// randomly transformed fixtures with random column orders, ties and
// labels.
func TestCanonPlacedRowsFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 6))
	var ps []solve.Grid
	for _, name := range []string{"minimal.txt", "17clue.txt", "magictour.txt"} {
		ps = append(ps, canonReadLines(t, "testdata/canon/"+name)...)
	}
	if testing.Short() {
		ps = ps[len(ps)-1200:]
	}
	ps = append(ps, solve.Grid{0: 1, 80: 2}) // empty rows
	var z, ref Canonicalizer
	reordered := 0
	for i, p := range ps {
		p = RandomTransform(rng).Apply(p)
		if !z.load(&p) {
			t.Fatalf("load(%v) rejects a valid grid", p)
		}
		ref.load(&p)
		c := canonCand{tr: uint8(i % 2), tie: uint16(rng.IntN(512)) & 0b011011011}
		if i%4 == 0 {
			c.tie = 0 // every column placed, as fixedRows takes them
		}
		for j, s := range rng.Perm(3) {
			c.stackOf[j] = uint8(s)
			for k, x := range rng.Perm(3) {
				c.cols[3*j+k] = uint8(3*s + x)
			}
		}
		c.next = uint8(1 + rng.IntN(9))
		for j, d := range rng.Perm(9) {
			c.label[d+1] = uint8(j + 1)
			if j+1 >= int(c.next) {
				c.label[d+1] = newDigit
			}
		}
		band := rng.IntN(3)
		for j := range 3 {
			c.rows[j] = uint8(3*band + j)
			c.used |= 1 << c.rows[j]
		}
		const level = 3
		rs := allowedRows(c.used, &c.rows, level)
		z.nxt, z.best = z.nxt[:0], ^uint64(0)
		z.placedRowsFirst(&c, level, rs)
		ref.nxt, ref.best = ref.nxt[:0], ^uint64(0)
		for t := rs; t != 0; t &= t - 1 {
			r := bits.TrailingZeros16(t)
			if ref.mask[c.tr][r] == 0 {
				ref.expand(&c, level, r)
			} else {
				ref.finishRow(&c, &c.stackOf, level, r)
			}
		}
		if z.best != ref.best || !slices.Equal(z.nxt, ref.nxt) {
			t.Fatalf("%v (transposed %d) from %+v: best %x children %v, in row order best %x children %v",
				p, c.tr, c, z.best, z.nxt, ref.best, ref.nxt)
		}
		if len(ref.nxt) > 0 && int(ref.nxt[0].rows[level]) != bits.TrailingZeros16(rs) {
			reordered++ // the first row lost: trying it first would have labelled it
		}
	}
	if reordered < len(ps)/4 {
		t.Errorf("the first row lost in only %d of %d cases", reordered, len(ps))
	}
}

// TestCanonPlacedOneDigit checks finishRow on a placed stack whose first
// two columns are interchangeable, with one digit in the row: in the last
// column the digit stays, and so does the tie; in either of the first two
// it goes to the middle, after the empty one, and no tie is left.
func TestCanonPlacedOneDigit(t *testing.T) {
	tests := []struct {
		x    int      // source column of the digit
		cols [3]uint8 // result columns 0-2 after the row
		tie  uint16
		key  uint64
	}{
		{0, [3]uint8{1, 0, 2}, 0, 1 << 28},
		{1, [3]uint8{0, 1, 2}, 0, 1 << 28},
		{2, [3]uint8{0, 1, 2}, 1, 1 << 24},
	}
	for _, tc := range tests {
		var g solve.Grid
		g[1*9+tc.x] = 5 // row 1: one digit, in the first stack
		var z Canonicalizer
		if !z.load(&g) {
			t.Fatalf("load(%v) rejects a valid grid", g)
		}
		c := canonCand{cols: [9]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8}, stackOf: [3]uint8{0, 1, 2}, tie: 1, used: 1, next: 1,
			label: [16]uint8{0, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit, newDigit}}
		z.nxt = z.nxt[:0]
		z.best = ^uint64(0)
		z.finishRow(&c, &c.stackOf, 1, 1)
		if len(z.nxt) != 1 {
			t.Fatalf("digit in column %d: %d children, want 1", tc.x, len(z.nxt))
		}
		ch := z.nxt[0]
		if got := [3]uint8(ch.cols[:3]); got != tc.cols || ch.tie != tc.tie || z.best != tc.key || ch.label[5] != 1 {
			t.Errorf("digit in column %d: columns %v, tie %b, key %#x, label %d; want %v, %b, %#x, 1",
				tc.x, got, ch.tie, z.best, ch.label[5], tc.cols, tc.tie, tc.key)
		}
	}
}

// TestCanonOpenPatterns checks openRows' table of the pattern part that
// open stacks make against the rule spelt out: the open stacks, in the
// first result stacks, in increasing order of digit count, each with its
// digits at its right.
func TestCanonOpenPatterns(t *testing.T) {
	right := func(k int) uint16 { return uint16(1)<<k - 1 }
	for m := range 512 {
		count := func(s int) int { return bits.OnesCount(uint(m >> (3 * s) & 7)) }
		for placed := range 3 {
			lo, hi := count((placed+1)%3), count((placed+2)%3)
			lo, hi = min(lo, hi), max(lo, hi)
			if got, want := openPatterns[placed][m], right(lo)<<6|right(hi)<<3; got != want {
				t.Errorf("mask %09b, source stack %d placed: open part %09b, want %09b", m, placed, got, want)
			}
			if got, want := openPatterns[4+placed][m], right(count(placed))<<6; got != want {
				t.Errorf("mask %09b, source stack %d open alone: open part %09b, want %09b", m, placed, got, want)
			}
		}
	}
}
