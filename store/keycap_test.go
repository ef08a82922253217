package store_test

import (
	"context"
	"testing"

	"sudokubank/store"
)

// keyFam is family n of level 4 whose hardest step is hardest, rated er.
func keyFam(n int, hardest string, er int) store.NewFamily {
	f := fam(n, 4, 28, 1)
	f.Hardest, f.ER = hardest, er
	f.Techniques = map[string]int{hardest: 1, "naked-single": 3}
	return f
}

// TestWriteBatchLimitedKey has two writers top one bank up to the same
// quotas of a technique and of a rating band, in turns, as two bankgen
// -quota runs on one bank do: each judges the cap on what the other
// committed since its last batch, so that together they stop on it, and
// the families of other kinds, or the bank's already, pass.
func TestWriteBatchLimitedKey(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		cap  store.KeyCap
		in   func(n int) store.NewFamily // a family of the kind
		out  func(n int) store.NewFamily // one of another kind
		f    store.Filter
	}{
		{"Technique", store.KeyCap{Hardest: "x-wing", Max: 5},
			func(n int) store.NewFamily { return keyFam(n, "x-wing", 32) },
			func(n int) store.NewFamily { return keyFam(n, "swordfish", 38) },
			store.Filter{Hardest: "x-wing"}},
		{"RatingBand", store.KeyCap{RatingMin: 90, Max: 5},
			func(n int) store.NewFamily { return keyFam(n, "dynamic-forcing-chains-plus", 90+n%5) },
			func(n int) store.NewFamily { return keyFam(n, "dynamic-forcing-chains-plus", 89) },
			store.Filter{RatingMin: 90}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, path := MustOpenTemp(t)
			b := MustOpen(t, path)
			capA, capB := tt.cap, tt.cap
			write := func(db *store.DB, k *store.KeyCap, batch []store.NewFamily) store.WriteResult {
				t.Helper()
				r, err := db.WriteBatchLimited(ctx, batch, store.Limits{Levels: store.NoCaps(), Key: k})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			// a: 2 of the kind and one other.
			if r := write(a, &capA, []store.NewFamily{tt.in(1), tt.out(2), tt.in(3)}); r.Families != 3 || r.OverCap != 0 {
				t.Errorf("a's first batch = %+v, want 3 families written", r)
			}
			// b: one known, 3 of the kind fit (4, 5 and 6), then 7 does
			// not; the other kind passes.
			r := write(b, &capB, []store.NewFamily{tt.in(1), tt.in(4), tt.out(8), tt.in(5), tt.in(6), tt.in(7)})
			if r.Families != 4 || r.OverCap != 1 || r.DupFamilies != 1 {
				t.Errorf("b's batch = %+v, want 4 families written, 1 over the cap, 1 known", r)
			}
			// a again, after b filled the cap: only the other kind passes.
			if r := write(a, &capA, []store.NewFamily{tt.in(9), tt.out(10), tt.in(11)}); r.Families != 1 || r.OverCap != 2 {
				t.Errorf("a's second batch = %+v, want 1 family written, 2 over the cap", r)
			}
			if r := write(b, &capB, []store.NewFamily{tt.in(12)}); r.Families != 0 || r.OverCap != 1 {
				t.Errorf("b's second batch = %+v, want the family over the cap", r)
			}
			n, err := a.CountFamilies(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.cap.Max {
				t.Errorf("the bank holds %d families of the kind, want the cap %d", n, tt.cap.Max)
			}
		})
	}
}
