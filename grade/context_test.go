package grade_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"sudokubank/grade"
)

// hard is a puzzle of se_sample.txt rated 11.3, whose nested forcing
// chains take the grader seconds.
const hard = "........1..1..2..3.4..5..6......7....8..4..9.7..3..2....56...4..6......94.8.9...."

// probe is a context that calls at once each time the grader asks for
// its error for the n-th time, so that a test can act in the middle of a
// grade without timing it.
type probe struct {
	context.Context
	calls atomic.Int64
	n     int64
	at    func()
}

func (p *probe) Err() error {
	if p.calls.Add(1) == p.n {
		p.at()
	}
	return p.Context.Err()
}

func TestGradeContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var g grade.Grader
	if _, err := g.GradeContext(ctx, MustParse(t, hard)); !errors.Is(err, context.Canceled) {
		t.Fatalf("GradeContext(cancelled) error = %v, want %v", err, context.Canceled)
	}
}

// TestGradeContextStopsMidway cancels a hard grade from another
// goroutine once it has taken a few steps, and checks that it stops with
// ctx's error rather than going on to the end.
func TestGradeContextStopsMidway(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	reached := make(chan struct{})
	ctx := &probe{Context: parent, n: 3, at: func() { close(reached) }}
	var g grade.Grader
	errc := make(chan error, 1)
	go func() {
		_, err := g.GradeContext(ctx, MustParse(t, hard))
		errc <- err
	}()
	<-reached
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("GradeContext cancelled mid-way: error = %v, want %v", err, context.Canceled)
	}
	// The grader grades as well after a cancelled grade as a fresh one.
	easy := MustParse(t, "....3......8.4.7.592...61..23........7..9....6....2....9.5.......5...8.13...6..4.")
	got, err := g.GradeContext(context.Background(), easy)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := grade.Rate(easy); got.ER != want.ER || got.Steps != want.Steps {
		t.Errorf("after a cancelled grade: ER %v in %d steps, want %v in %d", got.ER, got.Steps, want.ER, want.Steps)
	}
}
