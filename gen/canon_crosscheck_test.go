package gen

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokubank/solve"
)

// canonCrossCheck checks Canon and CanonGrid on p against the reference
// search of canon_ref_test.go: the same form and the same transform byte
// for byte, a transform that gives the form, and the same form for a
// random transform of p.
func canonCrossCheck(t *testing.T, z *Canonicalizer, ref *refCanonicalizer, rng *rand.Rand, what string, p solve.Grid) {
	t.Helper()
	want, wantT := ref.Canon(p)
	got, tr := z.Canon(p)
	if got != want {
		t.Fatalf("%s: Canon(%v) = %v, reference %v", what, p, got, want)
	}
	// Banks store the transform too (as a puzzle's way back from the
	// form), so it must not change either.
	if tr != wantT {
		t.Fatalf("%s: Canon(%v) transform %v, reference %v", what, p, tr, wantT)
	}
	if tr.Apply(p) != got {
		t.Fatalf("%s: Canon(%v): transform %v gives %v, not the form %v", what, p, tr, tr.Apply(p), got)
	}
	if g, tg := z.CanonGrid(p); g != want || tg.Apply(p) != g {
		t.Fatalf("%s: CanonGrid(%v) = %v by %v, reference %v", what, p, g, tg, want)
	} else if _, refT := ref.CanonGrid(p); tg != refT {
		t.Fatalf("%s: CanonGrid(%v) transform %v, reference %v", what, p, tg, refT)
	}
	q := RandomTransform(rng).Apply(p)
	if got, tq := z.Canon(q); got != want || tq.Apply(q) != got {
		t.Fatalf("%s: Canon(%v) (a transform of %v) = %v by %v, want %v", what, q, p, got, tq, want)
	}
}

// canonReadLines returns the grids of the space-separated fields of each
// line of path, skipping fields that are not grids.
func canonReadLines(t *testing.T, path string) []solve.Grid {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []solve.Grid
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		for _, field := range strings.Fields(sc.Text()) {
			if len(field) < 81 {
				continue
			}
			if g, err := solve.Parse(field[:81]); err == nil {
				out = append(out, g)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCanonMatchesReferenceFixtures checks every grid of the committed
// fixtures.
func TestCanonMatchesReferenceFixtures(t *testing.T) {
	paths, err := filepath.Glob("testdata/canon/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var z Canonicalizer
	var ref refCanonicalizer
	rng := rand.New(rand.NewPCG(30, 1))
	for _, path := range paths {
		gs := canonReadLines(t, path)
		for i, g := range gs {
			canonCrossCheck(t, &z, &ref, rng, path+" grid "+strconv.Itoa(i+1), g)
		}
	}
}

// TestCanonMatchesReferenceShared checks every line of the shared puzzle
// sets when ../shared/data is present.
func TestCanonMatchesReferenceShared(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "data", "puzzles")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(paths) == 0 {
		t.Skip("shared data absent")
	}
	var z Canonicalizer
	var ref refCanonicalizer
	rng := rand.New(rand.NewPCG(30, 2))
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			for i, g := range canonReadLines(t, path) {
				canonCrossCheck(t, &z, &ref, rng, "line "+strconv.Itoa(i+1), g)
			}
		})
	}
}

// TestCanonMatchesReferenceRandom checks random full grids, random subsets
// of their cells from nearly empty to nearly full, and random minimal
// puzzles.
func TestCanonMatchesReferenceRandom(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 600
	}
	var z Canonicalizer
	var ref refCanonicalizer
	var v solve.Solver
	rng := rand.New(rand.NewPCG(30, 3))
	for i := range n {
		sol, ok := v.SolveRandom(solve.Grid{}, rng, 0)
		if !ok {
			t.Fatal("no random grid")
		}
		what := "random grid " + strconv.Itoa(i)
		canonCrossCheck(t, &z, &ref, rng, what, sol)
		var p solve.Grid
		keep := rng.IntN(82)
		for _, c := range rng.Perm(81)[:keep] {
			p[c] = sol[c]
		}
		canonCrossCheck(t, &z, &ref, rng, what+" subset", p)
		if i%10 == 0 {
			m := sol
			for _, c := range rng.Perm(81) {
				d := m[c]
				m[c] = 0
				if v.Count(m, 2) != 1 {
					m[c] = d
				}
			}
			canonCrossCheck(t, &z, &ref, rng, what+" minimal", m)
		}
	}
}

// FuzzCanonReference checks Canon against the reference search on grids
// built from arbitrary bytes, valid or not.
func FuzzCanonReference(f *testing.F) {
	f.Add([]byte("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."), uint64(1))
	f.Add([]byte("123456789"), uint64(2))
	f.Add([]byte{}, uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		var z Canonicalizer
		var ref refCanonicalizer
		rng := rand.New(rand.NewPCG(seed, 30))
		// Place each byte's digit unless it clashes with one placed before.
		var g solve.Grid
		var rows, cols, boxes [9]uint16
		for i := 0; i < 81 && i < len(data); i++ {
			v := data[i] % 10
			r, c := i/9, i%9
			b := r/3*3 + c/3
			bit := uint16(1) << v
			if v == 0 || (rows[r]|cols[c]|boxes[b])&bit != 0 {
				continue
			}
			rows[r] |= bit
			cols[c] |= bit
			boxes[b] |= bit
			g[i] = v
		}
		canonCrossCheck(t, &z, &ref, rng, "fuzz", g)
		// Raw bytes may repeat digits or hold values above 9: Canon must
		// still agree with the reference.
		var raw solve.Grid
		copy(raw[:], data)
		want, wantT := ref.Canon(raw)
		got, tr := z.Canon(raw)
		if got != want || tr != wantT || tr.Apply(raw) != got {
			t.Fatalf("Canon(%v) = %v by %v, reference %v by %v", raw, got, tr, want, wantT)
		}
	})
}
