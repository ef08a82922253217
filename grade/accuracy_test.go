package grade_test

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sudokubank/grade"
	"sudokubank/solve"
)

// ratedPuzzle is one line of a reference rating file:
// PUZZLE ER EP ED SOURCE.
type ratedPuzzle struct {
	puzzle     solve.Grid
	er, ep, ed grade.Rating
	source     string
}

// parseRating reads "6.6" as 66.
func parseRating(s string) (grade.Rating, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	return grade.Rating(math.Round(f * 10)), nil
}

// MustReadRated reads a reference rating file.
func MustReadRated(tb testing.TB, path string) []ratedPuzzle {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []ratedPuzzle
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) < 5 {
			tb.Fatalf("%s line %d: want 5 fields, got %d", path, line, len(fs))
		}
		var rp ratedPuzzle
		if rp.puzzle, err = solve.Parse(fs[0]); err != nil {
			tb.Fatalf("%s line %d: %v", path, line, err)
		}
		rs := []*grade.Rating{&rp.er, &rp.ep, &rp.ed}
		for i := range rs {
			if *rs[i], err = parseRating(fs[1+i]); err != nil {
				tb.Fatalf("%s line %d: %v", path, line, err)
			}
		}
		rp.source = fs[4]
		out = append(out, rp)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// accuracy collects the agreement figures of a set of grades.
type accuracy struct {
	n, levelOK          int
	below9, exact, near int // puzzles with reference ER < 9.0, ER equal, ER within 0.2
	epOK, edOK          int
	// Over every puzzle, not only those below 9.0: ER equal, within 0.2
	// and within 0.5 of the reference.
	exactAll, near2All, near5All int
	unfinished                   int
	ref, got                     []float64
}

func (a *accuracy) add(want ratedPuzzle, g grade.Grade) {
	a.n++
	if grade.LevelOf(want.er) == g.Level {
		a.levelOK++
	}
	if want.er < 90 {
		a.below9++
		if g.ER == want.er {
			a.exact++
		}
		if d := g.ER - want.er; d <= 2 && d >= -2 {
			a.near++
		}
	}
	if d := g.ER - want.er; d == 0 {
		a.exactAll++
	}
	if d := g.ER - want.er; d <= 2 && d >= -2 {
		a.near2All++
	}
	if d := g.ER - want.er; d <= 5 && d >= -5 {
		a.near5All++
	}
	if g.EP == want.ep {
		a.epOK++
	}
	if g.ED == want.ed {
		a.edOK++
	}
	if g.Unfinished {
		a.unfinished++
	}
	a.ref = append(a.ref, want.er.Float())
	a.got = append(a.got, g.ER.Float())
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func (a *accuracy) String() string {
	er := "ER exact     -   ER±0.2     -  "
	if a.below9 > 0 {
		er = fmt.Sprintf("ER exact %5.1f%%  ER±0.2 %5.1f%%", pct(a.exact, a.below9), pct(a.near, a.below9))
	}
	return fmt.Sprintf("n=%4d level %5.1f%%  %s (of %d below 9.0)  EP %5.1f%%  ED %5.1f%%  spearman %.3f  unfinished %d  all ER: exact %5.1f%% ±0.2 %5.1f%% ±0.5 %5.1f%%",
		a.n, pct(a.levelOK, a.n), er, a.below9,
		pct(a.epOK, a.n), pct(a.edOK, a.n), spearman(a.ref, a.got), a.unfinished,
		pct(a.exactAll, a.n), pct(a.near2All, a.n), pct(a.near5All, a.n))
}

// ranks returns the fractional ranks of xs (ties share their mean rank).
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return xs[idx[i]] < xs[idx[j]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		mean := float64(i+j-1)/2 + 1
		for k := i; k < j; k++ {
			r[idx[k]] = mean
		}
		i = j
	}
	return r
}

