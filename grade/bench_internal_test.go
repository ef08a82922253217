package grade

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"testing"

	"sudokubank/internal/cputime"
	"sudokubank/solve"
)

// BenchmarkLogicOnly grades the gen and 17 groups of dev_se.txt without
// the solve package's search, to separate the grader's own cost from the
// solver's. It skips when ../shared/data is absent.
func BenchmarkLogicOnly(b *testing.B) {
	f, err := os.Open("../../shared/data/rated/dev_se.txt")
	if err != nil {
		b.Skipf("no reference data: %v", err)
	}
	defer f.Close()
	groups := map[string][]solve.Grid{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 5 {
			continue
		}
		p, err := solve.Parse(fs[0])
		if err != nil {
			b.Fatal(err)
		}
		groups[fs[4]] = append(groups[fs[4]], p)
	}
	for _, src := range []string{"gen", "qq", "17", "mt"} {
		ps := groups[src]
		b.Run(src, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var g Grader
			n := 0
			cpu0 := cputime.Thread()
			for b.Loop() {
				g.st.load(ps[n%len(ps)])
				for g.st.left > 0 {
					st, ok := g.next()
					if !ok {
						break
					}
					g.st.apply(&st)
				}
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "puzzles/s")
			if cpu := cputime.Thread() - cpu0; cpu > 0 {
				b.ReportMetric(float64(n)/cpu.Seconds(), "puzzles/cpu-s")
			}
		})
	}
}
