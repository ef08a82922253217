package gen

import (
	"bufio"
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
		want, _ := z.canonPuzzle(&g)
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
