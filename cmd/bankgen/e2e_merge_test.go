package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"sudokubank/internal/banktest"
	"sudokubank/store"
)

// TestShardsMergeToSingleRun is the property that makes shards
// trustworthy: for a seed and count whose single run meets no duplicate,
// the shards 0/4 .. 3/4 of the same job, merged, hold the same puzzles,
// grades and levels as the single run.
func TestShardsMergeToSingleRun(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"Seed5", []string{"-seed", "5", "-count", "41"}},
		{"Seed9Variants", []string{"-seed", "9", "-count", "30", "-variants", "2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := bankgen(t, dir, append([]string{"-db", "single.db", "-quiet"}, tt.args...)...)
			mustSucceed(t, r)
			if !strings.Contains(r.stdout, "skipped: 0 duplicates") {
				t.Fatalf("the single run met duplicates, so the property does not apply:\n%s", r.stdout)
			}
			merge := []string{"merge", "-db", "merged.db"}
			for i := range 4 {
				shard := "s" + string(rune('0'+i)) + ".db"
				mustSucceed(t, bankgen(t, dir, append([]string{"-db", shard, "-quiet", "-shard", string(rune('0'+i)) + "/4"}, tt.args...)...))
				merge = append(merge, shard)
			}
			mustSucceed(t, bankgen(t, dir, merge...))
			single, merged := filepath.Join(dir, "single.db"), filepath.Join(dir, "merged.db")
			if got, want := canons(t, merged), canons(t, single); !slices.Equal(got, want) {
				t.Errorf("merged shards: %d families, the single run %d; other forms", len(got), len(want))
			}
			if got, want := graded(t, merged), graded(t, single); !slices.Equal(got, want) {
				t.Error("merged shards: other puzzles, grades or levels than the single run")
			}
			rs := runs(t, merged)
			if len(rs) != 4 {
				t.Fatalf("%d runs, want one merge a shard", len(rs))
			}
			for i, r := range rs {
				if r.Kind != store.RunMerge || r.Status != store.RunCompleted || !strings.Contains(r.Message, `"-shard","`+string(rune('0'+i))+`/4"`) {
					t.Errorf("run %d = %+v, want a completed merge naming the shard's run and its -shard", r.ID, r)
				}
			}
			checkBank(t, merged)
		})
	}
}

// checkBank fails the test unless the whole check of the bank at path
// finds nothing wrong.
func checkBank(t *testing.T, path string) {
	t.Helper()
	r, err := MustOpen(t, path).Check(context.Background(), false)
	if err != nil || !r.OK() {
		t.Errorf("check %s: %v %q", path, err, r.Problems)
	}
}

// TestShardShares checks that the shards of a count add up to it, and
// that a shard records itself in its run.
func TestShardShares(t *testing.T) {
	dir := t.TempDir()
	total := 0
	for i := range 3 {
		db := "s" + string(rune('0'+i)) + ".db"
		r := bankgen(t, dir, "-db", db, "-quiet", "-seed", "3", "-count", "10", "-shard", string(rune('0'+i))+"/3")
		mustSucceed(t, r)
		if !strings.Contains(r.stdout, "shard "+string(rune('0'+i))+"/3") {
			t.Errorf("shard %d: the summary does not name the shard:\n%s", i, r.stdout)
		}
		n := families(filepath.Join(dir, db))
		if want := []int{4, 3, 3}[i]; n != want {
			t.Errorf("shard %d/3 of -count 10: %d families, want %d", i, n, want)
		}
		total += n
		if rs := runs(t, filepath.Join(dir, db)); len(rs) != 1 || !slices.Contains(rs[0].Args, string(rune('0'+i))+"/3") {
			t.Errorf("shard %d: runs %+v do not record the shard", i, rs)
		}
	}
	if total != 10 {
		t.Errorf("the shards made %d families, want the job's 10", total)
	}
}

func TestShardAndMergeBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"ShardNoSeed", []string{"-shard", "0/4"}, "-shard needs -seed"},
		{"ShardNotIN", []string{"-seed", "1", "-shard", "4"}, "is not I/N"},
		{"ShardPastN", []string{"-seed", "1", "-shard", "4/4"}, "I must be 0 to N-1"},
		{"ShardZero", []string{"-seed", "1", "-shard", "0/0"}, "N must be 1 or more"},
		{"MergeNoDB", []string{"merge", "a.db"}, "merge needs -db"},
		{"MergeNoShards", []string{"merge", "-db", "out.db"}, "one SHARD.db or more"},
		{"MergePacks", []string{"merge", "-db", "out.db", "-packs", "keep", "a.db"}, "want refuse or drop"},
		{"MergeFlagAfterShards", []string{"merge", "-db", "out.db", "a.db", "-packs", "drop"}, "flag -packs after the shard names"},
		{"MergeDBAfterShards", []string{"merge", "a.db", "-db", "out.db"}, "flag -db after the shard names"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := bankgen(t, dir, tt.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
}

func TestMergeRefusesShardWithPacks(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "s.db", "-quiet", "-seed", "2", "-count", "6"))
	db, err := store.Open(context.Background(), filepath.Join(dir, "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CreatePack(context.Background(), store.PackSpec{Name: "p"}, store.Filter{}, store.QueryOptions{}, 2); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	r := bankgen(t, dir, "merge", "-db", "out.db", "s.db")
	if r.code != 1 || !strings.Contains(r.stderr, "-packs drop") {
		t.Errorf("merge of a shard with packs: exit %d, stderr %q; want 1 and a word on -packs drop", r.code, r.stderr)
	}
	mustSucceed(t, bankgen(t, dir, "merge", "-db", "out.db", "-packs", "drop", "s.db"))
	if n := families(filepath.Join(dir, "out.db")); n != 6 {
		t.Errorf("%d families merged, want 6", n)
	}
}

// callOn is a writer that calls fn once, when what it is written first
// holds a word: a merge stopped between two shards, or the bank looked at
// when the summary is printed.
type callOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	word   string
	fn     func()
	called bool
}

func (c *callOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if !c.called && strings.Contains(c.buf.String(), c.word) {
		c.called = true
		c.fn()
	}
	return len(p), nil
}

// TestMergeStoppedThenRerun stops a merge after its first shard: the
// bank keeps that shard, the summary says which shards were merged and
// which not, and the same merge run again finishes the job.
func TestMergeStoppedThenRerun(t *testing.T) {
	dir := t.TempDir()
	var shards []string
	for i := range 3 {
		shard := filepath.Join(dir, "s"+string(rune('0'+i))+".db")
		mustSucceed(t, bankgen(t, dir, "-db", shard, "-quiet", "-seed", "4", "-count", "12", "-shard", string(rune('0'+i))+"/3"))
		shards = append(shards, shard)
	}
	out := filepath.Join(dir, "out.db")
	args := append([]string{"merge", "-db", out}, shards...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout := &callOn{word: "merged " + shards[0], fn: cancel}
	if err := Run(ctx, args, stdout, io.Discard); !errors.Is(err, errInterrupted) {
		t.Fatalf("Run = %v, want it interrupted", err)
	}
	for _, want := range []string{
		"bankgen: interrupted: 1 of 3 shards merged into " + out + ": 4 families and 4 puzzles added, 0 families already held, in ",
		"\n  merged and committed: " + shards[0] + "\n",
		"\n  not merged: " + shards[1] + ", " + shards[2] + "; run the same merge again to finish",
	} {
		if !strings.Contains(stdout.buf.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout.buf.String())
		}
	}
	if got := families(out); got != 4 {
		t.Errorf("after the stop the bank holds %d families, want the first shard's 4", got)
	}
	mustSucceed(t, bankgen(t, dir, args...))
	if got := families(out); got != 12 {
		t.Errorf("after the rerun the bank holds %d families, want 12", got)
	}
	checkBank(t, out)
}

