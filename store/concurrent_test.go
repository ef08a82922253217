package store_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"sudokubank/store"
)

// A reader opened read-only queries while the writer writes: it sees
// whole batches only, never an error, and the counts only grow; also
// while a bulk writer has the indexes deferred.
func TestReaderWhileWriterWrites(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  store.Options
	}{
		{"Live", store.Options{}},
		{"Bulk", store.Options{DeferIndexes: true}},
	} {
		t.Run(tt.name, func(t *testing.T) { testReaderWhileWriterWrites(t, tt.opt) })
	}
}

func testReaderWhileWriterWrites(t *testing.T, opt store.Options) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	w, err := store.Open(ctx, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	MustWrite(t, w, []store.NewFamily{fam(0, 1, 30, 4)})

	r, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	const batches, perBatch, k = 40, 25, 4
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for b := range batches {
			var batch []store.NewFamily
			for i := range perBatch {
				batch = append(batch, fam(1+b*perBatch+i, 1+i%5, 22+i%8, k))
			}
			if _, err := w.WriteBatch(ctx, batch); err != nil {
				t.Errorf("WriteBatch: %v", err)
				return
			}
		}
	}()
	var last int64
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	reads := 0
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		n, err := r.Count(ctx, store.Filter{Symmetry: "none"}) // a row count
		if err != nil {
			t.Fatalf("reader Count: %v", err)
		}
		if n < last || n%k != 0 {
			t.Fatalf("reader saw %d puzzles after %d (batches are %d variants per family)", n, last, k)
		}
		last = n
		var sample int
		if err := r.Query(ctx, store.Filter{Levels: []int{2}}, store.QueryOptions{Order: store.OrderRandom, Limit: 5, Seed: uint64(reads)}, func(store.Row) error {
			sample++
			return nil
		}); err != nil {
			t.Fatalf("reader Query: %v", err)
		}
		reads++
	}
	n, err := r.Count(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64((1 + batches*perBatch) * k); n != want {
		t.Errorf("reader's final count = %d, want %d", n, want)
	}
	t.Logf("%d reads during %d batches", reads, batches)
	if err := w.BuildIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}
