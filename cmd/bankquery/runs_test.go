package main_test

import (
	"context"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"sudokubank/internal/banktest"
	"sudokubank/store"
)

// MustRunsBank writes a bank with the runs of a day's work: a generating
// run that stored two fixture families, an import that added nothing
// (every puzzle a duplicate), a failed import, and a run of a bank from
// before the runs recorded their command lines.
func MustRunsBank(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	path := filepath.Join(tb.TempDir(), "puzzles.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	start := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	gen, err := db.StartRun(ctx, store.Run{Kind: store.RunGenerate, Source: "gen", Args: []string{"-count", "2", "-seed", "42"},
		Params: "-count 2 -seed 42", Seed: 42, CodeVersion: "v1.0.0 abc123", StartedAt: start})
	if err != nil {
		tb.Fatal(err)
	}
	fams := MustReadFixture(tb)[:2]
	for i := range fams {
		fams[i].RunID = gen
	}
	if _, err := db.WriteBatch(ctx, fams); err != nil {
		tb.Fatal(err)
	}
	if err := db.FinishRun(ctx, gen, store.RunEnd{Status: store.RunCompleted, Families: 2, Puzzles: int64(len(fams[0].Puzzles) + len(fams[1].Puzzles)), Rejected: 7}); err != nil {
		tb.Fatal(err)
	}
	for _, r := range []struct {
		run store.Run
		end store.RunEnd
	}{
		{store.Run{Kind: store.RunImport, Source: "top 95", Args: []string{"import", "-source", "top 95", "top95's copy.txt"}, CodeVersion: "v1.0.0 abc123", StartedAt: start.Add(time.Hour)},
			store.RunEnd{Status: store.RunCompleted, DupFamilies: 95, DupPuzzles: 95, Message: "added nothing: 95 duplicate families, 0 rejected"}},
		{store.Run{Kind: store.RunImport, Source: "junk", Args: []string{"import", "-source", "junk", "junk.bin"}, StartedAt: start.Add(2 * time.Hour)},
			store.RunEnd{Status: store.RunFailed, Rejected: 12, Message: "no line of junk.bin was a puzzle with one solution (12 lines read)"}},
		{store.Run{Params: "-count 5", Seed: 7, StartedAt: start.Add(3 * time.Hour)},
			store.RunEnd{Status: store.RunInterrupted, Families: 3, Puzzles: 3, Message: "interrupted by a signal"}},
	} {
		id, err := db.StartRun(ctx, r.run)
		if err != nil {
			tb.Fatal(err)
		}
		if err := db.FinishRun(ctx, id, r.end); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

var rfc3339 = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)

func TestRunsGolden(t *testing.T) {
	db := MustRunsBank(t)
	dir := filepath.Dir(db)
	golden(t, "runs.golden", []byte(stable(mustRun(t, "runs", "-db", db), dir)))
	golden(t, "runsjson.golden", []byte(rfc3339.ReplaceAllString(stable(mustRun(t, "runs", "-db", db, "-json"), dir), "TIME")))
	empty := MustBank(t)
	golden(t, "runsnone.golden", []byte(stable(mustRun(t, "runs", "-db", empty), filepath.Dir(empty))))
}

// TestRunsOlderBank reads a bank of the schema before runs kept their
// kind: runs refuses it, as every reader does, and says how to migrate
// it, leaving it as it was.
func TestRunsOlderBank(t *testing.T) {
	db := MustRunsBank(t)
	banktest.MustExec(t, db, "PRAGMA user_version = 10")
	r := run(t, "runs", "-db", db)
	if r.code != 1 || r.err == nil || !strings.Contains(r.err.Error(), "migrate it once with bankgen -db "+db+" -count 0") {
		t.Errorf("exit %d, error %v; want 1 and how to migrate", r.code, r.err)
	}
}

// TestRunsProcessEnded: a run recorded as running whose process is gone
// (a kill) is shown so, in text and JSON, and left for the next bankgen
// to record.
func TestRunsProcessEnded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock: a run's process is never known to have ended")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "puzzles.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.StartRun(ctx, store.Run{Kind: store.RunGenerate, Source: "gen", Args: []string{"-count", "9"}}); err != nil {
		t.Fatal(err)
	}
	// Closed without finishing its run, as the process's death would.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, "runs", "-db", path); !strings.Contains(out, "run 1: generate, running, but its process has ended") {
		t.Errorf("runs:\n%s", out)
	}
	if out := mustRun(t, "runs", "-db", path, "-json"); !strings.Contains(out, `"status":"running"`) || !strings.Contains(out, `"process_ended":true`) {
		t.Errorf("runs -json:\n%s", out)
	}
	if out := mustRun(t, "stats", "-db", path); !strings.Contains(out, "running (process ended)") {
		t.Errorf("stats:\n%s", out)
	}
}
