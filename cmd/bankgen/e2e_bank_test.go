package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/internal/banktest"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

// MustOpen opens the bank at path for reading, closed when the test ends.
func MustOpen(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// canons returns the bank's canonical forms, sorted.
func canons(tb testing.TB, path string) []string {
	tb.Helper()
	var cs []string
	if err := MustOpen(tb, path).ForEachCanon(context.Background(), func(c string) error {
		cs = append(cs, c)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	slices.Sort(cs)
	return cs
}

// families returns the number of families in the bank, 0 when it cannot
// be read yet.
func families(path string) int {
	n, _ := countFamilies(path)
	return n
}

func countFamilies(path string) (int, error) {
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n, err := db.CountFamilies(context.Background(), store.Filter{})
	return int(n), err
}

// deferredIndexes returns the names of the indexes a bulk load deferred
// and left for the next writer to build.
func deferredIndexes(tb testing.TB, path string) []string {
	tb.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT name FROM deferred_indexes ORDER BY name")
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			tb.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return names
}

// runs returns the bank's runs.
func runs(tb testing.TB, path string) []store.Run {
	tb.Helper()
	rs, err := MustOpen(tb, path).Runs(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return rs
}

// mustSucceed fails the test unless r exited 0.
func mustSucceed(tb testing.TB, r result) {
	tb.Helper()
	if r.code != 0 {
		tb.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestSmallBuild(t *testing.T) {
	dir := t.TempDir()
	r := bankgen(t, dir, "-db", "b.db", "-count", "40", "-seed", "7", "-variants", "3", "-quiet")
	mustSucceed(t, r)
	db := filepath.Join(dir, "b.db")
	if got, want := families(db), 40; got != want {
		t.Errorf("families = %d, want %d", got, want)
	}
	if !strings.Contains(r.stdout, "40 families and 120 variants") || !strings.Contains(r.stdout, "seed 7") {
		t.Errorf("summary does not give the counts and seed:\n%s", r.stdout)
	}
	rs := runs(t, db)
	if len(rs) != 1 || rs[0].Seed != 7 || rs[0].Status != store.RunCompleted || rs[0].Families != 40 || rs[0].Puzzles != 160 {
		t.Errorf("runs = %+v, want one completed run of seed 7 with 40 families and 160 puzzles", rs)
	}
}

func TestSameSeedSameFamilies(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "w1.db", "-count", "60", "-seed", "11", "-workers", "1", "-quiet"))
	mustSucceed(t, bankgen(t, dir, "-db", "w2.db", "-count", "60", "-seed", "11", "-workers", "2", "-quiet"))
	mustSucceed(t, bankgen(t, dir, "-db", "w3.db", "-count", "60", "-seed", "11", "-workers", "3", "-quiet"))
	w1 := canons(t, filepath.Join(dir, "w1.db"))
	if len(w1) != 60 {
		t.Fatalf("%d families, want 60", len(w1))
	}
	g1 := graded(t, filepath.Join(dir, "w1.db"))
	for _, name := range []string{"w2.db", "w3.db"} {
		if got := canons(t, filepath.Join(dir, name)); !slices.Equal(got, w1) {
			t.Errorf("%s: other families than with -workers 1", name)
		}
		if got := graded(t, filepath.Join(dir, name)); !slices.Equal(got, g1) {
			t.Errorf("%s: other puzzles or grades than with -workers 1", name)
		}
	}
}

// bankRows returns every puzzle row of the bank at path.
func bankRows(tb testing.TB, path string) []store.Row {
	tb.Helper()
	var rs []store.Row
	err := MustOpen(tb, path).Query(context.Background(), store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		rs = append(rs, r)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return rs
}

// graded returns the bank's puzzles with their level and ratings, sorted.
func graded(tb testing.TB, path string) []string {
	tb.Helper()
	var ps []string
	for _, r := range bankRows(tb, path) {
		ps = append(ps, fmt.Sprintf("%s %d %d %d %d %s", r.Puzzle, r.Level, r.ER, r.EP, r.ED, r.Hardest))
	}
	slices.Sort(ps)
	return ps
}

func TestLevelFilter(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "10", "-level", "easy,1", "-seed", "3", "-quiet"))
	n, err := MustOpen(t, filepath.Join(dir, "b.db")).CountFamilies(context.Background(), store.Filter{Levels: []int{3, 4, 5}})
	if err != nil || n != 0 {
		t.Errorf("%d families of levels 3-5 (err %v), want none", n, err)
	}
}

func TestRerunSkipsDuplicates(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "30", "-seed", "5", "-quiet"))
	first := canons(t, filepath.Join(dir, "b.db"))
	r := bankgen(t, dir, "-db", "b.db", "-count", "30", "-seed", "5", "-quiet")
	mustSucceed(t, r)
	all := canons(t, filepath.Join(dir, "b.db"))
	if len(all) != 60 {
		t.Errorf("%d families after two runs of 30 with one seed, want 60", len(all))
	}
	if !strings.Contains(r.stdout, "30 duplicates") {
		t.Errorf("second run does not report the 30 families it skipped:\n%s", r.stdout)
	}
	for _, c := range first {
		if _, ok := slices.BinarySearch(all, c); !ok {
			t.Fatalf("family %s lost", c)
		}
	}
}

// startBankgen starts the binary without waiting.
func startBankgen(t *testing.T, dir string, args ...string) (*exec.Cmd, *syncBuffer, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, &out, &errb
}

// runTogether starts bankgen with a and with b in dir at once, waits
// for both, fails the test unless both exit 0, and returns their
// standard outputs.
func runTogether(t *testing.T, dir string, a, b []string) [2]string {
	t.Helper()
	ca, outA, errA := startBankgen(t, dir, a...)
	cb, outB, errB := startBankgen(t, dir, b...)
	for _, c := range []struct {
		cmd       *exec.Cmd
		out, errb *syncBuffer
	}{{ca, outA, errA}, {cb, outB, errB}} {
		if code := exitCodeOf(t, c.cmd); code != 0 {
			t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, c.out, c.errb)
		}
	}
	return [2]string{outA.String(), outB.String()}
}