// TestMergeEndsInsideShard ends a merge inside its second shard's
// transaction: by a signal, where SQLite reports "interrupted (9)" rather
// than the context's error, the merge says it was interrupted (status
// 130, no SQLite error); by a failure, it fails (status 1) with the
// error. Either way the summary says which shards were merged and which
// not. mergeShard fails in place of SQLite, so that the signal lands
// inside the shard every time.
func TestMergeEndsInsideShard(t *testing.T) {
	dir := t.TempDir()
	var shards []string
	for i := range 2 {
		shard := filepath.Join(dir, fmt.Sprintf("s%d.db", i))
		mustSucceed(t, bankgen(t, dir, "-db", shard, "-quiet", "-seed", "4", "-count", "8", "-shard", fmt.Sprintf("%d/2", i)))
		shards = append(shards, shard)
	}
	real := mergeShard
	t.Cleanup(func() { mergeShard = real })
	for _, tt := range []struct {
		name   string
		signal bool
		code   int
		err    string // what stderr says
		how    string // the summary's word
		next   string // what the summary says of the shard not merged
	}{
		{"Signal", true, 130, "", "interrupted", "; run the same merge again to finish"},
		{"Failure", false, 1, "bankgen: bank " + filepath.Join(dir, "Failure.db") + ": disk I/O error (10)\n", "failed", "; the merge stopped at " + shards[1] + ": mend it or leave it out"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name+".db")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			mergeShard = func(ctx context.Context, db *store.DB, path string, c *store.CheckedShard, opts store.Options, mo store.MergeOptions) (*store.DB, store.MergeResult, error) {
				if db == nil { // the first shard, which makes the bank
					return real(ctx, db, path, c, opts, mo)
				}
				if tt.signal {
					cancel()
					return db, store.MergeResult{}, errors.New("interrupted (9)")
				}
				return db, store.MergeResult{}, errors.New("disk I/O error (10)")
			}
			var stdout, stderr bytes.Buffer
			code := program.Exec(ctx, append([]string{"merge", "-db", out}, shards...), &stdout, &stderr)
			if code != tt.code || withoutNewBank(stderr.String()) != tt.err {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tt.code, tt.err)
			}
			for _, want := range []string{
				"bankgen: " + tt.how + ": 1 of 2 shards merged into " + out + ": 4 families and 4 puzzles added, 0 families already held, in ",
				"\n  merged and committed: " + shards[0] + "\n",
				"\n  not merged: " + shards[1] + tt.next,
			} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("the summary lacks %q:\n%s", want, stdout.String())
				}
			}
			if got := families(out); got != 4 {
				t.Errorf("the bank holds %d families, want the first shard's 4", got)
			}
		})
	}
}

// TestMergeDoneAfterIndexes checks that the summary of a merge into a
// missing bank, and the time it reports, come after the indexes the bank
// deferred are built, not before its close builds them.
func TestMergeDoneAfterIndexes(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.db")
	args := []string{"merge", "-db", out}
	for i := range 2 {
		shard := filepath.Join(dir, "s"+string(rune('0'+i))+".db")
		mustSucceed(t, bankgen(t, dir, "-db", shard, "-quiet", "-seed", "4", "-count", "8", "-shard", string(rune('0'+i))+"/2"))
		args = append(args, shard)
	}
	var left []string
	stdout := &callOn{word: "bankgen: done:", fn: func() { left = deferredIndexes(t, out) }}
	if err := Run(context.Background(), args, stdout, io.Discard); err != nil {
		t.Fatalf("Run = %v\n%s", err, stdout.buf.String())
	}
	if !stdout.called {
		t.Fatalf("no summary:\n%s", stdout.buf.String())
	}
	if len(left) != 0 {
		t.Errorf("when the summary was printed the bank still deferred %v", left)
	}
	checkBank(t, out)
}

// TestShardedQuota spreads a quota job over three shards: merged, the
// bank meets the quota, and the same quota run on the merged bank tops
// up whatever cross-shard duplicates left short, and adds nothing more.
func TestShardedQuota(t *testing.T) {
	dir := t.TempDir()
	quota := "extremely-easy=7,medium=4"
	merge := []string{"merge", "-db", "merged.db"}
	for i := range 3 {
		shard := "q" + string(rune('0'+i)) + ".db"
		mustSucceed(t, bankgen(t, dir, "-db", shard, "-quiet", "-seed", "8", "-quota", quota, "-shard", string(rune('0'+i))+"/3"))
		merge = append(merge, shard)
	}
	mustSucceed(t, bankgen(t, dir, merge...))
	merged := filepath.Join(dir, "merged.db")
	mustSucceed(t, bankgen(t, dir, "-db", "merged.db", "-quiet", "-seed", "9", "-quota", quota))
	counts, err := MustOpen(t, merged).LevelCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if counts[1] != 7 || counts[3] != 4 || counts[2] != 0 || counts[4] != 0 || counts[5] != 0 {
		t.Errorf("merged bank's families per level %v, want the quota's 7 extremely-easy and 4 medium", counts)
	}
	checkBank(t, merged)
}

// TestMergeStopsAtBadShard merges a good shard, then meets a file that
// is not a bank: it stops there with status 1, saying which, keeps the
// good shard, and sums up which shards were merged and which not.
func TestMergeStopsAtBadShard(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "a.db", "-quiet", "-seed", "6", "-count", "5"))
	mustSucceed(t, bankgen(t, dir, "-db", "c.db", "-quiet", "-seed", "7", "-count", "5"))
	if err := os.WriteFile(filepath.Join(dir, "b.db"), []byte("a shopping list\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := bankgen(t, dir, "merge", "-db", "out.db", "a.db", "b.db", "c.db")
	if r.code != 1 || !strings.Contains(r.stderr, "b.db") || !strings.Contains(r.stderr, "not an SQLite file") {
		t.Errorf("exit %d, stderr %q; want 1 and b.db named as no bank", r.code, r.stderr)
	}
	for _, want := range []string{
		"bankgen: failed: 1 of 3 shards merged into out.db: 5 families and 5 puzzles added, 0 families already held, in ",
		"\n  merged and committed: a.db\n",
		"\n  not merged: b.db, c.db; the merge stopped at b.db: mend it or leave it out, and run the merge again to finish",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, r.stdout)
		}
	}
	if n := families(filepath.Join(dir, "out.db")); n != 5 {
		t.Errorf("out.db holds %d families, want a.db's 5", n)
	}
}

