package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/internal/banktest"
	"sudokubank/store"
)

// mustShard writes a bank at dir/name of the families fam(from..to-1),
// each with k puzzles, and closes it.
func mustShard(tb testing.TB, dir, name string, from, to, k int) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	var batch []store.NewFamily
	for i := from; i < to; i++ {
		batch = append(batch, fam(i, 1+i%5, 22+i%7, k))
	}
	MustWrite(tb, db, batch)
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// MustMerge merges shard into db and fails the test on error.
func MustMerge(tb testing.TB, db *store.DB, shard string) store.MergeResult {
	tb.Helper()
	res, err := db.Merge(context.Background(), shard, store.MergeOptions{Args: []string{"merge", shard}})
	if err != nil {
		tb.Fatalf("Merge(%s): %v", shard, err)
	}
	return res
}

// content returns the bank's puzzles with their families' forms and
// grades, sorted: what a bank holds, whatever its IDs.
func content(tb testing.TB, db *store.DB) []string {
	tb.Helper()
	var rows []store.Row
	err := db.Query(context.Background(), store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		f, err := db.Family(context.Background(), r.FamilyID)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %s %d %d %d %d %s %s %s %v", f.Canon, r.Puzzle, r.Solution,
			f.Level, f.Givens, f.ER, f.EP, f.Hardest, f.Path, f.Source, f.Techniques))
	}
	slices.Sort(out)
	return out
}

func TestMergeAddsWhatTheBankLacks(t *testing.T) {
	store.PlaceholderGrids(t)
	dir := t.TempDir()
	a := mustShard(t, dir, "a.db", 0, 10, 2)
	b := mustShard(t, dir, "b.db", 5, 20, 2)
	want := mustShard(t, dir, "want.db", 0, 20, 2)
	db := MustOpen(t, filepath.Join(dir, "out.db"))
	if got := MustMerge(t, db, a); got.Families != 10 || got.Puzzles != 20 || got.DupFamilies != 0 {
		t.Errorf("first merge = %+v, want 10 families and 20 puzzles", got)
	}
	got := MustMerge(t, db, b)
	if got.Families != 10 || got.Puzzles != 20 || got.DupFamilies != 5 || got.DupPuzzles != 10 {
		t.Errorf("second merge = %+v, want 10 families and 20 puzzles, 5 and 10 held already", got)
	}
	mustCheck(t, db)
	if !slices.Equal(content(t, db), content(t, MustOpen(t, want))) {
		t.Error("the merged bank holds other puzzles than one written whole")
	}
	runs, err := db.Runs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[1].Kind != store.RunMerge || runs[1].Status != store.RunCompleted || runs[1].Families != 10 ||
		!strings.Contains(runs[1].Message, `"shard":"b.db"`) {
		t.Errorf("runs = %+v, want two completed merges, the second of 10 families from b.db", runs)
	}
}

