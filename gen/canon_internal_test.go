package gen

import (
	"bufio"
	"os"
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
		want, _ := z.canonPuzzle(g)
		got, tr := z.CanonGrid(g)
		if got != want {
			t.Errorf("CanonGrid(%v) = %v, want %v", g, got, want)
		}
		if tr.Apply(g) != got {
			t.Errorf("CanonGrid(%v): transform %v does not give the form", g, tr)
		}
	}
}
