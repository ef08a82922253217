package main_test

import (
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/internal/banktest"
)

// asSchema13 turns the bank at path back into one yesterday's bankgen
// made (schema 13): 0014 only added two indexes.
func asSchema13(tb testing.TB, path string) {
	tb.Helper()
	banktest.MustExec(tb, path, "DROP INDEX families_sample; DROP INDEX puzzles_family; PRAGMA user_version = 13")
}

// The commands of bankquery that write (a recorded export, packs release)
// migrate an older bank as bankgen does, and say so as bankgen does: the
// migration is one-way (an older bankgen refuses the bank after it) and
// may take a while on a big bank, which without a word looks like a hang.
func TestWritersSayTheyMigrate(t *testing.T) {
	for _, c := range []struct {
		name string
		args func(db, dir string) []string
	}{
		{"export", func(db, dir string) []string {
			return []string{"export", "-db", db, "-count", "2", "-seed", "1", "-format", "csv", "-out", filepath.Join(dir, "p.csv"), "-pack", "p"}
		}},
		{"packs release", func(db, dir string) []string {
			mustRun(t, "export", "-db", db, "-count", "2", "-seed", "1", "-format", "csv", "-out", filepath.Join(dir, "r.csv"), "-pack", "r", "-client", "acme")
			return []string{"packs", "release", "-db", db, "-force", "r"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := MustBank(t)
			args := c.args(db, t.TempDir())
			asSchema13(t, db)
			r := run(t, args...)
			if r.err != nil {
				t.Fatalf("bankquery %s: %v\nstderr:\n%s", strings.Join(args, " "), r.err, r.stderr)
			}
			for _, want := range []string{"migrating the bank to a newer schema", "from=13 to=14", `msg="migrated the bank"`, "schema=14"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			// Read-only commands still refuse an older bank, and say nothing of migrating it themselves.
			other := MustBank(t)
			asSchema13(t, other)
			if r := run(t, "stats", "-db", other); r.code != 1 || strings.Contains(r.stderr, "migrating the bank") {
				t.Errorf("stats on an older bank: exit %d, stderr %q; want 1 and no migration", r.code, r.stderr)
			}
		})
	}
}
