package main

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/grid"
)

// TestStoppingDuringMigration opens a bank an older bankgen wrote (the
// store's schema-5 dump) as a run does: while it is migrated, the line
// the first signal prints says the migration stops and the bank stays
// whole at the last schema it reached, where it said "writing what is
// done" of a run that had written nothing; before and after, the run's
// own line stands.
func TestStoppingDuringMigration(t *testing.T) {
	ctx := context.Background()
	dump, err := os.ReadFile(filepath.Join("..", "..", "store", "testdata", "schema5.sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, string(dump)); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	var during []string
	note := noteMigration
	noteMigration = func(on bool) {
		note(on)
		if on {
			during = append(during, program.StoppingNow())
		}
	}
	t.Cleanup(func() { noteMigration = note })
	if got := program.StoppingNow(); got != "" {
		t.Errorf("before the migration, StoppingNow = %q, want \"\" (Stopping's line)", got)
	}
	db, _, _, err := openBank(ctx, path, grid.Shape{}, newLogger(io.Discard), 1, false)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if len(during) != 1 {
		t.Fatalf("the migration was noted %d times, want 1", len(during))
	}
	for _, want := range []string{"stopping the migration", "the bank stays whole at the last schema it reached"} {
		if !strings.Contains(during[0], want) {
			t.Errorf("during the migration, StoppingNow = %q, want %q in it", during[0], want)
		}
	}
	if strings.Contains(during[0], "writing what is done") {
		t.Errorf("during the migration, StoppingNow = %q, which says a run writes", during[0])
	}
	if got := program.StoppingNow(); got != "" {
		t.Errorf("after the migration, StoppingNow = %q, want \"\"", got)
	}
}
