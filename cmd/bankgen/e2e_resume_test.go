package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"sudokubank/store"
)

// TestShardRerunAfterStop stops a shard run part-way, by a kill and by
// an interrupt, and runs the same command again: the shard then holds
// the families, puzzles and grades one uninterrupted run of it makes, so
// that the shards still merge to the single run, and a third run adds
// nothing. The stopped run uses one worker and the rerun two, which
// makes the same families.
func TestShardRerunAfterStop(t *testing.T) {
	job := []string{"-seed", "42", "-shard", "1/4", "-count", "24000", "-variants", "1", "-quiet"}
	const share = 6000
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, append([]string{"-db", "whole.db"}, job...)...))
	whole := filepath.Join(dir, "whole.db")
	wantCanons, wantGraded := canons(t, whole), graded(t, whole)
	if len(wantCanons) != share {
		t.Fatalf("the uninterrupted shard holds %d families, want its share %d", len(wantCanons), share)
	}
	for _, tt := range []struct {
		name   string
		signal os.Signal
		code   int // the stopped run's exit code
		status string
	}{
		{"Kill", syscall.SIGKILL, -1, store.RunInterrupted},
		{"Interrupt", os.Interrupt, 130, store.RunInterrupted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			name := strings.ToLower(tt.name) + ".db"
			path := filepath.Join(dir, name)
			args := append([]string{"-db", name}, job...)
			cmd, _, errb := startBankgen(t, dir, append(args, "-workers", "1")...)
			waitFamilies(t, errb, path, 1)
			cmd.Process.Signal(tt.signal)
			if code := exitCodeOf(t, cmd); code != tt.code {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, tt.code, errb)
			}
			stopped := families(path)
			if stopped >= share {
				t.Fatalf("the run finished its %d families before it was stopped: nothing to resume", stopped)
			}

			r := bankgen(t, dir, append(args, "-workers", "2")...)
			mustSucceed(t, r)
			if got := canons(t, path); !slices.Equal(got, wantCanons) {
				t.Errorf("after the rerun the shard holds %d families, %d in the uninterrupted one; other forms", len(got), len(wantCanons))
			}
			if !slices.Equal(graded(t, path), wantGraded) {
				t.Error("after the rerun the shard holds other puzzles, grades or levels than the uninterrupted one")
			}
			if !strings.Contains(r.stdout, "resumed: ") {
				t.Errorf("the rerun's summary does not say what it counted of the stopped run:\n%s", r.stdout)
			}
			rs := runs(t, path)
			if len(rs) != 2 || rs[0].Status != tt.status || rs[0].Families != int64(stopped) ||
				rs[1].Status != store.RunCompleted || rs[1].Families != int64(share-stopped) {
				t.Errorf("runs = %+v, want the stopped one with %d families and a completed one with the other %d", rs, stopped, share-stopped)
			}

			r = bankgen(t, dir, args...)
			mustSucceed(t, r)
			if !strings.Contains(r.stdout, " 0 families and 0 variants") || families(path) != share {
				t.Errorf("a run of the finished shard added families (the bank holds %d):\n%s", families(path), r.stdout)
			}
			checkBank(t, path)
			if r := bankgen(t, dir, "merge", "-db", "merged-"+name, name); r.code != 0 || strings.Contains(r.stderr, "did not complete") {
				t.Errorf("merge of the finished shard: exit %d, stderr %q; want 0 and no word of the stopped run", r.code, r.stderr)
			}
		})
	}
}