func TestMergeIdempotentAndOrderFree(t *testing.T) {
	store.PlaceholderGrids(t)
	dir := t.TempDir()
	shards := []string{
		mustShard(t, dir, "a.db", 0, 8, 3),
		mustShard(t, dir, "b.db", 8, 15, 1),
		mustShard(t, dir, "c.db", 15, 30, 2),
	}
	var banks [][]string
	for i, order := range [][]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0, 2, 1, 0}} {
		db := MustOpen(t, filepath.Join(dir, "out"+string(rune('0'+i))+".db"))
		for n, s := range order {
			got := MustMerge(t, db, shards[s])
			if n >= 3 && (got.Families != 0 || got.Puzzles != 0) {
				t.Errorf("merging %s again added %+v", shards[s], got)
			}
		}
		mustCheck(t, db)
		banks = append(banks, content(t, db))
	}
	for i := 1; i < len(banks); i++ {
		if !slices.Equal(banks[i], banks[0]) {
			t.Errorf("order %d: other content than order 0", i)
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	store.PlaceholderGrids(t)
	ctx := context.Background()
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(text, []byte("not a bank at all, just some words\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	newer := mustShard(t, dir, "newer.db", 0, 3, 1)
	banktest.MustExec(t, newer, "PRAGMA user_version = 999")
	damaged := mustShard(t, dir, "damaged.db", 0, 400, 3)
	banktest.DamagePage(t, damaged)
	packed := mustShard(t, dir, "packed.db", 0, 5, 1)
	{
		p, err := store.Open(ctx, packed, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.CreatePack(ctx, store.PackSpec{Name: "p1"}, store.Filter{}, store.QueryOptions{}, 2); err != nil {
			t.Fatal(err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	outPath := filepath.Join(dir, "out.db")
	db := MustOpen(t, outPath)
	MustMerge(t, db, mustShard(t, dir, "first.db", 100, 103, 1))
	before := content(t, db)
	for _, tt := range []struct {
		name  string
		shard string
		want  error
		says  string
	}{
		{"Missing", filepath.Join(dir, "nope.db"), os.ErrNotExist, "nope.db"},
		{"NotABank", text, store.ErrNotBank, "not an SQLite file"},
		{"Newer", newer, store.ErrNewerBank, "newer"},
		{"Damaged", damaged, store.ErrDamaged, "damaged"},
		{"Packs", packed, store.ErrShardPacks, "-packs drop"},
		{"Itself", outPath, store.ErrInvalid, "merged into"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := db.Merge(ctx, tt.shard, store.MergeOptions{})
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("Merge = %v, want %v saying %q", err, tt.want, tt.says)
			}
			// The shard is named once, as the refusal's subject: a
			// second naming (merge X: open bank X: ...) is noise.
			if msg := strings.Replace(err.Error(), "-db "+tt.shard, "", 1); strings.Count(msg, tt.shard) != 1 {
				t.Errorf("Merge = %v, want %s named once", err, tt.shard)
			}
			if !slices.Equal(content(t, db), before) {
				t.Error("a refused merge changed the bank")
			}
		})
	}
	res, err := db.Merge(ctx, packed, store.MergeOptions{DropPacks: true})
	if err != nil || res.Families != 5 {
		t.Errorf("Merge with DropPacks = %+v, %v; want its 5 families", res, err)
	}
	mustCheck(t, db)
}

// TestMergeRecordsShardCodeVersions: the merge's run lists each of the
// shard's runs with the code version that made it, into an empty bank
// (a copy) and into one that holds families, so that the code behind a
// merged bank's puzzles stays on record after the shards are gone.
func TestMergeRecordsShardCodeVersions(t *testing.T) {
	store.PlaceholderGrids(t)
	ctx := context.Background()
	dir := t.TempDir()
	shard := filepath.Join(dir, "shard.db")
	db, err := store.Open(ctx, shard, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runID, err := db.StartRun(ctx, store.Run{Params: "-count 3", Seed: 7, CodeVersion: "(devel) 1a2b3c +modified"})
	if err != nil {
		t.Fatal(err)
	}
	var batch []store.NewFamily
	for i := range 3 {
		nf := fam(i, 1+i, 24, 1)
		nf.RunID = runID
		batch = append(batch, nf)
	}
	MustWrite(t, db, batch)
	if err := db.FinishRun(ctx, runID, store.RunEnd{Status: store.RunCompleted, Families: 3, Puzzles: 3}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		fill int // families the bank holds before the merge
	}{
		{"EmptyBank", 0},
		{"BankWithFamilies", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := MustOpen(t, filepath.Join(t.TempDir(), "out.db"))
			var held []store.NewFamily
			for i := range tt.fill {
				held = append(held, fam(100+i, 2, 25, 1))
			}
			if len(held) > 0 {
				MustWrite(t, out, held)
			}
			res := MustMerge(t, out, shard)
			runs, err := out.Runs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(runs, func(r store.Run) bool { return r.ID == res.RunID })
			if i < 0 {
				t.Fatalf("merge run %d not among %+v", res.RunID, runs)
			}
			if want := `"code_version":"(devel) 1a2b3c +modified"`; !strings.Contains(runs[i].Message, want) {
				t.Errorf("merge run's message %s lacks the shard run's %s", runs[i].Message, want)
			}
		})
	}
}

// TestMergeRefusesDamagedGrid blanks one given of a stored 6x6 puzzle's
// packed grid in a shard's file, which SQLite's quick check cannot see
// and which still agrees with its solution: Merge, and MergeNew of a
// prepared shard, refuse the shard as damaged, naming the puzzle and its
// key, and leave the bank as it was.
func TestMergeRefusesDamagedGrid(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	shard := filepath.Join(dir, "shard.db")
	db, err := store.Open(ctx, shard, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var batch []store.NewFamily
	for k := range 4 {
		batch = append(batch, sizedFamily(t, 6, k, 2))
	}
	MustWrite(t, db, batch)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// A variant's puzzle, not its family's form: its packed grid is in
	// the file once.
	raw, err := sql.Open("sqlite", shard)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	var packed []byte
	err = raw.QueryRow("SELECT id, puzzle FROM puzzles WHERE size = 6 ORDER BY id LIMIT 1 OFFSET 1").Scan(&id, &packed)
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(packed)
	for i, b := range bad {
		if b>>4 != 0 {
			bad[i] = b & 0x0f // the first given blanked
			break
		}
	}
	banktest.ReplaceBytes(t, shard, packed, bad)
	want := fmt.Sprintf("puzzle %d: sort key ", id)

	out := MustOpen(t, filepath.Join(dir, "out.db"))
	if _, err := out.Merge(ctx, shard, store.MergeOptions{}); !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), want) {
		t.Errorf("Merge of the damaged shard: %v, want ErrDamaged and %q", err, want)
	}
	if n, err := out.Count(ctx, store.Filter{}); err != nil || n != 0 {
		t.Errorf("after the refused merge the bank holds %d puzzles (%v), want 0", n, err)
	}

	s, err := store.PrepareShard(ctx, shard, false)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "new.db")
	if nb, _, err := store.MergeNew(ctx, path, s, store.Options{}, store.MergeOptions{}); !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), want) {
		if err == nil {
			nb.Close()
		}
		t.Errorf("MergeNew of the damaged shard: %v, want ErrDamaged and %q", err, want)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused MergeNew left %s (%v)", path, err)
	}
}