// TestMergeSameShardTwice names one shard twice in a row: the second
// merge adds nothing. A merge holds its shard's write lock, so the
// second naming must be checked after the first merge, not beside it.
func TestMergeSameShardTwice(t *testing.T) {
	dir := t.TempDir()
	shard := filepath.Join(dir, "s.db")
	mustSucceed(t, bankgen(t, dir, "-db", shard, "-quiet", "-seed", "4", "-count", "6"))
	out := filepath.Join(dir, "out.db")
	mustSucceed(t, bankgen(t, dir, "merge", "-db", out, shard, shard))
	if got := families(out); got != 6 {
		t.Errorf("the bank holds %d families, want the shard's 6", got)
	}
	checkBank(t, out)
}

// TestMergeIntoMissingBank merges shards into a bank that does not exist
// yet, which bankgen makes of the first shard's pages, and into an empty
// bank, which it fills row by row: both must hold the same families,
// puzzles, grades and runs, and nothing but the bank may be left beside
// it.
func TestMergeIntoMissingBank(t *testing.T) {
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("Shards%d", n), func(t *testing.T) {
			dir := t.TempDir()
			var shards []string
			for i := range n {
				shard := fmt.Sprintf("s%d.db", i)
				mustSucceed(t, bankgen(t, dir, "-db", shard, "-quiet", "-seed", "6", "-count", "12", "-variants", "2", "-shard", fmt.Sprintf("%d/%d", i, n)))
				shards = append(shards, shard)
			}
			empty := filepath.Join(dir, "empty.db")
			db, err := store.Open(context.Background(), empty, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			before := dirNames(t, dir)
			missing := filepath.Join(dir, "missing.db")
			mustSucceed(t, bankgen(t, dir, append([]string{"merge", "-db", missing}, shards...)...))
			if got, want := dirNames(t, dir), append(before, "missing.db"); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
				t.Errorf("the directory holds %q, want %q and missing.db", got, before)
			}
			mustSucceed(t, bankgen(t, dir, append([]string{"merge", "-db", empty}, shards...)...))
			if got, want := canons(t, missing), canons(t, empty); !slices.Equal(got, want) || len(got) != 12 {
				t.Errorf("into a missing bank: %d families, into an empty one %d, want 12 and the same forms", len(got), len(want))
			}
			if got, want := graded(t, missing), graded(t, empty); !slices.Equal(got, want) {
				t.Error("into a missing bank: other puzzles, grades or levels than into an empty one")
			}
			if got, want := len(runs(t, missing)), len(runs(t, empty)); got != n || want != n {
				t.Errorf("into a missing bank %d runs, into an empty one %d, want %d", got, want, n)
			}
			checkBank(t, missing)
		})
	}
}

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

// TestMergeDamagedShardIntoMissingBank merges a damaged shard into a
// bank that does not exist yet, which bankgen makes of the shard's pages
// while it checks them: it must refuse the shard as damaged, with status
// 1, and leave no bank and no temporary file beside the shard.
func TestMergeDamagedShardIntoMissingBank(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "s.db", "-quiet", "-seed", "6", "-count", "12", "-variants", "2"))
	banktest.DamagePage(t, filepath.Join(dir, "s.db"))
	before := dirNames(t, dir)
	r := bankgen(t, dir, "merge", "-db", "out.db", "s.db")
	if r.code != 1 || !strings.Contains(r.stderr, "s.db") || !strings.Contains(r.stderr, "damaged") {
		t.Errorf("exit %d, stderr %q; want 1 and s.db called damaged", r.code, r.stderr)
	}
	if got := dirNames(t, dir); !slices.Equal(got, before) {
		t.Errorf("after a refused merge the directory holds %q, want %q", got, before)
	}
}

// TestMergeFlagAfterShards names a flag after a shard: a usage error
// before anything is merged, not a merge of the shards before it that
// fails on the flag taken for a file.
func TestMergeFlagAfterShards(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "s.db", "-quiet", "-seed", "3", "-count", "5"))
	r := bankgen(t, dir, "merge", "-db", "out.db", "s.db", "-packs", "drop")
	if r.code != 2 || !strings.Contains(r.stderr, "flag -packs after the shard names") {
		t.Errorf("exit %d, stderr %q; want 2 and the flag named", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("out.db was made (%v): the merge ran before the flag was refused", err)
	}
}