// waitFamilies waits until the bank at path has at least n families.
func waitFamilies(t *testing.T, stderr *syncBuffer, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got, err := countFamilies(path)
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bank never reached %d families (has %d, %v); stderr:\n%s", n, got, err, stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// syncBuffer is a buffer a running process writes while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func exitCodeOf(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

func TestInterruptThenResumeToQuota(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	args := []string{"-db", "b.db", "-quota", "extremely-easy=6000", "-variants", "20", "-quiet"}
	// 126,000 puzzle rows take the single writer seconds even on an idle
	// machine, so the interrupt comes in the middle: when the first batch
	// (50,000 puzzles) is committed, the writer's queue and the next
	// batch hold fewer than 4,000 more families.
	cmd, out, errb := startBankgen(t, dir, args...)
	waitFamilies(t, errb, db, 1)
	cmd.Process.Signal(os.Interrupt)
	if code := exitCodeOf(t, cmd); code != 130 {
		t.Fatalf("exit code %d after SIGINT, want 130\nstdout:\n%s\nstderr:\n%s", code, out, errb)
	}
	rs := runs(t, db)
	if len(rs) != 1 || rs[0].Status != store.RunInterrupted {
		t.Fatalf("runs = %+v, want one interrupted", rs)
	}
	got := families(db)
	if got == 0 || got >= 6000 || int64(got) != rs[0].Families {
		t.Errorf("%d families after the interrupt, run records %d; want some, not all", got, rs[0].Families)
	}
	mustSucceed(t, bankgen(t, dir, args...))
	counts, err := MustOpen(t, db).LevelCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if counts[1] != 6000 || counts[2]+counts[3]+counts[4]+counts[5] != 0 {
		t.Errorf("level counts %v after resuming, want 6000 extremely-easy and nothing else", counts)
	}
	r := bankgen(t, dir, args...)
	mustSucceed(t, r)
	if !strings.Contains(r.stdout, " 0 families and 0 variants") {
		t.Errorf("a third run with the quota met did something:\n%s", r.stdout)
	}
}

func TestKillThenResume(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	cmd, _, errb := startBankgen(t, dir, "-db", "b.db", "-count", "1000000", "-variants", "5", "-quiet")
	waitFamilies(t, errb, db, 200)
	cmd.Process.Signal(syscall.SIGKILL)
	if code := exitCodeOf(t, cmd); code != -1 {
		t.Fatalf("exit code %d, want -1 (killed)", code)
	}
	// The run was a fresh bank's bulk load: its key index too was
	// deferred, its duplicate check in memory. The next writer builds the
	// index, and finds the dead run's puzzles through it.
	if got := deferredIndexes(t, db); !slices.Contains(got, "puzzles_key") {
		t.Errorf("indexes the killed run deferred = %v, want puzzles_key among them", got)
	}
	b, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.IntegrityCheck(context.Background()); err != nil {
		t.Fatal(err)
	}
	var stored []store.Row
	err = b.Query(context.Background(), store.Filter{}, store.QueryOptions{Order: store.OrderRandom, Limit: 3, Seed: 1}, func(r store.Row) error {
		stored = append(stored, r)
		return nil
	})
	if err != nil || len(stored) == 0 {
		t.Fatalf("random sample after the kill: %d rows, %v", len(stored), err)
	}
	for _, r := range stored {
		if got, err := b.PuzzleByString(context.Background(), r.Puzzle); err != nil || got.ID != r.ID {
			t.Errorf("PuzzleByString(%s) = %d, %v; want %d", r.Puzzle, got.ID, err, r.ID)
		}
	}
	b.Close()
	if got := deferredIndexes(t, db); len(got) != 0 {
		t.Errorf("indexes still deferred after the next writer opened the bank: %v", got)
	}
	before := families(db)
	if rs := runs(t, db); len(rs) != 1 || rs[0].Status != store.RunRunning {
		t.Fatalf("runs after the kill = %+v, want one left running", rs)
	}
	r := bankgen(t, dir, "-db", "b.db", "-count", "20", "-quiet")
	mustSucceed(t, r)
	if got, want := families(db), before+20; got != want {
		t.Errorf("%d families after resuming, want %d", got, want)
	}
	if !strings.Contains(r.stderr, "process that died") {
		t.Errorf("the resuming run does not log the dead run it ended:\n%s", r.stderr)
	}
	// The next run found the killed one dead and recorded it so, with
	// the counts it had committed.
	rs := runs(t, db)
	if len(rs) != 2 || rs[1].Status != store.RunCompleted {
		t.Fatalf("runs = %+v, want the killed one and a completed one", rs)
	}
	if k := rs[0]; k.Status != store.RunInterrupted || !strings.HasPrefix(k.Message, "killed") ||
		k.Families != int64(before) || k.Puzzles != 6*int64(before) {
		t.Errorf("killed run = %+v, want interrupted (killed) with %d families and %d puzzles", k, before, 6*before)
	}
	if locks, _ := filepath.Glob(db + "-run*.lock"); len(locks) != 0 {
		t.Errorf("lock files left behind: %v", locks)
	}
}

func TestSecondInterruptQuits(t *testing.T) {
	dir := t.TempDir()
	cmd, _, errb := startBankgen(t, dir, "-db", "b.db", "-count", "1000000", "-quiet")
	waitFamilies(t, errb, filepath.Join(dir, "b.db"), 1)
	cmd.Process.Signal(os.Interrupt)
	// Two signals sent at once may arrive as one: the kernel keeps one
	// pending signal of a kind.
	time.Sleep(50 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	if code := exitCodeOf(t, cmd); code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
}

func TestImport(t *testing.T) {
	dir := t.TempDir()
	// Two puzzles with one solution each, from a small bank of this seed.
	mustSucceed(t, bankgen(t, dir, "-db", "src.db", "-count", "3", "-seed", "9", "-quiet"))
	good := puzzles(t, filepath.Join(dir, "src.db"))
	lines := []string{
		"# a comment", good[0], "", "not a puzzle",
		strings.Repeat(".", 81),                             // several solutions
		"11" + strings.Repeat(".", 79),                      // a repeated digit
		"12345678." + "........9" + strings.Repeat(".", 63), // no solution: row 1 needs its 9 in column 9, which has one
		good[1] + " 1.2 1.2 1.2 rated",
		good[0], // again: a duplicate puzzle
	}
	file := filepath.Join(dir, "in.txt")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	r := bankgen(t, dir, "import", "-db", "b.db", "-source", "test", "in.txt")
	mustSucceed(t, r)
	for _, want := range []string{"in.txt:4:", "in.txt:5: more than one solution", "in.txt:6: digit repeated", "in.txt:7: no solution"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not report %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "2 new families") {
		t.Errorf("summary:\n%s", r.stdout)
	}
	if got := families(filepath.Join(dir, "b.db")); got != 2 {
		t.Errorf("%d families, want 2", got)
	}
}

func TestImportTransformedCopiesAddNoFamilies(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "25", "-seed", "21", "-quiet"))
	db := filepath.Join(dir, "b.db")
	before := canons(t, db)
	// Every family, relabelled, rotated and reflected at random.
	f, err := os.Create(filepath.Join(dir, "copies.txt"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	rng := pipeline.Item{Seed: 1}.Rand()
	for _, c := range before {
		g := gen.RandomTransform(rng).Apply(solve.GridOf(c))
		fmt.Fprintln(w, g.String())
	}
	w.Flush()
	f.Close()
	r := bankgen(t, dir, "import", "-db", "b.db", "-source", "copies", "copies.txt")
	mustSucceed(t, r)
	if !strings.Contains(r.stdout, "0 new families, 25 families the bank had") {
		t.Errorf("summary:\n%s", r.stdout)
	}
	if got := canons(t, db); !slices.Equal(got, before) {
		t.Errorf("the import changed the families: %d before, %d after", len(before), len(got))
	}
	// And a generating run never adds a family an import brought.
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "25", "-seed", "21", "-quiet"))
	if got := len(canons(t, db)); got != 50 {
		t.Errorf("%d families, want 50", got)
	}
}

