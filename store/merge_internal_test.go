package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mergeBank writes a bank at dir/name of the families with the given
// forms (numbers, as testKeyCollisions makes them), each with the
// puzzles given for it, and closes it.
func mergeBank(t *testing.T, dir, name string, fams map[int][]int) string {
	t.Helper()
	g := func(n int) string { return strings.ReplaceAll(fmt.Sprintf("%081d", n), "0", ".") }
	path := filepath.Join(dir, name)
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var batch []NewFamily
	for canon, puzzles := range fams {
		f := NewFamily{Family: Family{Canon: g(canon), ER: 30, Level: 2, Givens: 25, Source: "gen"}}
		for _, p := range puzzles {
			f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: g(p), Solution: g(999)})
		}
		batch = append(batch, f)
	}
	if _, err := db.WriteBatch(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// bankCounts returns the bank's families, puzzles and runs.
func bankCounts(t *testing.T, db *DB) [3]int {
	t.Helper()
	var c [3]int
	for i, table := range []string{"families", "puzzles", "runs"} {
		if err := db.db.Get(&c[i], "SELECT count(*) FROM "+table); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestMergeKeyCollisions makes every form and every string hash to one
// key: the shard's families and puzzles must take the free keys of
// their windows in the bank, and a form the bank holds stay out.
func TestMergeKeyCollisions(t *testing.T) {
	placeholderGrids(t)
	keyOf = func(string) int64 { return 42 }
	canonKey = func(string) int64 { return 42 }
	defer func() { keyOf, canonKey = SortKeyOf, SortKeyOf }()
	dir := t.TempDir()
	out := mergeBank(t, dir, "out.db", map[int][]int{1: {11, 12}, 2: {21}})
	shard := mergeBank(t, dir, "shard.db", map[int][]int{2: {21, 22}, 3: {31, 32}, 4: {41}})
	db, err := Open(context.Background(), out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Merge(context.Background(), shard, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Families != 2 || res.Puzzles != 3 || res.DupFamilies != 1 || res.DupPuzzles != 2 {
		t.Errorf("Merge = %+v, want 2 families and 3 puzzles added, 1 family and its 2 puzzles held", res)
	}
	if got := bankCounts(t, db); got != [3]int{4, 6, 1} {
		t.Errorf("families, puzzles, runs = %v, want [4 6 1]", got)
	}
	r, err := db.Check(context.Background(), true)
	if err != nil || !r.OK() {
		t.Errorf("check: %v %q", err, r.Problems)
	}
	if err := db.IntegrityCheck(context.Background()); err != nil {
		t.Error(err)
	}
}

// TestMergeFailureLeavesBank fails a merge just before its commit, as a
// kill would stop it: the bank must be as it was, with no run recorded,
// and the merge run again must add the shard.
func TestMergeFailureLeavesBank(t *testing.T) {
	placeholderGrids(t)
	dir := t.TempDir()
	out := mergeBank(t, dir, "out.db", map[int][]int{1: {11}})
	shard := mergeBank(t, dir, "shard.db", map[int][]int{2: {21, 22}, 3: {31}})
	db, err := Open(context.Background(), out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before := bankCounts(t, db)
	boom := errors.New("boom")
	mergeHook = func() error { return boom }
	_, err = db.Merge(context.Background(), shard, MergeOptions{})
	mergeHook = nil
	if !errors.Is(err, boom) {
		t.Fatalf("Merge = %v, want the hook's error", err)
	}
	if got := bankCounts(t, db); got != before {
		t.Errorf("after a failed merge the bank holds %v, want %v", got, before)
	}
	// A cancelled merge likewise.
	ctx, cancel := context.WithCancel(context.Background())
	mergeHook = func() error { cancel(); return ctx.Err() }
	_, err = db.Merge(ctx, shard, MergeOptions{})
	mergeHook = nil
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Merge = %v, want it cancelled", err)
	}
	if got := bankCounts(t, db); got != before {
		t.Errorf("after a cancelled merge the bank holds %v, want %v", got, before)
	}
	if _, err := db.Merge(context.Background(), shard, MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, want := bankCounts(t, db), [3]int{3, 4, 1}; got != want {
		t.Errorf("after the merge again the bank holds %v, want %v", got, want)
	}
}

// TestMergeMigratesOldShard merges a bank the schema-5 code wrote: it is
// migrated in place first, and its families arrive with their counts.
func TestMergeMigratesOldShard(t *testing.T) {
	placeholderGrids(t)
	ctx := context.Background()
	dump, err := os.ReadFile("testdata/schema5.sql")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shard := filepath.Join(dir, "old.db")
	raw, err := sql.Open("sqlite", shard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, string(dump)); err != nil {
		t.Fatal(err)
	}
	var fams int
	if err := raw.QueryRowContext(ctx, "SELECT count(*) FROM families").Scan(&fams); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err := Open(ctx, filepath.Join(dir, "out.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Merge(ctx, shard, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Families != int64(fams) || len(res.ShardRuns) == 0 {
		t.Errorf("Merge = %+v, want the old bank's %d families and its runs", res, fams)
	}
	// The fixture's synthetic solutions fail the full check's puzzle
	// tests; the counters are what a merge could get wrong.
	r, err := db.Check(ctx, true)
	if err != nil || !r.OK() {
		t.Errorf("check: %v %q", err, r.Problems)
	}
	checkTechniqueCounts(t, db, "after merging a migrated bank")
}

// puzzleRows returns the bank's puzzle rows as text, in ID order.
func puzzleRows(t *testing.T, db *DB) []string {
	t.Helper()
	var rows []string
	if err := db.db.Select(&rows, `SELECT printf('%d %d %d %d %d %s %s', id, family_id, size, level, sort_key,
		hex(puzzle), hex(solution)) FROM puzzles ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	return rows
}

// indexNames returns the names of the bank's live indexes of its own
// (not SQLite's) and of those it holds deferred.
func indexNames(t *testing.T, db *DB) (live, deferred []string) {
	t.Helper()
	if err := db.db.Select(&live, `SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`); err != nil {
		t.Fatal(err)
	}
	if err := db.db.Select(&deferred, `SELECT name FROM deferred_indexes ORDER BY name`); err != nil {
		t.Fatal(err)
	}
	return live, deferred
}

// TestMergeIntoEmptyBank merges a shard into a fresh bank opened for a
// bulk load, as bankgen merge opens it: the rows must arrive as the
// shard holds them, IDs included (the copy moves them whole), with every
// index filled by the copy and none left to build. A second shard's
// merge must defer the puzzles' secondary indexes again, and the close
// build them.
func TestMergeIntoEmptyBank(t *testing.T) {
	placeholderGrids(t)
	ctx := context.Background()
	dir := t.TempDir()
	fams := map[int][]int{}
	for f := range 6 {
		for p := range 5 {
			fams[100+f] = append(fams[100+f], 1000+f*10+p)
		}
	}
	shard := mergeBank(t, dir, "shard.db", fams)
	second := mergeBank(t, dir, "second.db", map[int][]int{7: {71, 72}, 8: {81}})
	s, err := Open(ctx, shard, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := puzzleRows(t, s)
	wantLive, _ := indexNames(t, s)
	s.Close()

	out := filepath.Join(dir, "out.db")
	db, err := Open(ctx, out, BulkOptions(out))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Merge(ctx, shard, MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := puzzleRows(t, db); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("puzzle rows after merging into an empty bank:\n%s\nwant the shard's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if live, deferred := indexNames(t, db); strings.Join(live, " ") != strings.Join(wantLive, " ") || len(deferred) > 0 {
		t.Errorf("indexes after the first merge: live %v, deferred %v; want live %v, none deferred", live, deferred, wantLive)
	}
	if _, err := db.Merge(ctx, second, MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, deferred := indexNames(t, db); strings.Join(deferred, " ") != "families_sample puzzles_bucket puzzles_er puzzles_family" {
		t.Errorf("deferred after the second merge: %v, want families_sample puzzles_bucket puzzles_er puzzles_family", deferred)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(ctx, out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if live, deferred := indexNames(t, db); strings.Join(live, " ") != strings.Join(wantLive, " ") || len(deferred) > 0 {
		t.Errorf("indexes after the close: live %v, deferred %v; want live %v, none deferred", live, deferred, wantLive)
	}
	if got := bankCounts(t, db); got != [3]int{8, 33, 2} {
		t.Errorf("families, puzzles, runs = %v, want [8 33 2]", got)
	}
	r, err := db.Check(ctx, true)
	if err != nil || !r.OK() {
		t.Errorf("check: %v %q", err, r.Problems)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestMergeCheckpointsBeside merges a shard into a bank and waits for the
// checkpoint the merge starts on another connection: the bank's file
// alone, without its WAL, must then hold the merged rows, with the writer
// still open and no automatic checkpoint due (the WAL is far below its
// threshold); the close must leave no WAL.
func TestMergeCheckpointsBeside(t *testing.T) {
	placeholderGrids(t)
	ctx := context.Background()
	dir := t.TempDir()
	out := mergeBank(t, dir, "out.db", map[int][]int{1: {11}})
	shard := mergeBank(t, dir, "shard.db", map[int][]int{2: {21, 22}, 3: {31}})
	db, err := Open(ctx, out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Merge(ctx, shard, MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	if db.ckpt == nil {
		t.Fatal("the merge started no checkpoint")
	}
	db.ckpt.wait()
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "alone.db")
	if err := os.WriteFile(alone, file, 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := sql.Open("sqlite", alone)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var n int
	if err := x.QueryRow("SELECT count(*) FROM families").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("the bank's file without its WAL holds %d families after the checkpoint, want 3", n)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out + "-wal"); !os.IsNotExist(err) {
		t.Errorf("Stat(%s-wal) after the close = %v, want no file", out, err)
	}
}

// placeholderGrids turns off a merge's check of its shard's rows for the
// rest of the test, whose shards hold placeholder grids (not sudoku),
// which that check refuses.
func placeholderGrids(tb testing.TB) {
	old := rowCheck
	rowCheck = false
	tb.Cleanup(func() { rowCheck = old })
}

// corruptErr is SQLite's SQLITE_CORRUPT as the driver returns it.
type corruptErr struct{}

func (corruptErr) Error() string { return "database disk image is malformed (11)" }
func (corruptErr) Code() int     { return 11 }

// damageFile overwrites half of the first page of the puzzles table of
// the bank at path, behind SQLite's back, as a bad disk might.
func damageFile(t *testing.T, path string) {
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

// TestMergeBlamesDamage meets SQLITE_CORRUPT inside a merge's
// transaction, which reads the bank and the shard, both checked before:
// the error names the file whose quick check then finds damage, and
// where neither's does, both, each with the check to run.
func TestMergeBlamesDamage(t *testing.T) {
	placeholderGrids(t)
	for _, tt := range []struct {
		name   string
		damage string // "shard", "out" or neither
	}{{"Shard", "shard"}, {"Out", "out"}, {"Neither", ""}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := mergeBank(t, dir, "out.db", map[int][]int{1: {11}})
			shard := mergeBank(t, dir, "shard.db", map[int][]int{2: {21, 22}, 3: {31}})
			db, err := Open(context.Background(), out, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			mergeHook = func() error {
				switch tt.damage {
				case "shard":
					damageFile(t, shard)
				case "out":
					damageFile(t, out)
				}
				return fmt.Errorf("copy the puzzles: %w", corruptErr{})
			}
			_, err = db.Merge(context.Background(), shard, MergeOptions{})
			mergeHook = nil
			var d *DamagedError
			switch tt.damage {
			case "shard", "out":
				want := map[string]string{"shard": shard, "out": out}[tt.damage]
				if !errors.As(err, &d) || d.Path != want {
					t.Errorf("Merge = %v, want a DamagedError of %s", err, want)
				}
			default:
				if !errors.Is(err, ErrDamaged) || errors.As(err, &d) || !strings.Contains(err.Error(), "bankquery check -db "+out) ||
					!strings.Contains(err.Error(), "bankquery check -db "+shard) {
					t.Errorf("Merge = %v, want ErrDamaged naming both files and their checks", err)
				}
			}
		})
	}
}