// TestMergeWarnsOfUnfinishedShardRun merges a shard whose run was
// interrupted: the merge warns that the shard is short, and once the
// same command has run again to its end, as the warning asks, it no
// longer does.
func TestMergeWarnsOfUnfinishedShardRun(t *testing.T) {
	dir := t.TempDir()
	build := []string{"-db", "s.db", "-quiet", "-seed", "5", "-shard", "0/2", "-quota", "easy=8"}
	mustSucceed(t, bankgen(t, dir, build...))
	banktest.MustExec(t, filepath.Join(dir, "s.db"), `UPDATE runs SET status = 'interrupted'`)
	const warning = "a run of the shard did not complete"
	r := bankgen(t, dir, "merge", "-db", "out.db", "s.db")
	if r.code != 0 || !strings.Contains(r.stderr, warning) {
		t.Errorf("merge of an interrupted shard: exit %d, stderr %q; want 0 and %q", r.code, r.stderr, warning)
	}
	mustSucceed(t, bankgen(t, dir, build...))
	r = bankgen(t, dir, "merge", "-db", "out.db", "s.db")
	if r.code != 0 || strings.Contains(r.stderr, warning) {
		t.Errorf("merge of the shard built again: exit %d, stderr %q; want 0 and no warning", r.code, r.stderr)
	}
}

// TestMergeOutAmongShards: the bank merged into, named among the shards
// (as banks/*.db names it), is refused before any shard is merged.
func TestMergeOutAmongShards(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "a.db", "-quiet", "-seed", "3", "-count", "5"))
	mustSucceed(t, bankgen(t, dir, "-db", "out.db", "-quiet", "-seed", "4", "-count", "5"))
	r := bankgen(t, dir, "merge", "-db", "out.db", "a.db", "./out.db")
	if r.code != 2 || !strings.Contains(r.stderr, "shard ./out.db is the bank merged into") {
		t.Errorf("exit %d, stderr %q; want 2 and the shard named", r.code, r.stderr)
	}
	if rs := runs(t, filepath.Join(dir, "out.db")); len(rs) != 1 {
		t.Errorf("out.db has %d runs, want its own only: a.db was merged before the refusal", len(rs))
	}
}

// TestMergeChecksShardsFirst names, after a good shard, one that cannot
// be merged: a missing file, a directory, the bank merged into before it
// exists. Each is a usage error that names the shard once, before any
// shard is merged, so the bank is not made.
func TestMergeChecksShardsFirst(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "a.db", "-quiet", "-seed", "3", "-count", "5"))
	if err := os.Mkdir(filepath.Join(dir, "sub.db"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, shard, want string
	}{
		{"Missing", "missing.db", "bankgen: shard missing.db: no such file or directory\n"},
		{"Directory", "sub.db", "bankgen: shard sub.db is a directory, not a bank\n"},
		{"OutNotMadeYet", "./out.db", "bankgen: shard ./out.db is the bank merged into (-db out.db): leave it out of the shards\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := bankgen(t, dir, "merge", "-db", "out.db", "a.db", tt.shard)
			if r.code != 2 || !strings.HasPrefix(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q: a shard was merged before the refusal", r.stdout)
			}
			if _, err := os.Stat(filepath.Join(dir, "out.db")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("out.db was made (%v): a.db was merged before the refusal", err)
			}
		})
	}
}

// TestNewBankWithoutDirectory names a new bank in a directory that does
// not exist: generate, import and merge each say so of the bank, not of
// a temporary file beside it, and merge before it merges anything,
// rather than blame its first shard.
func TestNewBankWithoutDirectory(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "a.db", "-quiet", "-seed", "3", "-count", "5"))
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(importable(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-db", "nodir/b.db", "-quiet", "-count", "1"},
		{"import", "-db", "nodir/b.db", "-quiet", "in.txt"},
		{"merge", "-db", "nodir/b.db", "a.db"},
	} {
		r := bankgen(t, dir, args...)
		if want := "bankgen: open bank nodir/b.db: no directory nodir to make it in\n"; r.code != 1 || r.stderr != want {
			t.Errorf("%q: exit %d, stderr %q; want 1 and %q", args, r.code, r.stderr, want)
		}
		if args[0] == "merge" && r.stdout != "" {
			t.Errorf("%q: stdout %q, want no summary: nothing was merged", args, r.stdout)
		}
	}
}