// TestSymmetry checks that every stored puzzle, variants included, has
// the symmetry its row names, and that the -symmetry filter returns only
// puzzles that have it: variants used to be transforms that broke it.
func TestSymmetry(t *testing.T) {
	tests := []struct {
		symmetry string
		want     []string // the names a row may give: rot90 implies rot180, and DetectSymmetry names the stronger
	}{
		{"rot180", []string{"rot180", "rot90"}},
		{"random", []string{"rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal"}},
	}
	for _, tt := range tests {
		t.Run(tt.symmetry, func(t *testing.T) {
			dir := t.TempDir()
			mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "15", "-symmetry", tt.symmetry, "-variants", "20", "-seed", "8", "-quiet"))
			db := MustOpen(t, filepath.Join(dir, "b.db"))
			n := 0
			err := db.Query(context.Background(), store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
				n++
				if !slices.Contains(tt.want, r.Symmetry) {
					t.Errorf("puzzle %d: symmetry %q, want one of %q", r.ID, r.Symmetry, tt.want)
				}
				if got := gen.DetectSymmetry(solve.GridOf(r.Puzzle)).String(); got != r.Symmetry {
					t.Errorf("puzzle %d %s: its row says %s, its givens have %s", r.ID, r.Puzzle, r.Symmetry, got)
				}
				return nil
			})
			if err != nil || n != 15*21 {
				t.Errorf("%d puzzles (err %v), want %d", n, err, 15*21)
			}
			for _, name := range tt.want {
				sym, err := gen.ParseSymmetry(name)
				if err != nil {
					t.Fatal(err)
				}
				err = db.Query(context.Background(), store.Filter{Symmetry: name}, store.QueryOptions{}, func(r store.Row) error {
					if !sym.Holds(solve.GridOf(r.Puzzle)) {
						t.Errorf("-symmetry %s returned puzzle %d %s, which has not", name, r.ID, r.Puzzle)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestGivensRange checks that a run with -givens stores only puzzles with
// that many givens, variants included, and that each row's minimal flag
// is true of its puzzle (a dig to a count is seldom minimal).
func TestGivensRange(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "30", "-level", "easy", "-givens", "30-38", "-variants", "2", "-seed", "4", "-quiet"))
	n := 0
	err := MustOpen(t, filepath.Join(dir, "b.db")).Query(context.Background(), store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		n++
		g, err := solve.Parse(r.Puzzle)
		if err != nil {
			return err
		}
		if got := g.Givens(); got < 30 || got > 38 || r.Givens != got {
			t.Errorf("puzzle %d: %d givens (row says %d), want 30-38", r.ID, got, r.Givens)
		}
		if r.Level != int(grade.Easy) {
			t.Errorf("puzzle %d: level %d, want easy", r.ID, r.Level)
		}
		if r.Minimal != gen.IsMinimal(g) {
			t.Errorf("puzzle %d: minimal %v, but IsMinimal says %v", r.ID, r.Minimal, !r.Minimal)
		}
		return nil
	})
	if err != nil || n != 90 {
		t.Errorf("%d puzzles (err %v), want 90", n, err)
	}
}

// TestGivensUnreachable checks that a level the givens cannot have ends
// the run with an error naming both, after a bounded number of tries
// rather than never.
func TestGivensUnreachable(t *testing.T) {
	dir := t.TempDir()
	r := bankgen(t, dir, "-db", "b.db", "-count", "5", "-level", "evil", "-givens", "50-60", "-seed", "1", "-quiet")
	if r.code != 1 {
		t.Errorf("exit code %d, want 1; stderr:\n%s", r.code, r.stderr)
	}
	if want := fmt.Sprintf("no evil family with 50-60 givens in %d tries", pipeline.GiveUpItems); !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q does not say %q", r.stderr, want)
	}
	if rs := runs(t, filepath.Join(dir, "b.db")); len(rs) != 1 || rs[0].Status != store.RunFailed {
		t.Errorf("runs = %+v, want one failed run", rs)
	}
}

func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "20", "-seed", "4", "-quiet", "-cpuprofile", "cpu.prof"))
	fi, err := os.Stat(filepath.Join(dir, "cpu.prof"))
	if err != nil || fi.Size() == 0 {
		t.Errorf("no CPU profile written (%v)", err)
	}
}

