package gen_test

import (
	"context"
	"errors"
	"testing"

	"sudokubank/gen"
)

// stopAfter is a context whose error turns to context.Canceled at its
// n-th look, so that a test can stop a dig part-way without timing it.
type stopAfter struct {
	context.Context
	looks, n int
}

func (s *stopAfter) Err() error {
	if s.looks++; s.looks >= s.n {
		return context.Canceled
	}
	return nil
}

func TestDigContext(t *testing.T) {
	p := gen.MinimalProfile(gen.NoSymmetry)
	tests := []struct {
		name string
		ctx  context.Context
		err  error
	}{
		{"Live", context.Background(), nil},
		{"CancelledBefore", &stopAfter{Context: context.Background(), n: 1}, context.Canceled},
		{"CancelledMidway", &stopAfter{Context: context.Background(), n: 3}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d gen.Digger
			got, err := d.GenerateContext(tt.ctx, p, newRand(7))
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("GenerateContext error = %v, want %v", err, tt.err)
			}
			if tt.err != nil {
				return
			}
			if want := new(gen.Digger).Generate(p, newRand(7)); got != want {
				t.Errorf("GenerateContext = %v, want Generate's %v", got, want)
			}
		})
	}
}
