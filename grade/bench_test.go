package grade_test

import (
	"os"
	"runtime"
	"testing"
	"time"

	"sudokubank/grade"
	"sudokubank/internal/cputime"
	"sudokubank/solve"
)

// BenchmarkGradeGroups grades each source group of dev_se.txt and reports
// puzzles/s per group. It skips when ../shared/data is absent.
func BenchmarkGradeGroups(b *testing.B) {
	path := "../../shared/data/rated/dev_se.txt"
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no reference data: %v", err)
	}
	groups := map[string][]solve.Grid{}
	var order []string
	for _, rp := range MustReadRated(b, path) {
		if groups[rp.source] == nil {
			order = append(order, rp.source)
		}
		groups[rp.source] = append(groups[rp.source], rp.puzzle)
	}
	for _, src := range order {
		ps := groups[src]
		b.Run(src, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var g grade.Grader
			n := 0
			cpu0 := cputime.Thread()
			for b.Loop() {
				if _, err := g.Grade(ps[n%len(ps)]); err != nil {
					b.Fatal(err)
				}
				n++
			}
			reportRate(b, n, cputime.Thread()-cpu0)
		})
	}
}

// BenchmarkGradeEvil grades the evil digs of testdata/evil_digs.txt, the
// grades that bound bankgen -level evil (most rate 7.1-7.3), and reports
// puzzles per CPU second:
//
//	go test ./grade -run '^$' -bench GradeEvil -cpu 1 -benchtime 2000x
func BenchmarkGradeEvil(b *testing.B) {
	benchGradeFile(b, "testdata/evil_digs.txt")
}

// BenchmarkGradeHard grades the hard digs of testdata/hard_digs.txt, the
// families a -rating 8.5- search keeps (rated 8.5-9.2, by multiple and
// dynamic forcing chains), whose grades bound such searches, and reports
// puzzles per CPU second:
//
//	go test ./grade -run '^$' -bench GradeHard -cpu 1 -benchtime 300x
func BenchmarkGradeHard(b *testing.B) {
	benchGradeFile(b, "testdata/hard_digs.txt")
}

// benchGradeFile grades the puzzles of a file that MustReadRated reads,
// in turn, and reports puzzles per CPU second.
func benchGradeFile(b *testing.B, file string) {
	var ps []solve.Grid
	for _, rp := range MustReadRated(b, file) {
		ps = append(ps, rp.puzzle)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var g grade.Grader
	var gr grade.Grade
	n := 0
	cpu0 := cputime.Thread()
	for b.Loop() {
		if err := g.GradeInto(ps[n%len(ps)], &gr); err != nil {
			b.Fatal(err)
		}
		n++
	}
	reportRate(b, n, cputime.Thread()-cpu0)
}

// BenchmarkSolveCount measures the search the grader runs first, per group.
func BenchmarkSolveCount(b *testing.B) {
	path := "../../shared/data/rated/dev_se.txt"
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no reference data: %v", err)
	}
	var ps []solve.Grid
	for _, rp := range MustReadRated(b, path) {
		if rp.source == "17" {
			ps = append(ps, rp.puzzle)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var s solve.Solver
	n := 0
	cpu0 := cputime.Thread()
	for b.Loop() {
		s.Count(ps[n%len(ps)], 2)
		n++
	}
	reportRate(b, n, cputime.Thread()-cpu0)
}

// reportRate reports n puzzles per wall second and, when the thread's CPU
// time cpu is known, per CPU second.
func reportRate(b *testing.B, n int, cpu time.Duration) {
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "puzzles/s")
	if cpu > 0 {
		b.ReportMetric(float64(n)/cpu.Seconds(), "puzzles/cpu-s")
	}
}
