package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mustMergeNew checks shard and makes the bank at out of it (MergeNew),
// then closes it and returns its families, puzzles and runs.
func mustMergeNew(t *testing.T, out, shard string) [3]int {
	t.Helper()
	ctx := context.Background()
	s, err := CheckShard(ctx, shard, false)
	if err != nil {
		t.Fatal(err)
	}
	db, _, err := MergeNew(ctx, out, s, BulkOptions(out), MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustCheck(t, db, true)
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	return bankCounts(t, db)
}

// TestMergeNewFailureLeavesNoBank fails MergeNew just before it commits
// the merge into its copy of the shard, and cancels it there and before
// it starts: none may leave a bank, or anything else, at or beside the
// bank's path, and MergeNew run again must make the bank.
func TestMergeNewFailureLeavesNoBank(t *testing.T) {
	placeholderGrids(t)
	dir := t.TempDir()
	shard := mergeBank(t, dir, "shard.db", map[int][]int{2: {21, 22}, 3: {31}})
	out := filepath.Join(dir, "out.db")
	before := dirNames(t, dir)
	boom := errors.New("boom")
	ctx, cancel := context.WithCancel(context.Background())
	done, stop := context.WithCancel(context.Background())
	stop()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		hook func() error
		want error
	}{
		{"Failed", context.Background(), func() error { return boom }, boom},
		{"Cancelled", ctx, func() error { cancel(); return ctx.Err() }, context.Canceled},
		{"CancelledFirst", done, nil, context.Canceled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := CheckShard(context.Background(), shard, false)
			if err != nil {
				t.Fatal(err)
			}
			mergeHook = tt.hook
			db, _, err := MergeNew(tt.ctx, out, s, BulkOptions(out), MergeOptions{})
			mergeHook = nil
			if !errors.Is(err, tt.want) {
				if db != nil {
					db.Close()
				}
				t.Fatalf("MergeNew = %v, want %v", err, tt.want)
			}
			if got := dirNames(t, dir); !slices.Equal(got, before) {
				t.Errorf("after a failed MergeNew the directory holds %q, want %q", got, before)
			}
		})
	}
	if got, want := mustMergeNew(t, out, shard), [3]int{2, 3, 1}; got != want {
		t.Errorf("families, puzzles, runs = %v, want %v", got, want)
	}
}

// slowMergeNewEnv names the bank TestSlowMergeNewHelper makes, and
// slowMergeShardEnv the shard it makes it of.
const (
	slowMergeNewEnv   = "SUDOKUBANK_TEST_SLOW_MERGE_NEW"
	slowMergeShardEnv = "SUDOKUBANK_TEST_SLOW_MERGE_SHARD"
)

// TestSlowMergeNewHelper is the process TestMergeNewKilledLeavesNoBank
// kills: it makes a bank with MergeNew whose commit never comes, once
// the shard's pages are copied, after making the file out+".copied".
func TestSlowMergeNewHelper(t *testing.T) {
	placeholderGrids(t)
	out, shard := os.Getenv(slowMergeNewEnv), os.Getenv(slowMergeShardEnv)
	if out == "" {
		t.Skip("run by TestMergeNewKilledLeavesNoBank")
	}
	s, err := CheckShard(context.Background(), shard, false)
	if err != nil {
		t.Fatal(err)
	}
	mergeHook = func() error {
		if err := os.WriteFile(out+".copied", nil, 0o644); err != nil {
			return err
		}
		select {}
	}
	MergeNew(context.Background(), out, s, BulkOptions(out), MergeOptions{})
	t.Fatal("the merge ended")
}

// TestMergeNewKilledLeavesNoBank kills a process while MergeNew makes a
// bank of a shard, the pages copied and the merge not committed: nothing
// may be at the bank's path, and MergeNew run again makes the bank and
// removes what the dead process left.
func TestMergeNewKilledLeavesNoBank(t *testing.T) {
	placeholderGrids(t)
	if !runLocksWork {
		t.Skip("no file locks to tell a dead creator's file from a live one")
	}
	dir := t.TempDir()
	shard := mergeBank(t, dir, "shard.db", map[int][]int{2: {21, 22}, 3: {31}, 4: {41}})
	before := dirNames(t, dir)
	out := filepath.Join(dir, "out.db")
	killHelperWhen(t, "TestSlowMergeNewHelper", []string{slowMergeNewEnv + "=" + out, slowMergeShardEnv + "=" + shard}, func() bool {
		_, err := os.Stat(out + ".copied")
		return err == nil
	})
	os.Remove(out + ".copied")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("after a kill during MergeNew, Stat(%s) = %v, want no file", out, err)
	}
	if left := dirNames(t, dir); len(left) == len(before) {
		t.Fatal("the killed merge left nothing: the test did not kill it while merging")
	}
	if got, want := mustMergeNew(t, out, shard), [3]int{3, 4, 1}; got != want {
		t.Errorf("families, puzzles, runs = %v, want %v", got, want)
	}
	// What the dead process left is gone; the new bank's own files stay.
	want := append(slices.Clone(before), "out.db")
	slices.Sort(want)
	if left := dirNames(t, dir); !slices.Equal(left, want) {
		t.Errorf("after MergeNew again the directory holds %q, want %q and out.db", left, before)
	}
}