func TestMemProfile(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "20", "-seed", "4", "-quiet", "-memprofile", "mem.prof"))
	fi, err := os.Stat(filepath.Join(dir, "mem.prof"))
	if err != nil || fi.Size() == 0 {
		t.Errorf("no memory profile written (%v)", err)
	}
	if r := bankgen(t, dir, "-db", "c.db", "-count", "1", "-quiet", "-memprofile", filepath.Join(dir, "no", "such", "dir", "m.prof")); r.code != 1 {
		t.Errorf("a memory profile that cannot be created: exit status %d, want 1", r.code)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.db")); err == nil {
		t.Errorf("a bad -memprofile path left a bank behind")
	}
}

// A run that starts while another runs leaves the other alone: only a
// run whose process died is recorded as killed.
func TestConcurrentRunIsNotKilled(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	cmd, out, errb := startBankgen(t, dir, "-db", "b.db", "-count", "1000000", "-quiet")
	waitFamilies(t, errb, db, 1)
	r := bankgen(t, dir, "-db", "b.db", "-count", "10", "-quiet")
	mustSucceed(t, r)
	if strings.Contains(r.stderr, "died") {
		t.Errorf("the second run took the first for dead:\n%s", r.stderr)
	}
	rs := runs(t, db)
	if len(rs) != 2 || rs[0].Status != store.RunRunning || rs[1].Status != store.RunCompleted {
		t.Fatalf("runs = %+v, want the first running and the second completed", rs)
	}
	cmd.Process.Signal(os.Interrupt)
	if code := exitCodeOf(t, cmd); code != 130 {
		t.Fatalf("exit code %d after SIGINT, want 130\nstdout:\n%s\nstderr:\n%s", code, out, errb)
	}
	if rs := runs(t, db); rs[0].Status != store.RunInterrupted || strings.HasPrefix(rs[0].Message, "killed") {
		t.Errorf("first run = %+v, want interrupted by the signal", rs[0])
	}
}

