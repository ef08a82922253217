package pipeline_test

import (
	"math/rand/v2"
	"testing"

	"sudokubank/pipeline"
	"sudokubank/solve"
)

func TestSeen(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	bank := make([]uint64, 1000)
	for i := range bank {
		bank[i] = rng.Uint64()
	}
	inBank := append([]uint64(nil), bank...)
	s := pipeline.NewSeen(bank)
	// More than one merge of the run's map into its sorted tier.
	added := make([]uint64, 100_000)
	for i := range added {
		added[i] = rng.Uint64()
		if !s.Add(added[i]) {
			t.Fatalf("Add(%x) = false for a new hash", added[i])
		}
	}
	for _, h := range inBank {
		if !s.InBank(h) || !s.Contains(h) || s.Add(h) {
			t.Fatalf("bank hash %x: InBank %v, Contains %v", h, s.InBank(h), s.Contains(h))
		}
	}
	for _, h := range added {
		if s.InBank(h) || !s.Contains(h) || s.Add(h) {
			t.Fatalf("added hash %x: InBank %v, Contains %v", h, s.InBank(h), s.Contains(h))
		}
	}
	for range 1000 {
		if h := rng.Uint64(); s.Contains(h) {
			t.Fatalf("Contains(%x) for a hash never added", h)
		}
	}
	if got, want := s.Len(), len(inBank)+len(added); got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
}

func TestHashDiffers(t *testing.T) {
	var g solve.Grid
	seen := map[uint64]bool{pipeline.Hash(g): true}
	for cell := range 81 {
		for d := uint8(1); d <= 9; d++ {
			h := g
			h[cell] = d
			if seen[pipeline.Hash(h)] {
				t.Fatalf("hash collision at cell %d digit %d", cell, d)
			}
			seen[pipeline.Hash(h)] = true
		}
	}
}

// BenchmarkSeen10M measures the dedup set of a bank of ten million
// families: its memory, and the cost of a lookup.
func BenchmarkSeen10M(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	hs := make([]uint64, 10_000_000)
	for i := range hs {
		hs[i] = rng.Uint64()
	}
	s := pipeline.NewSeen(hs)
	for i := 0; b.Loop(); i++ {
		s.Contains(uint64(i))
	}
	b.ReportMetric(float64(s.Len()*8)/1e6, "set-MB")
}