// TestMergeNewOtherPageSize makes a bank of a shard whose pages are not
// of a new bank's size, as banks made before pageSize are: its rows are
// copied into a new bank's pages, not its pages into the bank.
func TestMergeNewOtherPageSize(t *testing.T) {
	placeholderGrids(t)
	ctx := context.Background()
	dir := t.TempDir()
	shard := filepath.Join(dir, "shard.db")
	raw, err := sql.Open("sqlite", shard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, "PRAGMA page_size = 4096; VACUUM"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	fams := map[int][]int{2: {21, 22}, 3: {31}}
	mergeBank(t, dir, "shard.db", fams)
	out := filepath.Join(dir, "out.db")
	if got, want := mustMergeNew(t, out, shard), [3]int{2, 3, 1}; got != want {
		t.Errorf("families, puzzles, runs = %v, want %v", got, want)
	}
	for path, want := range map[string]int{shard: 4096, out: pageSize} {
		db, err := OpenReadOnly(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		var size int
		if err := db.db.Get(&size, "PRAGMA page_size"); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if size != want {
			t.Errorf("%s: page size %d, want %d", filepath.Base(path), size, want)
		}
	}
}

// damagePage overwrites half of the first page of the puzzles table in
// the closed bank at path, as a bad disk might: a page nothing reads but
// a scan of the table, and the quick check.
func damagePage(t *testing.T, path string) {
	t.Helper()
	x, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var root, size int64
	if err := x.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = 'puzzles'").Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := x.QueryRow("PRAGMA page_size").Scan(&size); err != nil {
		t.Fatal(err)
	}
	x.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte(strings.Repeat("\xab", int(size/2))), (root-1)*size+size/2); err != nil {
		t.Fatal(err)
	}
}

// TestMergeDamagedPreparedShard merges a damaged shard that PrepareShard
// let through, its quick check owed: MergeNew copies its pages while the
// check runs, then refuses it as damaged and leaves no bank and no
// temporary file; MergeShard refuses it before it changes the bank.
func TestMergeDamagedPreparedShard(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	shard := mergeBank(t, dir, "shard.db", map[int][]int{2: {21, 22}, 3: {31}})
	damagePage(t, shard)
	before := dirNames(t, dir)
	out := filepath.Join(dir, "out.db")

	s, err := PrepareShard(ctx, shard, false)
	if err != nil {
		t.Fatalf("PrepareShard of a shard damaged where only its check reads: %v", err)
	}
	copied := false
	mergeHook = func() error { copied = true; return nil }
	db, _, err := MergeNew(ctx, out, s, BulkOptions(out), MergeOptions{})
	mergeHook = nil
	if db != nil {
		db.Close()
	}
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("MergeNew of a damaged shard = %v, want ErrDamaged", err)
	}
	if !copied {
		t.Error("MergeNew did not copy the shard while it checked it")
	}
	if got := dirNames(t, dir); !slices.Equal(got, before) {
		t.Errorf("after MergeNew of a damaged shard the directory holds %q, want %q", got, before)
	}

	into := mergeBank(t, dir, "into.db", map[int][]int{5: {51}})
	db, err = Open(ctx, into, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err = PrepareShard(ctx, shard, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeShard(ctx, s, MergeOptions{}); !errors.Is(err, ErrDamaged) {
		t.Fatalf("MergeShard of a damaged shard = %v, want ErrDamaged", err)
	}
	if got, want := bankCounts(t, db), [3]int{1, 1, 0}; got != want {
		t.Errorf("after MergeShard of a damaged shard, families, puzzles, runs = %v, want %v", got, want)
	}
}