// TestGCPolicy checks that bankgen collects less often than Go's default
// unless GOGC is set, which wins: the same run, with the GC's trace on,
// counts its collections both ways.
func TestGCPolicy(t *testing.T) {
	cycles := func(env ...string) int {
		t.Helper()
		dir := t.TempDir()
		cmd := exec.Command(bin, "-db", "b.db", "-count", "5000", "-seed", "7", "-quiet")
		cmd.Dir = dir
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GODEBUG=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, append(env, "GODEBUG=gctrace=1")...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("bankgen %v: %v\n%s", env, err, errb.String())
		}
		n := 0
		for _, line := range strings.Split(errb.String(), "\n") {
			if strings.HasPrefix(line, "gc ") {
				n++
			}
		}
		return n
	}
	def, tuned := cycles("GOGC=100"), cycles()
	if tuned == 0 || def < 2*tuned {
		t.Errorf("%d collections with bankgen's policy, %d with GOGC=100; want fewer than half", tuned, def)
	}
}

// summaryFamilies reads the families a generating run's summary counts,
// one ("1 family and ...") or more.
var summaryFamilies = regexp.MustCompile(`^bankgen: done: (\d+) famil(?:y|ies) and \d+ variants? `)

// TestOverlappingQuotaRuns starts two quota runs on one missing bank at
// once, as overlapping cron runs would: both create the bank, one of them
// wins, and together they stop exactly on the quota, each summary
// counting only what its own run committed.
func TestOverlappingQuotaRuns(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	args := func(seed string) []string {
		return []string{"-db", "b.db", "-quota", "easy=300,evil=20", "-seed", seed, "-workers", "1", "-quiet"}
	}
	outs := runTogether(t, dir, args("1"), args("2"))
	counts, err := MustOpen(t, db).LevelCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := [6]int64{0, 0, 300, 0, 0, 20}; counts != want {
		t.Errorf("the bank holds %v families per level, want the quota %v", counts, want)
	}
	total := 0
	for _, out := range outs {
		m := summaryFamilies.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("summary %q: no count of families", out)
		}
		n, _ := strconv.Atoi(m[1])
		total += n
	}
	if total != 320 {
		t.Errorf("the summaries count %d families in all, the bank gained 320:\n%s\n%s", total, outs[0], outs[1])
	}
}

