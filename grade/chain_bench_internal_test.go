package grade

import (
	"testing"

	"sudokubank/internal/cputime"
	"sudokubank/solve"
)

// BenchmarkChainDriver grades the puzzles of each dev_se.txt source with
// the test driver (basic rules + chainer) and reports puzzles per second.
// The driver's basic rules are simple loops, so the figure is a floor
// for the chainer's share.
func BenchmarkChainDriver(b *testing.B) {
	lines := chainTestData(b)
	for _, src := range []string{"gen", "17", "qq", "mt", "q2", "h11"} {
		var set, sols []solve.Grid
		for _, l := range lines {
			if l.src == src {
				sol, _ := solve.Solve(l.g)
				set = append(set, l.g)
				sols = append(sols, sol)
			}
		}
		b.Run(src, func(b *testing.B) {
			var c chainer
			n := 0
			cpu0 := cputime.Process().Seconds()
			for i := 0; i < b.N; i++ {
				j := i % len(set)
				res := chainTestGradeSolved(set[j], sols[j], &c)
				if res.wrong {
					b.Fatal("wrong step")
				}
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "puzzles/s")
			b.ReportMetric(float64(n)/(cputime.Process().Seconds()-cpu0), "puzzles/cpu-s")
		})
	}
}

// chainBenchPositions returns the positions the driver hands to the
// chainer while grading the puzzles of one source.
func chainBenchPositions(b *testing.B, src string, max int) []Position {
	var out []Position
	var c chainer
	chainTestTrace = func(p *Position) { out = append(out, *p) }
	defer func() { chainTestTrace = nil }()
	for _, l := range chainTestData(b) {
		if l.src == src && l.er >= 65 && len(out) < max {
			chainTestGrade(l.g, &c)
		}
	}
	return out
}

// BenchmarkChainNext times chainer.next alone on the positions met while
// grading gen puzzles.
func BenchmarkChainNext(b *testing.B) {
	ps := chainBenchPositions(b, "gen", 400)
	b.ResetTimer()
	var c chainer
	cpu0 := cputime.Process().Seconds()
	for i := 0; i < b.N; i++ {
		p := ps[i%len(ps)]
		c.next(&p)
	}
	b.ReportMetric(float64(b.N)/(cputime.Process().Seconds()-cpu0), "calls/cpu-s")
}

// BenchmarkChainNextHard times chainer.next on the positions met while
// grading q2 puzzles, where dynamic chains (+) decide.
func BenchmarkChainNextHard(b *testing.B) {
	ps := chainBenchPositions(b, "q2", 60)
	b.ReportAllocs()
	b.ResetTimer()
	var c chainer
	cpu0 := cputime.Process().Seconds()
	for i := 0; i < b.N; i++ {
		p := ps[i%len(ps)]
		c.next(&p)
	}
	b.ReportMetric(float64(b.N)/(cputime.Process().Seconds()-cpu0), "calls/cpu-s")
}
