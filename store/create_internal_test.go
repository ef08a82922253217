//go:build unix

package store

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubank/gen"
)

// dirNames returns the names in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestCreateFailureLeavesNoFile fails a new bank's last migration: the
// bank's path must stay free, and nothing of the attempt stay beside it.
func TestCreateFailureLeavesNoFile(t *testing.T) {
	latest, err := latestVersion(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	setMigrations(t, withMigrations(t, map[string]string{
		fmtName(latest+1, "bad"): "CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);",
	}))
	dir := t.TempDir()
	if db, err := Open(context.Background(), filepath.Join(dir, "bank.db"), Options{}); err == nil {
		db.Close()
		t.Fatal("Open created a bank whose migration failed")
	}
	if names := dirNames(t, dir); len(names) > 0 {
		t.Errorf("a failed creation left %q", names)
	}
}

// slowCreateEnv names the bank TestSlowCreateHelper creates.
const slowCreateEnv = "SUDOKUBANK_TEST_SLOW_CREATE"

// TestSlowCreateHelper is the process TestCreateKilledLeavesNoBank
// kills: it creates a bank whose last migration never ends.
func TestSlowCreateHelper(t *testing.T) {
	path := os.Getenv(slowCreateEnv)
	if path == "" {
		t.Skip("run by TestCreateKilledLeavesNoBank")
	}
	latest, err := latestVersion(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	setMigrations(t, withMigrations(t, map[string]string{
		fmtName(latest+1, "slow"): `CREATE TABLE slow AS WITH RECURSIVE c(x) AS
			(SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000000) SELECT count(*) AS n FROM c;`,
	}))
	Open(context.Background(), path, Options{})
	t.Fatal("the slow migration ended")
}

// TestCreateKilledLeavesNoBank kills a process while it migrates a new
// bank, as SIGKILL or a power cut may: nothing must be at the bank's
// path, and the next Open creates the bank and removes what the dead
// process left.
func TestCreateKilledLeavesNoBank(t *testing.T) {
	if !runLocksWork {
		t.Skip("no file locks to tell a dead creator's file from a live one")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "bank.db")
	// The migrations before the slow one have committed once the
	// temporary file's WAL holds pages.
	killHelperWhen(t, "TestSlowCreateHelper", []string{slowCreateEnv + "=" + path}, func() bool {
		names, _ := filepath.Glob(filepath.Join(dir, "bank.db"+creatingInfix+"*-wal"))
		if len(names) == 1 {
			if st, err := os.Stat(names[0]); err == nil && st.Size() > 0 {
				return true
			}
		}
		_, err := os.Stat(path)
		return err == nil // the bank is at its path before it is whole: what the test looks for
	})
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("after a kill during creation, Stat(%s) = %v, want no file", path, err)
	}
	left := dirNames(t, dir)
	if len(left) == 0 {
		t.Fatal("the killed creator left nothing: the test did not kill it while creating")
	}
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.IntegrityCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, n := range dirNames(t, dir) {
		if strings.Contains(n, creatingInfix) {
			t.Errorf("Open left the dead creator's %s (the directory held %q)", n, left)
		}
	}
}

// TestCreateMode checks that a new bank gets the permissions SQLite
// gives a new file, not a temporary file's narrower ones.
func TestCreateMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	old := syscall.Umask(0)
	syscall.Umask(old)
	if got, want := st.Mode().Perm(), os.FileMode(0o644&^old); got != want {
		t.Errorf("new bank's mode %v, want %v", got, want)
	}
}

// TestConcurrentCreate creates one bank from two writers at once, from a
// missing file and from an empty one: both must end up with the one bank
// at the path, not one of them with a file the other replaced.
func TestConcurrentCreate(t *testing.T) {
	for _, empty := range []bool{false, true} {
		t.Run(map[bool]string{false: "Missing", true: "Empty"}[empty], func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "bank.db")
			if empty {
				if err := os.WriteFile(path, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// One handler for both: it writes each record whole.
			var logged bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logged, nil))
			dbs := make([]*DB, 2)
			errs := make(chan error, 2)
			for i := range dbs {
				go func() {
					var err error
					dbs[i], err = Open(ctx, path, Options{Log: log})
					errs <- err
				}()
			}
			for range dbs {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			for _, db := range dbs {
				t.Cleanup(func() { db.Close() })
			}
			// The bank is new once, whichever writer placed it; in an
			// empty file the warning about it says so instead.
			want := 1
			if empty {
				want = 0
			}
			if n := strings.Count(logged.String(), `msg="made a new bank"`); n != want {
				t.Errorf("two writers making one bank logged:\n%s\n%d lines of a new bank, want %d", logged.String(), n, want)
			}
			f, _ := variantFamily(t, gen.Identity(), gen.Identity())
			if _, err := dbs[0].WriteBatch(ctx, []NewFamily{f}); err != nil {
				t.Fatal(err)
			}
			for i, db := range dbs {
				if n, err := db.CountFamilies(ctx, Filter{}); err != nil || n != 1 {
					t.Errorf("writer %d counts %d families, %v; want the 1 the other wrote", i, n, err)
				}
			}
			for _, n := range dirNames(t, filepath.Dir(path)) {
				if strings.Contains(n, creatingInfix) {
					t.Errorf("left %s", n)
				}
			}
		})
	}
}

// killHelperWhen runs this test binary's helper test with env added,
// and sends it SIGKILL as soon as ready says so; the test fails if the
// helper ends first.
func killHelperWhen(t *testing.T, helper string, env []string, ready func() bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() {
		cmd.Wait()
		close(ended)
	}()
	defer func() {
		cmd.Process.Kill()
		<-ended
	}()
	for !ready() {
		select {
		case <-ended:
			t.Fatal("the helper ended")
		case <-time.After(10 * time.Millisecond):
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
}
