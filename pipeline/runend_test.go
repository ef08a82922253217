package pipeline_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"sudokubank/pipeline"
	"sudokubank/store"
)

// TestRunEnd checks how each way a run can end is recorded.
func TestRunEnd(t *testing.T) {
	some := pipeline.Summary{Snapshot: pipeline.Snapshot{
		Families: 3, Puzzles: 5, Duplicates: 2, DupPuzzles: 4,
		OffLevel: 1, OffGivens: 2, OffTarget: 3, Invalid: 4, Failed: 5,
	}}
	counts := store.RunEnd{Families: 3, Puzzles: 5, DupFamilies: 2, DupPuzzles: 4, Rejected: 15}
	with := func(status, msg string) store.RunEnd {
		e := counts
		e.Status, e.Message = status, msg
		return e
	}
	interrupted := some
	interrupted.Interrupted = true
	exhausted := some
	exhausted.Exhausted = "found only families the bank has"
	nothing := pipeline.Summary{Snapshot: pipeline.Snapshot{Duplicates: 95, DupPuzzles: 95, Invalid: 2}}
	overQuota := some
	overQuota.OverQuota = 6
	nothingOver := pipeline.Summary{Snapshot: pipeline.Snapshot{Duplicates: 1, OverQuota: 4}}
	for _, tc := range []struct {
		name string
		sum  pipeline.Summary
		err  error
		want store.RunEnd
	}{
		{"completed", some, nil, with(store.RunCompleted, "")},
		{"failed", some, errors.New("disk full"), with(store.RunFailed, "disk full")},
		{"failed though interrupted", interrupted, errors.New("disk full"), with(store.RunFailed, "disk full")},
		{"interrupted", interrupted, nil, with(store.RunInterrupted, "interrupted by a signal")},
		{"exhausted", exhausted, nil, with(store.RunCompleted, "found only families the bank has")},
		{"added nothing", nothing, nil, store.RunEnd{Status: store.RunCompleted, DupFamilies: 95, DupPuzzles: 95, Rejected: 2,
			Message: "added nothing: 95 duplicate families, 2 rejected"}},
		{"over quota", overQuota, nil, store.RunEnd{Status: store.RunCompleted, Families: 3, Puzzles: 5, DupFamilies: 2, DupPuzzles: 4, Rejected: 21,
			Message: "6 families left out over a quota another run filled first"}},
		{"added nothing over quota", nothingOver, nil, store.RunEnd{Status: store.RunCompleted, DupFamilies: 1, Rejected: 4,
			Message: "added nothing: 1 duplicate families, 4 rejected, 4 of them over a quota another run filled first"}},
	} {
		if got := pipeline.RunEnd(tc.sum, tc.err); got != tc.want {
			t.Errorf("%s: RunEnd = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestFinishRun checks that FinishRun builds the indexes a fresh bank
// deferred and records the run's end, even with ctx cancelled.
func TestFinishRun(t *testing.T) {
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "b.db"), store.Options{DeferIndexes: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	id, err := db.StartRun(context.Background(), store.Run{Source: "gen"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sum := pipeline.Summary{Interrupted: true}
	if err := pipeline.FinishRun(ctx, db, id, &sum, nil); err != nil {
		t.Fatal(err)
	}
	if db.IndexesDeferred() {
		t.Error("indexes still deferred after FinishRun")
	}
	runs, err := db.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Status != store.RunInterrupted || runs[0].Message != "interrupted by a signal" {
		t.Errorf("runs = %+v, want one interrupted", runs)
	}
}
