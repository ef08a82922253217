package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/internal/banktest"
	"sudokubank/store"
)

// TestBoundsExit2 gives values no run should take: each exits 2 with a
// message naming the flag, and no bank is made.
func TestBoundsExit2(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(strings.Repeat(".", 81)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := "odd\x1bname.txt"
	if err := os.WriteFile(filepath.Join(dir, bad), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"Workers", []string{"-workers", "100000", "-count", "1"}, "flag -workers: want 1 to "},
		{"ImportWorkers", []string{"import", "-workers", "100000", "in.txt"}, "flag -workers: want 1 to "},
		{"ImportZeroWorkers", []string{"import", "-workers", "0", "in.txt"}, "flag -workers: want 1 to "},
		{"SourceNewline", []string{"import", "-source", "top\n1465", "in.txt"}, "-source"},
		{"SourceOverride", []string{"import", "-source", "forum\u202Emurof", "in.txt"}, "-source"},
		{"SourceTooLong", []string{"import", "-source", strings.Repeat("s", store.MaxNameLen+1), "in.txt"}, "-source"},
		{"SourceFromFileName", []string{"import", bad}, "name the source with -source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-db", "b.db"}, tt.args...)
			if tt.args[0] == "import" {
				args = append([]string{"import", "-db", "b.db"}, tt.args[1:]...)
			}
			r := bankgen(t, dir, args...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit code %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "b.db")); err == nil {
		t.Error("a refused run made the bank")
	}
}

// TestFailedRunSaysFailed makes every write of families fail, as a full
// disk does: the summary says the run failed, never "done", the reason
// follows once on stderr, the exit status is 1, and the bank records the
// run as failed with the reason.
func TestFailedRunSaysFailed(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "2", "-seed", "1", "-quiet"))
	banktest.MustExec(t, db, `CREATE TRIGGER full BEFORE INSERT ON families BEGIN SELECT RAISE(FAIL, 'simulated: the disk is full'); END`)
	for _, args := range [][]string{
		{"-db", "b.db", "-count", "5", "-seed", "2", "-quiet"},
		{"import", "-db", "b.db", "-quiet", "in.txt"},
	} {
		if args[0] == "import" {
			// Families the first run did not make: the import must write.
			if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(importable(t)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := bankgen(t, dir, args...)
		if r.code != 1 {
			t.Errorf("%q: exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, "done") || !strings.Contains(r.stdout, ": failed: ") {
			t.Errorf("%q: summary does not say failed:\n%s", args, r.stdout)
		}
		if got := strings.Count(r.stderr, "simulated: the disk is full"); got != 1 {
			t.Errorf("%q: stderr gives the reason %d times, want once:\n%s", args, got, r.stderr)
		}
	}
	rs := runs(t, db)
	for _, r := range rs[1:] {
		if r.Status != store.RunFailed || !strings.Contains(r.Message, "simulated: the disk is full") {
			t.Errorf("run %d recorded %q, %q; want failed with the reason", r.ID, r.Status, r.Message)
		}
	}
}

// TestFailureKeptWhenItsRecordFails makes both the run's writes and the
// record of its end fail: the next run must record it as failed, with the
// reason, and not as killed.
func TestFailureKeptWhenItsRecordFails(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "2", "-seed", "1", "-quiet"))
	banktest.MustExec(t, db, `CREATE TRIGGER full BEFORE INSERT ON families BEGIN SELECT RAISE(FAIL, 'simulated: the disk is full'); END;
		CREATE TRIGGER fullend BEFORE UPDATE OF status ON runs WHEN NEW.status = 'failed' BEGIN SELECT RAISE(FAIL, 'simulated: no room for the run'); END`)
	r := bankgen(t, dir, "-db", "b.db", "-count", "5", "-seed", "2", "-quiet")
	if r.code != 1 {
		t.Fatalf("exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	banktest.MustExec(t, db, `DROP TRIGGER full; DROP TRIGGER fullend`)
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "1", "-seed", "3", "-quiet"))
	rs := runs(t, db)
	if len(rs) != 3 {
		t.Fatalf("%d runs, want 3", len(rs))
	}
	if got := rs[1]; got.Status != store.RunFailed || !strings.Contains(got.Message, "simulated: the disk is full") {
		t.Errorf("run %d recorded %q, %q; want failed with the reason", got.ID, got.Status, got.Message)
	}
}

// importable returns a line of a puzzle with one solution, from a bank
// of its own.
func importable(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "src.db", "-count", "1", "-seed", "77", "-quiet"))
	c := canons(t, filepath.Join(dir, "src.db"))
	return c[0] + "\n"
}