// TestRefuseDamagedBank damages a page the run would not touch, half of
// the first page of the puzzles table, in a bank an earlier run made: the
// next run must refuse the bank, unchanged, rather than add to it.
func TestRefuseDamagedBank(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "30", "-seed", "1", "-quiet"))
	banktest.DamagePage(t, db)
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-db", "b.db", "-count", "5", "-quiet"}, {"import", "-db", "b.db", "-quiet", "-"}} {
		r := bankgen(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "damaged") {
			t.Errorf("bankgen %q on a damaged bank: exit %d, stderr %q; want 1 and the bank called damaged", args, r.code, r.stderr)
		}
	}
	if after, err := os.ReadFile(db); err != nil || string(after) != string(before) {
		t.Errorf("a refused run changed the bank (%v)", err)
	}
}

// TestOverlappingImports imports one file twice at once into one bank:
// the summaries' new families must add up to what the bank gained, not
// each claim the whole file.
func TestOverlappingImports(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "src.db", "-count", "400", "-seed", "9", "-quiet"))
	lines := puzzles(t, filepath.Join(dir, "src.db"))
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The bank exists first, so that both runs find it: the race under
	// test is in the writing, not the creating.
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "0", "-quiet"))
	args := []string{"import", "-db", "b.db", "-workers", "1", "-quiet", "in.txt"}
	outs := runTogether(t, dir, args, args)
	total := 0
	for _, out := range outs {
		var read, puzzles, refused, n int
		var file, took string
		if _, err := fmt.Sscanf(out, "bankgen import: done: %d records read from %s in %s %d puzzles, %d refused\n  puzzles: %d new famil", &read, &file, &took, &puzzles, &refused, &n); err != nil {
			t.Fatalf("summary %q: %v", out, err)
		}
		total += n
	}
	if got := families(filepath.Join(dir, "b.db")); total != got {
		t.Errorf("the summaries count %d new families, the bank gained %d:\n%s\n%s", total, got, outs[0], outs[1])
	}
}
