package pipeline_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/internal/cputime"
	"sudokubank/pipeline"
)

// BenchmarkEvil measures what bankgen -level evil costs a worker, on one
// goroutine and without a store: Build is the Builder's evil families
// per CPU second, the figure to compare old and new code by, and Parts
// splits an evil family's CPU time into the digs of its item and the
// items rejected before it (dig), the grades of those rejected (reject),
// its own full grade (evil) and the canonical forms (canon), in
// µs per evil family. Only the evil grade is needed for each family
// kept, so 1e6/evil-µs bounds what cheaper digs or rejections can gain:
//
//	go test ./pipeline -run '^$' -bench Evil -benchtime 2000x
func BenchmarkEvil(b *testing.B) {
	o := pipeline.BuildOptions{Levels: []grade.Level{grade.Evil}}
	b.Run("Build", func(b *testing.B) {
		bld := pipeline.NewBuilder(o)
		kept := 0
		cpu0 := cputime.Process()
		for i := uint64(0); b.Loop(); i++ {
			r := bld.Build(context.Background(), pipeline.Item{Seed: 1, Index: i})
			switch r.Reason {
			case pipeline.Kept:
				kept++
			case pipeline.Failed:
				b.Fatal(r.Err)
			}
		}
		cpu := cputime.Process() - cpu0
		b.ReportMetric(float64(kept)/cpu.Seconds(), "families/cpu-s")
		b.ReportMetric(float64(kept)/float64(b.N), "families/item")
	})
	b.Run("Parts", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var (
			d                     gen.Digger
			z                     gen.Canonicalizer
			g                     grade.Grader
			gr                    grade.Grade
			dig, canon, rej, evil time.Duration
			kept                  int
		)
		for i := uint64(0); b.Loop(); i++ {
			rng := pipeline.Item{Seed: 1, Index: i}.Rand()
			t0 := cputime.Thread()
			pz, err := d.GenerateContext(context.Background(), pipeline.ProfileFor(grade.Evil, gen.NoSymmetry), rng)
			if err != nil {
				b.Fatal(err)
			}
			t1 := cputime.Thread()
			c, _ := z.Canon(pz.Grid)
			t2 := cputime.Thread()
			if err := g.GradeInto(c, &gr); err != nil {
				b.Fatal(err)
			}
			t3 := cputime.Thread()
			dig, canon = dig+t1-t0, canon+t2-t1
			if gr.Level == grade.Evil {
				evil += t3 - t2
				kept++
			} else {
				rej += t3 - t2
			}
		}
		per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(max(kept, 1)) }
		b.ReportMetric(per(dig), "dig-µs/family")
		b.ReportMetric(per(rej), "reject-µs/family")
		b.ReportMetric(per(evil), "evil-µs/family")
		b.ReportMetric(per(canon), "canon-µs/family")
		b.ReportMetric(float64(kept)/float64(b.N), "families/item")
	})
}