// TestCPUProfileWriteFails writes the profiles to a device where every
// write fails: each run reports its profile and exits 1, as a memory
// profile that cannot be written always did.
func TestCPUProfileWriteFails(t *testing.T) {
	const full = "/dev/full"
	if _, err := os.Stat(full); err != nil {
		t.Skipf("no %s: %v", full, err)
	}
	for _, tt := range []struct{ flag, want string }{
		{"-cpuprofile", "cpu profile " + full},
		{"-memprofile", "memory profile " + full},
	} {
		t.Run(tt.flag, func(t *testing.T) {
			r := bankgen(t, t.TempDir(), "-db", "b.db", "-count", "2", "-seed", "4", "-quiet", tt.flag, full)
			if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit code %d, stderr %q; want 1 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
}

// TestImportSkipsLongLinesAndBOM imports a file that starts with a byte
// order mark and holds a line over 1 MiB: the first puzzle is read, the
// long line is reported and skipped, and the import goes on to the end.
func TestImportSkipsLongLinesAndBOM(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "src.db", "-count", "2", "-seed", "9", "-quiet"))
	c := canons(t, filepath.Join(dir, "src.db"))
	in := "\uFEFF" + c[0] + "\r\n" + strings.Repeat("7", 2<<20) + "\r\n" + c[1] + "\r\n"
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	r := bankgen(t, dir, "import", "-db", "b.db", "-quiet", "in.txt")
	mustSucceed(t, r)
	if !strings.Contains(r.stderr, "in.txt:2: line longer than 1 MiB") || strings.Contains(r.stderr, "in.txt:1:") {
		t.Errorf("stderr does not report line 2 alone:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, "2 new families") || !strings.Contains(r.stdout, "refused: 1 unparseable") {
		t.Errorf("summary:\n%s", r.stdout)
	}
	if got := families(filepath.Join(dir, "b.db")); got != 2 {
		t.Errorf("%d families, want 2", got)
	}
}

// TestReadOnlyBankNamed runs bankgen, an import and a merge into a bank
// that cannot be written: each exits 1 with a message that names the bank, as a
// builder with many banks needs to know which one.
func TestReadOnlyBankNamed(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-quiet", "-seed", "1", "-count", "3"))
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustReadOnly(t, filepath.Join(dir, "b.db"))
	mustSucceed(t, bankgen(t, dir, "-db", "s.db", "-quiet", "-seed", "3", "-count", "3"))
	for _, args := range [][]string{
		{"-db", "b.db", "-quiet", "-seed", "2", "-count", "3"},
		{"import", "-db", "b.db", "-quiet", "in.txt"},
		{"merge", "-db", "b.db", "s.db"},
	} {
		r := bankgen(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "b.db") {
			t.Errorf("bankgen %q: exit %d, stderr %q; want 1 and the bank named", args, r.code, r.stderr)
		}
	}
}

// mustReadOnly makes the file at path one this process cannot write:
// its mode does that unless the tests run as root, where chattr +i does
// (undone at the test's end); the test is skipped if neither can.
func mustReadOnly(tb testing.TB, path string) {
	tb.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(path, 0o444); err != nil {
			tb.Fatal(err)
		}
		return
	}
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		tb.Skipf("as root, and chattr +i fails: %v %s", err, out)
	}
	tb.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
}

// TestEmptyFileWarned: a 0-byte -db is where a new bank is made, as
// SQLite takes it for an empty database, but it may be a truncated bank:
// the run warns, naming it, and makes the bank; bankquery, which never
// makes banks, refuses the same empty file as no bank yet.
func TestEmptyFileWarned(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := bankgen(t, dir, "-db", "b.db", "-count", "1", "-seed", "1", "-quiet")
	want := "the bank file is empty (0 bytes): making a new bank in it"
	if r.code != 0 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "db=b.db") {
		t.Errorf("bankgen on an empty file: exit %d, stderr %q; want 0 and a warning %q naming b.db", r.code, r.stderr, want)
	}
	if n, err := countFamilies(filepath.Join(dir, "b.db")); err != nil || n != 1 {
		t.Errorf("the new bank holds %d families (%v), want 1", n, err)
	}
	// A bank made in a missing file has nothing to warn of.
	r = bankgen(t, dir, "-db", "new.db", "-count", "1", "-seed", "1", "-quiet")
	if r.code != 0 || strings.Contains(r.stderr, "empty") {
		t.Errorf("bankgen on a missing file: exit %d, stderr %q; want 0 and no warning", r.code, r.stderr)
	}
}

// TestNewBankSaid: every bankgen command that makes a new bank where
// there was no file says so once, naming it, so that a mistyped -db is
// noticed even by a run that adds nothing ("done: 0 families"); a run on
// a bank that exists says nothing of the kind. -count 0 still makes the
// bank.
func TestNewBankSaid(t *testing.T) {
	dir := t.TempDir()
	const said = `msg="made a new bank"`
	mustSucceed(t, bankgen(t, dir, "-db", "src.db", "-count", "2", "-seed", "3", "-quiet"))
	good := puzzles(t, filepath.Join(dir, "src.db"))
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(good[0]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"Generate", []string{"-db", "typo.db", "-count", "0"}},
		{"Import", []string{"import", "-db", "imp.db", "-source", "test", "-quiet", "in.txt"}},
		{"Merge", []string{"merge", "-db", "out.db", "src.db"}},
	} {
		db := tt.args[slices.Index(tt.args, "-db")+1]
		r := bankgen(t, dir, tt.args...)
		mustSucceed(t, r)
		if n := strings.Count(r.stderr, said); n != 1 || !strings.Contains(r.stderr, said+" db="+db) {
			t.Errorf("%s: a new bank: stderr %q; want %s db=%s once", tt.name, r.stderr, said, db)
		}
		if _, err := os.Stat(filepath.Join(dir, db)); err != nil {
			t.Errorf("%s: no bank made: %v", tt.name, err)
		}
		r = bankgen(t, dir, "-db", db, "-count", "0")
		mustSucceed(t, r)
		if strings.Contains(r.stderr, said) {
			t.Errorf("%s: a bank that exists: stderr %q; want nothing of a new bank", tt.name, r.stderr)
		}
	}
}

// withoutNewBank returns stderr without the line that says a new bank
// was made (TestNewBankSaid checks it), for a test of what else a run
// made a bank for says there.
func withoutNewBank(stderr string) string {
	var kept []string
	for _, line := range strings.SplitAfter(stderr, "\n") {
		if !strings.Contains(line, `msg="made a new bank"`) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "")
}
