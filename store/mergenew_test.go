package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/store"
)

// mustRunsShard writes a bank at dir/name as a shard built over several
// runs may be: families of two generating runs and some imported (no
// run), k puzzles each, and, with packs, a pack of two.
func mustRunsShard(tb testing.TB, dir, name string, k int, packs bool) string {
	tb.Helper()
	ctx := context.Background()
	path := filepath.Join(dir, name)
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for run := range 2 {
		id, err := db.StartRun(ctx, store.Run{Seed: uint64(7 + run), Args: []string{"-seed", "7", "-count", "4"}})
		if err != nil {
			tb.Fatal(err)
		}
		var batch []store.NewFamily
		for range 4 {
			f := fam(n, 1+n%5, 22+n%7, k)
			f.RunID = id
			batch = append(batch, f)
			n++
		}
		res := MustWrite(tb, db, batch)
		if err := db.FinishRun(ctx, id, store.RunEnd{Status: store.RunCompleted, Families: int64(res.Families), Puzzles: int64(res.Puzzles)}); err != nil {
			tb.Fatal(err)
		}
	}
	var imports []store.NewFamily
	for range 3 {
		f := fam(n, 1+n%5, 22+n%7, k)
		f.Source = "import"
		imports = append(imports, f)
		n++
	}
	MustWrite(tb, db, imports)
	if packs {
		if _, _, err := db.CreatePack(ctx, store.PackSpec{Name: "p1", Client: "c1"}, store.Filter{}, store.QueryOptions{}, 2); err != nil {
			tb.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// dumpBank returns everything the closed bank at path holds, as text: its
// header's numbers, its schema and every row of every table, sorted,
// but for the times a run started and ended.
func dumpBank(tb testing.TB, path string) []string {
	tb.Helper()
	x, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer x.Close()
	strs := func(q string) []string {
		tb.Helper()
		rows, err := x.Query(q)
		if err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				tb.Fatal(err)
			}
			out = append(out, s)
		}
		if err := rows.Err(); err != nil {
			tb.Fatal(err)
		}
		return out
	}
	out := strs(`SELECT 'application_id ' || application_id FROM pragma_application_id
		UNION ALL SELECT 'user_version ' || user_version FROM pragma_user_version
		UNION ALL SELECT 'page_size ' || page_size FROM pragma_page_size`)
	out = append(out, strs(`SELECT printf('%s %s %s %s', type, name, tbl_name, sql) FROM sqlite_schema ORDER BY name`)...)
	for _, table := range strs(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`) {
		cols := strs(`SELECT 'quote(' || name || ')' FROM pragma_table_info('` + table + `')
			WHERE NOT ('` + table + `' = 'runs' AND name IN ('started_at', 'ended_at')) ORDER BY cid`)
		rows := strs(`SELECT '` + table + `: ' || ` + strings.Join(cols, " || ' ' || ") + ` AS r FROM "` + table + `"`)
		slices.Sort(rows)
		out = append(out, rows...)
	}
	return out
}

// TestMergeNewMatchesMerge makes a new bank of a shard with MergeNew,
// which copies the shard's pages, and another with Open and Merge, which
// copies its rows: the two must hold the same, row for row, IDs, runs and
// indexes included; a second shard merged into each likewise. Shards
// from PrepareShard, checked by the merge, give the same.
func TestMergeNewMatchesMerge(t *testing.T) {
	store.PlaceholderGrids(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		k     int
		packs bool
		check func(context.Context, string, bool) (*store.CheckedShard, error)
	}{
		{"OneVariant", 1, false, store.CheckShard},
		{"Variants", 4, false, store.CheckShard},
		{"PacksDropped", 2, true, store.CheckShard},
		{"Prepared", 4, false, store.PrepareShard},
		{"PreparedPacksDropped", 2, true, store.PrepareShard},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			shard := mustRunsShard(t, dir, "shard.db", tt.k, tt.packs)
			// Families 9 and 10 are the first shard's: held already.
			second := mustShard(t, dir, "second.db", 9, 14, tt.k)
			o := store.MergeOptions{Args: []string{"merge", "-db", "out.db", "shard.db"}, CodeVersion: "v1", DropPacks: tt.packs}

			old := filepath.Join(dir, "old.db")
			db, err := store.Open(ctx, old, store.BulkOptions(old))
			if err != nil {
				t.Fatal(err)
			}
			wantRes, err := db.Merge(ctx, shard, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}

			out := filepath.Join(dir, "out.db")
			s, err := tt.check(ctx, shard, o.DropPacks)
			if err != nil {
				t.Fatal(err)
			}
			db, res, err := store.MergeNew(ctx, out, s, store.BulkOptions(out), o)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			res.RunID, wantRes.RunID = 0, 0
			if !equalResults(res, wantRes) {
				t.Errorf("MergeNew = %+v, want %+v", res, wantRes)
			}
			if got, want := dumpBank(t, out), dumpBank(t, old); !slices.Equal(got, want) {
				t.Errorf("MergeNew made:\n%s\nwant what Merge makes:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}

			// A bank at the path: MergeNew merges into it.
			for _, path := range []string{old, out} {
				s, err := tt.check(ctx, second, false)
				if err != nil {
					t.Fatal(err)
				}
				db, res, err := store.MergeNew(ctx, path, s, store.BulkOptions(path), o)
				if err != nil {
					t.Fatal(err)
				}
				if res.Families != 3 || res.DupFamilies != 2 {
					t.Errorf("MergeNew into a bank = %+v, want 3 families added and 2 held", res)
				}
				mustCheck(t, db)
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := dumpBank(t, out), dumpBank(t, old); !slices.Equal(got, want) {
				t.Errorf("after a second shard:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// equalResults compares merge results, the shard's runs by ID, kind and
// counts.
func equalResults(a, b store.MergeResult) bool {
	runs := func(rs []store.Run) []int64 {
		var out []int64
		for _, r := range rs {
			out = append(out, r.ID, r.Families, r.Puzzles)
		}
		return out
	}
	return a.Families == b.Families && a.Puzzles == b.Puzzles && a.DupFamilies == b.DupFamilies &&
		a.DupPuzzles == b.DupPuzzles && slices.Equal(runs(a.ShardRuns), runs(b.ShardRuns))
}
