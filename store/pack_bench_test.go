package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"sudokubank/internal/cputime"
	"sudokubank/store"
)

// BenchmarkRecordPack records packs of 10,000 puzzles, as bankquery
// export -count 10000 does, from a bank of 40,000 families of two
// variants: without a client (no reservations) and for a client (each
// family reserved too), with the CPU time per pack beside the wall
// time, which the machine's other load distorts. The pack is deleted again, untimed, after each
// run, so that every run finds the same bank.
func BenchmarkRecordPack(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bank.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var batch []store.NewFamily
	for i := range 40_000 {
		batch = append(batch, fam(i, 1+i%5, 22+i%8, 2))
		if len(batch) == 5000 {
			MustWrite(b, db, batch)
			batch = batch[:0]
		}
	}
	const n = 10_000
	for _, client := range []string{"", "acme"} {
		name := "NoClient"
		if client != "" {
			name = "Client"
		}
		b.Run(name, func(b *testing.B) {
			var cpu time.Duration
			for i := 0; b.Loop(); i++ {
				cpu0 := cputime.Process()
				spec := store.PackSpec{Name: fmt.Sprintf("bench-%d", i), Client: client}
				p, _, err := db.CreatePack(ctx, spec, store.Filter{}, store.QueryOptions{Order: store.OrderRandom, Seed: uint64(i)}, n)
				if err != nil {
					b.Fatal(err)
				}
				cpu += cputime.Process() - cpu0
				b.StopTimer()
				if err := db.DeletePack(ctx, p.ID); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "items/s")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
