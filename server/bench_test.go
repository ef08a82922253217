package server_test

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"sudokubank/gen"
	"sudokubank/internal/cputime"
	"sudokubank/server"
	"sudokubank/solve"
	"sudokubank/store"
)

// benchVariants is how many more puzzles each fixture family stores in
// the benchmark's bank, as bankgen -variants does: most rows are then
// derived from their family's grids, as in a large bank.
const benchVariants = 49

// MustVariantFamilies returns fams with n more puzzles each: random
// transforms of the family's canonical form that keep its symmetry,
// drawn from seed.
func MustVariantFamilies(tb testing.TB, fams []store.NewFamily, n int, seed uint64) []store.NewFamily {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0))
	out := make([]store.NewFamily, len(fams))
	for i, f := range fams {
		sym, err := gen.ParseSymmetry(f.Symmetry)
		if err != nil {
			tb.Fatal(err)
		}
		canon, err := solve.Parse(f.Canon)
		if err != nil {
			tb.Fatal(err)
		}
		sol, err := solve.Parse(f.Puzzles[0].Solution)
		if err != nil {
			tb.Fatal(err)
		}
		f.Puzzles = append([]store.Puzzle(nil), f.Puzzles...)
		for range n {
			t := sym.RandomTransform(rng)
			f.Puzzles = append(f.Puzzles, store.Puzzle{Puzzle: t.Apply(canon).String(), Solution: t.Apply(sol).String(), Transform: t.String()})
		}
		out[i] = f
	}
	return out
}

// BenchmarkRandom serves GET /api/v1/puzzles/random?level=evil, the
// request an app sends most, from parallel clients straight to the
// handler (no network), on the fixture families with variants: the
// server's CPU a request, without the HTTP stack's. Set SUDOKUBANK_BENCH_DB to a bank's path to
// measure that bank instead, and SUDOKUBANK_BENCH_QUERY to another query.
func BenchmarkRandom(b *testing.B) {
	path := os.Getenv("SUDOKUBANK_BENCH_DB")
	if path == "" {
		path = MustBank(b, MustVariantFamilies(b, MustFixture(b), benchVariants, 1))
	}
	query := os.Getenv("SUDOKUBANK_BENCH_QUERY")
	if query == "" {
		query = "level=evil"
	}
	db, err := store.OpenReadOnly(b.Context(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	h := server.New(db, server.Options{MaxInFlight: 1 << 20})
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu := time.Now(), cputime.Process()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodGet, "/api/v1/puzzles/random?"+query, nil)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Errorf("status %d: %s", w.Code, w.Body)
				return
			}
		}
	})
	// The machine may be shared: the CPU a request is the steadier figure.
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "requests/s")
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/float64(b.N), "cpu-us/request")
}

// BenchmarkListSparse serves the first page of a filter the store checks
// row by row, GET /api/v1/puzzles?symmetry=mirror&limit=100 unless
// SUDOKUBANK_BENCH_QUERY says another, one request at a time: the cost
// of a page where few puzzles match, which the page's window of IDs
// bounds. SUDOKUBANK_BENCH_DB names a bank to measure instead of the
// fixture families with variants.
func BenchmarkListSparse(b *testing.B) {
	path := os.Getenv("SUDOKUBANK_BENCH_DB")
	if path == "" {
		path = MustBank(b, MustVariantFamilies(b, MustFixture(b), benchVariants, 1))
	}
	query := os.Getenv("SUDOKUBANK_BENCH_QUERY")
	if query == "" {
		query = "symmetry=mirror&limit=100"
	}
	db, err := store.OpenReadOnly(b.Context(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	h := server.New(db, server.Options{})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/puzzles?"+query, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