// spearman returns the rank correlation of xs and ys.
func spearman(xs, ys []float64) float64 {
	if len(xs) < 2 {
		return 1
	}
	rx, ry := ranks(xs), ranks(ys)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= float64(len(rx))
	my /= float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

var (
	fullAccuracy = flag.Bool("accuracy", false, "grade all of ../shared/data/rated/dev_se.txt and report accuracy by source and ER band")
	accuracyMax  = flag.Float64("accuracy.max", 99, "with -accuracy, grade only puzzles whose reference ER is below this")
	accuracySrc  = flag.String("accuracy.source", "", "with -accuracy, grade only the puzzles of this source (h11, q2, ...)")
)

// TestAccuracyFull reports accuracy on the whole reference file. It runs
// only with -accuracy and skips when ../shared/data is absent.
func TestAccuracyFull(t *testing.T) {
	if !*fullAccuracy {
		t.Skip("run with -accuracy")
	}
	path := "../../shared/data/rated/dev_se.txt"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no reference data: %v", err)
	}
	ps := MustReadRated(t, path)
	var all, below65 accuracy
	bySource := map[string]*accuracy{}
	byBand := map[int]*accuracy{}
	var sources []string
	var g grade.Grader
	mismatches := 0
	for _, rp := range ps {
		if rp.er.Float() >= *accuracyMax || (*accuracySrc != "" && rp.source != *accuracySrc) {
			continue
		}
		gr, err := g.Grade(rp.puzzle)
		if err != nil {
			t.Errorf("%s: %v", rp.puzzle, err)
			continue
		}
		all.add(rp, gr)
		if rp.er < 65 {
			below65.add(rp, gr)
			if gr.ER != rp.er && mismatches < 40 {
				mismatches++
				t.Logf("mismatch %s %s %s want ER %s, got %s/%s/%s (%s)", rp.puzzle, rp.source, rp.er, rp.er, gr.ER, gr.EP, gr.ED, gr.Hardest.Slug())
			}
		}
		if bySource[rp.source] == nil {
			bySource[rp.source] = &accuracy{}
			sources = append(sources, rp.source)
		}
		bySource[rp.source].add(rp, gr)
		band := int(rp.er / 10)
		if byBand[band] == nil {
			byBand[band] = &accuracy{}
		}
		byBand[band].add(rp, gr)
	}
	t.Logf("all           %v", &all)
	t.Logf("ER below 6.5  %v", &below65)
	for _, s := range sources {
		t.Logf("source %-6s %v", s, bySource[s])
	}
	for b := 0; b <= 12; b++ {
		if a := byBand[b]; a != nil {
			t.Logf("ER %2d.x       %v", b, a)
		}
	}
}

// TestSearchBreaksMeasured prints the quintiles of solver search nodes on
// the gen group of dev_se.txt, the source of grade.SearchBreaks. It runs
// only with -accuracy.
func TestSearchBreaksMeasured(t *testing.T) {
	if !*fullAccuracy {
		t.Skip("run with -accuracy")
	}
	path := "../../shared/data/rated/dev_se.txt"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no reference data: %v", err)
	}
	var nodes []int
	var s solve.Solver
	for _, rp := range MustReadRated(t, path) {
		if rp.source == "gen" {
			s.Count(rp.puzzle, 2)
			nodes = append(nodes, s.Stats().Nodes)
		}
	}
	sort.Ints(nodes)
	n := len(nodes)
	// Node counts are small integers with many ties, so a break is one
	// more than its quintile, and the breaks rise strictly.
	var got [4]int
	for k := range got {
		got[k] = nodes[(k+1)*n/5] + 1
		if k > 0 && got[k] <= got[k-1] {
			got[k] = got[k-1] + 1
		}
	}
	t.Logf("gen search-node breaks: %v (SearchBreaks %v)", got, grade.SearchBreaks)
	if got != grade.SearchBreaks {
		t.Errorf("SearchBreaks are stale: measured %v, have %v", got, grade.SearchBreaks)
	}
}
