package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"sudokubank/store"
)

// RunEnd returns how a run that summed up to sum and returned runErr
// ended, as the bank's runs table records it: failed with runErr's
// message, interrupted, or completed, with a message where a completed
// run stopped short of its target (Summary.Exhausted) or added nothing.
// Every candidate the pipeline threw away counts as rejected.
func RunEnd(sum Summary, runErr error) store.RunEnd {
	end := store.RunEnd{
		Status:      store.RunCompleted,
		Families:    sum.Families,
		Puzzles:     sum.Puzzles,
		DupFamilies: sum.Duplicates,
		DupPuzzles:  sum.DupPuzzles,
		Rejected:    sum.OffLevel + sum.OffGivens + sum.OffTarget + sum.OverQuota + sum.Invalid + sum.Failed,
	}
	// Families left out at a quota count as rejected, and the message
	// says so: the run made them, but another filled the quota first.
	over := ""
	if sum.OverQuota > 0 {
		over = fmt.Sprintf(", %d of them over a quota another run filled first", sum.OverQuota)
	}
	switch {
	case runErr != nil:
		end.Status, end.Message = store.RunFailed, runErr.Error()
	case sum.Interrupted:
		end.Status, end.Message = store.RunInterrupted, "interrupted by a signal"
	case sum.Exhausted != "":
		end.Message = sum.Exhausted
	case end.Families == 0 && end.Puzzles == 0:
		// Recorded all the same, so that the runs table says the
		// command ran; the message says why the bank did not change.
		end.Message = fmt.Sprintf("added nothing: %d duplicate families, %d rejected%s", end.DupFamilies, end.Rejected, over)
	case sum.OverQuota > 0:
		end.Message = fmt.Sprintf("%d families left out over a quota another run filled first", sum.OverQuota)
	}
	return end
}

// FinishRun ends run id of db: it builds the indexes a fresh bank
// deferred if the run did not (it stopped early), adding the time to
// sum.Elapsed so that the run's rate counts all the work of storing its
// puzzles, and records RunEnd(*sum, runErr), with the index build's
// error as runErr if there was none. Where the end cannot be recorded it
// keeps a note beside the bank, so that the next run records this one as
// failed with its reason rather than as killed. It does its work even
// after ctx is cancelled, as an interrupted run needs; it returns the
// error of recording the end, or else of building the indexes.
func FinishRun(ctx context.Context, db *store.DB, id int64, sum *Summary, runErr error) error {
	ctx = context.WithoutCancel(ctx)
	t0 := time.Now()
	idxErr := db.BuildIndexes(ctx)
	sum.Elapsed += time.Since(t0)
	if idxErr != nil && runErr == nil {
		runErr = idxErr
	}
	end := RunEnd(*sum, runErr)
	if err := db.FinishRun(ctx, id, end); err != nil {
		note := end.Message
		if end.Status != store.RunFailed {
			note = fmt.Sprintf("its end (%s) could not be recorded: %v", end.Status, err)
		}
		if nerr := db.NoteRunFailure(id, note); nerr != nil {
			slog.Warn("keep the failure for the next run", "run", id, "err", nerr)
		}
		return fmt.Errorf("record the end of run %d: %w", id, err)
	}
	return idxErr
}
