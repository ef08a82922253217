package store_test

import (
	"context"
	"database/sql"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokubank/store"
)

// runByID returns run id of the bank, failing the test if it is missing.
func runByID(tb testing.TB, db *store.DB, id int64) store.Run {
	tb.Helper()
	rs, err := db.Runs(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	for _, r := range rs {
		if r.ID == id {
			return r
		}
	}
	tb.Fatalf("no run %d in %+v", id, rs)
	return store.Run{}
}

func TestWriteBatchCountsTheRun(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	id, err := db.StartRun(ctx, store.Run{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, b := fam(1, 2, 30, 3), fam(2, 3, 28, 2)
	a.RunID, b.RunID = id, id
	imported := fam(3, 1, 40, 1) // no run: an import
	MustWrite(t, db, []store.NewFamily{a, b, imported})
	MustWrite(t, db, []store.NewFamily{a}) // known: nothing new for the run
	if got := runByID(t, db, id); got.Families != 2 || got.Puzzles != 5 || got.Status != store.RunRunning {
		t.Errorf("run after two batches = %+v, want running with 2 families and 5 puzzles", got)
	}
}

func TestEndDeadRuns(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock: dead runs are never found")
	}
	ctx := context.Background()
	db, path := MustOpenTemp(t)
	live, err := db.StartRun(ctx, store.Run{Params: "live"})
	if err != nil {
		t.Fatal(err)
	}

	// A second writer's run that dies: closing the writer without
	// finishing the run lets go of its lock, as the process's death would.
	other, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dead, err := other.StartRun(ctx, store.Run{Params: "dead"})
	if err != nil {
		t.Fatal(err)
	}
	f := fam(1, 2, 30, 4)
	f.RunID = dead
	if _, err := other.WriteBatch(ctx, []store.NewFamily{f}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lockFile(path, dead)); err != nil {
		t.Errorf("the running run has no lock file: %v", err)
	}
	// A live run of another writer is left alone.
	third, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	alive, err := third.StartRun(ctx, store.Run{Params: "other live"})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	// A run of a program from before the lock files: it has none.
	old := insertRunningRun(t, path)

	ended, err := db.EndDeadRuns(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{dead, old}; len(ended) != 2 || ended[0] != want[0] || ended[1] != want[1] {
		t.Errorf("EndDeadRuns = %v, want %v", ended, want)
	}
	got := runByID(t, db, dead)
	if got.Status != store.RunInterrupted || !strings.HasPrefix(got.Message, "killed") || got.EndedAt.IsZero() ||
		got.Families != 1 || got.Puzzles != 4 {
		t.Errorf("dead run = %+v, want interrupted (killed) with its 1 family and 4 puzzles", got)
	}
	if _, err := os.Stat(lockFile(path, dead)); !os.IsNotExist(err) {
		t.Errorf("the dead run's lock file is still there (%v)", err)
	}
	for _, id := range []int64{live, alive} {
		if got := runByID(t, db, id); got.Status != store.RunRunning {
			t.Errorf("live run %d = %+v, want running", id, got)
		}
	}
	// Finishing removes the lock file.
	if err := db.FinishRun(ctx, live, store.RunEnd{Status: store.RunCompleted}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lockFile(path, live)); !os.IsNotExist(err) {
		t.Errorf("the finished run's lock file is still there (%v)", err)
	}
	if ended, err := db.EndDeadRuns(ctx); err != nil || len(ended) != 0 {
		t.Errorf("EndDeadRuns again = %v, %v; want none", ended, err)
	}
}

// insertRunningRun adds a "running" run the way a program without run
// locks did, and returns its ID.
func insertRunningRun(tb testing.TB, path string) int64 {
	tb.Helper()
	x, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		tb.Fatal(err)
	}
	defer x.Close()
	res, err := x.Exec(`INSERT INTO runs (seed, started_at) VALUES (0, 0)`)
	if err != nil {
		tb.Fatal(err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		tb.Fatal(err)
	}
	return id
}

// lockFile returns the name of run id's lock file beside the bank at path.
func lockFile(path string, id int64) string {
	return path + "-run" + strconv.FormatInt(id, 10) + ".lock"
}

// TestRunKindSourceArgs reads back what a run records about itself: its
// kind, source and arguments exactly as given, spaces and quotes kept.
func TestRunKindSourceArgs(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	tests := []struct {
		in   store.Run
		kind string
	}{
		{store.Run{Source: "gen", Args: []string{"-count", "5"}}, store.RunGenerate},
		{store.Run{Kind: store.RunImport, Source: "top 1465", Args: []string{"import", "-source", "top 1465", `my "file".txt`}}, store.RunImport},
		{store.Run{Kind: store.RunMerge, Source: "other"}, store.RunMerge},
	}
	for _, tt := range tests {
		id, err := db.StartRun(ctx, tt.in)
		if err != nil {
			t.Fatal(err)
		}
		got := runByID(t, db, id)
		if got.Kind != tt.kind || got.Source != tt.in.Source || strings.Join(got.Args, "|") != strings.Join(tt.in.Args, "|") {
			t.Errorf("run %d = kind %q source %q args %q; want %q %q %q", id, got.Kind, got.Source, got.Args, tt.kind, tt.in.Source, tt.in.Args)
		}
	}
	if _, err := db.StartRun(ctx, store.Run{Kind: "copy"}); err == nil {
		t.Error("StartRun took the kind \"copy\"")
	}
}

// TestRunAddedNothing checks which runs count as having added nothing:
// ended ones that stored no family and no puzzle.
func TestRunAddedNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  store.RunEnd
		want bool
	}{
		{"Running", store.RunEnd{Status: store.RunRunning}, false},
		{"CompletedEmpty", store.RunEnd{Status: store.RunCompleted, DupFamilies: 5}, true},
		{"FailedEmpty", store.RunEnd{Status: store.RunFailed}, true},
		{"Families", store.RunEnd{Status: store.RunCompleted, Families: 1, Puzzles: 1}, false},
		{"PuzzlesOnly", store.RunEnd{Status: store.RunInterrupted, Puzzles: 2}, false},
	} {
		if got := (store.Run{RunEnd: tc.end}).AddedNothing(); got != tc.want {
			t.Errorf("%s: AddedNothing = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRunFamilies checks that a run's families come back in the order
// they were stored, with their levels and item seeds, and that those of
// other runs and of imports do not.
func TestRunFamilies(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	a, err := db.StartRun(ctx, store.Run{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.StartRun(ctx, store.Run{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var batch []store.NewFamily
	for _, n := range []int{5, 2, 7, 1, 9} {
		f := fam(n, 1+n%5, 30, 1)
		switch n {
		case 2, 1:
			f.RunID = b
		case 9:
			// an import: no run
		default:
			f.RunID = a
		}
		batch = append(batch, f)
	}
	MustWrite(t, db, batch)
	for _, tt := range []struct {
		name string
		runs []int64
		want []int // family numbers, as stored
	}{
		{"One", []int64{a}, []int{5, 7}},
		{"Both", []int64{b, a}, []int{5, 2, 7, 1}},
		{"None", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got, want []store.RunFamily
			err := db.RunFamilies(ctx, tt.runs, func(f store.RunFamily) error {
				got = append(got, f)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range tt.want {
				want = append(want, store.RunFamily{Canon: grid("c", n), Level: 1 + n%5, Seed: uint64(n)})
			}
			if !slices.Equal(got, want) {
				t.Errorf("RunFamilies(%v) = %+v, want %+v", tt.runs, got, want)
			}
		})
	}
}

// A reader tells a run still recorded as running whose process has gone
// (Gone) from one whose process lives, without recording anything: the
// next writer does (EndDeadRuns).
func TestRunsGone(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock: dead runs are never found")
	}
	ctx := context.Background()
	db, path := MustOpenTemp(t)
	live, err := db.StartRun(ctx, store.Run{Params: "live"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dead, err := other.StartRun(ctx, store.Run{Params: "dead"})
	if err != nil {
		t.Fatal(err)
	}
	// Closed without finishing its run, as the process's death would.
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for range 2 { // reading changes nothing
		runs, err := r.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		gone := map[int64]bool{}
		for _, run := range runs {
			if run.Status != store.RunRunning {
				t.Errorf("run %d: status %s, want running still", run.ID, run.Status)
			}
			gone[run.ID] = run.Gone
		}
		if gone[live] || !gone[dead] {
			t.Errorf("Gone: live run %v, dead run %v; want false, true", gone[live], gone[dead])
		}
	}
	// The writer's own run is its own, alive.
	runs, err := db.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range runs {
		if run.ID == live && run.Gone {
			t.Errorf("the writer's own run %d is gone", live)
		}
	}
}
