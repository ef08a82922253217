package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"sudokubank/store"
)

func TestHardestFamilies(t *testing.T) {
	db, _ := MustOpenTemp(t)
	// Families 0..9 rated 9.0, 9.1, 9.2, 9.0, ... written out of order,
	// the even ones with x-wing as their hardest step, the odd ones with
	// rot180 givens, and 0, 3, 6 and 9 using a swordfish: 0 and 6 say so
	// in their path, 3 and 9 in technique rows, as families written
	// before the runs form do.
	// Families 1 and 3 are a run's, which a rerun of its job leaves out
	// of its start points; the others are imports.
	run, err := db.StartRun(context.Background(), store.Run{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var batch []store.NewFamily
	for _, n := range []int{7, 2, 9, 0, 4, 1, 8, 3, 6, 5} {
		f := fam(n, 5, 22+n%3, 1)
		if n == 1 || n == 3 {
			f.RunID = run
		}
		f.ER = 90 + n%3
		if n%2 == 0 {
			f.Hardest = "x-wing"
		} else {
			f.Symmetry = "rot180"
		}
		if n%3 == 0 {
			if n%2 == 0 {
				path, err := store.EncodePath([]string{"naked-single", "swordfish", "naked-single"})
				if err != nil {
					t.Fatal(err)
				}
				f.Path, f.Techniques = path, nil
			} else {
				f.Techniques["swordfish"] = 1
			}
		}
		batch = append(batch, f)
	}
	MustWrite(t, db, batch)
	tests := []struct {
		name string
		q    store.HardestQuery
		want []int // family numbers
	}{
		{"All", store.HardestQuery{Limit: 20}, []int{2, 5, 8, 1, 4, 7, 0, 3, 6, 9}},
		{"Limit", store.HardestQuery{Limit: 4}, []int{2, 5, 8, 1}},
		{"Rating", store.HardestQuery{RatingMin: 91, RatingMax: 91, Limit: 20}, []int{1, 4, 7}},
		{"Givens", store.HardestQuery{GivensMin: 23, GivensMax: 23, Limit: 20}, []int{1, 4, 7}},
		{"Hardest", store.HardestQuery{Hardest: []string{"x-wing", "swordfish"}, Limit: 20}, []int{2, 8, 4, 0, 6}},
		{"Uses", store.HardestQuery{Uses: []string{"swordfish"}, Limit: 20}, []int{0, 3, 6, 9}},
		{"UsesAny", store.HardestQuery{Uses: []string{"swordfish", "hidden-single"}, Limit: 4}, []int{2, 5, 8, 1}},
		{"Symmetries", store.HardestQuery{Symmetries: []string{"rot180", "rot90"}, Limit: 20}, []int{5, 1, 7, 3, 9}},
		{"UsesSymmetries", store.HardestQuery{Uses: []string{"swordfish"}, Symmetries: []string{"rot180"}, Limit: 20}, []int{3, 9}},
		{"Level", store.HardestQuery{Levels: []int{4}, Limit: 20}, nil},
		{"Size", store.HardestQuery{Size: 4, Limit: 20}, nil},
		{"ExceptRuns", store.HardestQuery{ExceptRuns: []int64{run}, Limit: 20}, []int{2, 5, 8, 4, 7, 0, 6, 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fams, err := db.HardestFamilies(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range fams {
				got = append(got, f.Canon)
			}
			var want []string
			for _, n := range tt.want {
				want = append(want, grid("c", n))
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
	for _, q := range []store.HardestQuery{{}, {Limit: 1, Size: 5}, {Limit: 1, Hardest: []string{"a b"}}, {Limit: 1, Uses: []string{"a b"}}, {Limit: 1, Levels: []int{6}}} {
		if _, err := db.HardestFamilies(context.Background(), q); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("HardestFamilies(%+v) = %v, want ErrInvalid", q, err)
		}
	}
}
