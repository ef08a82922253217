package store

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/migrations"
)

// rowStrings reads every puzzle row as a query returns it, by ID.
func rowStrings(t *testing.T, db *DB, f Filter) []string {
	t.Helper()
	var out []string
	if err := db.Query(context.Background(), f, QueryOptions{}, func(r Row) error {
		out = append(out, fmt.Sprintf("%d %d %d %s %s %s %d %d %d", r.Size, r.ID, r.FamilyID, r.Puzzle, r.Solution, r.Transform, r.Level, r.Givens, r.ER))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// smallFamily is a 4x4 family of one explicit variant: the pattern grid
// with cell k blanked.
func smallFamily(k int) NewFamily {
	sol := "1234341221434321"
	p := []byte(sol)
	p[k] = '.'
	return NewFamily{Family: Family{Canon: string(p), Size: 4, ER: 10, Level: 1, Givens: 15, Source: "gen"},
		Puzzles: []Puzzle{{Puzzle: string(p), Solution: sol, Transform: grid.Identity(grid.Shape{N: 4, BoxRows: 2, BoxCols: 2}).String()}}}
}

// TestGridSizesMigration writes a schema-12 bank through the store
// (derived and explicit rows, technique counts, a pack for a client), in
// a live load and in a bulk load that died with its indexes deferred,
// and migrates it: 0013 must keep every row, make each one 9x9, key the
// counts by size, build the indexes of sizes, and leave a bank that
// reads as before and takes families of other sizes.
func TestGridSizesMigration(t *testing.T) {
	for _, died := range []bool{false, true} {
		t.Run(map[bool]string{false: "Live", true: "Deferred"}[died], func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "bank.db")
			setMigrations(t, migrationsUpTo(t, 12))
			old, err := Open(ctx, path, Options{DeferIndexes: died})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			var ts []gen.Transform
			for range 4 {
				ts = append(ts, gen.RandomTransform(rng))
			}
			derived, _ := variantFamily(t, gen.Identity(), ts...)
			derived.Techniques = map[string]int{"x-wing": 1}
			// Another family, whose rows stay explicit: their transforms
			// are no text gen reads.
			explicit, _ := variantFamily(t, ts[0], ts[1:]...)
			explicit.Level = 4
			for i := range explicit.Puzzles {
				explicit.Puzzles[i].Transform = "opaque"
			}
			addSizeColumns(t, old)
			mustWriteBatch(t, old, WriteResult{Families: 2, Puzzles: 7}, derived, explicit)
			if _, _, err := old.CreatePack(ctx, PackSpec{Name: "p", Client: "acme"}, Filter{}, QueryOptions{}, 2); err != nil {
				t.Fatal(err)
			}
			rows := rowStrings(t, old, Filter{})
			dropSizeColumns(t, old)
			var codes int
			if err := old.db.GetContext(ctx, &codes, "SELECT count(*) FROM puzzles WHERE code IS NOT NULL"); err != nil || codes != 4 {
				t.Fatalf("derived rows in the schema-12 bank: %d, %v; want 4", codes, err)
			}
			const famCols = "SELECT id, canon, er, ep, ed, level, score, search_nodes, givens, min_row_col, hardest, path, minimal, symmetry, source, run_id, seed, created_at, canon_key, solution FROM families ORDER BY id"
			const puzCols = "SELECT id, family_id, code, sort_key, level, givens, er, puzzle, solution, transform FROM puzzles ORDER BY id"
			before := map[string][]string{}
			for _, q := range []string{famCols, puzCols, "SELECT * FROM pack_items", "SELECT * FROM reservations", "SELECT * FROM client_families",
				"SELECT 9, * FROM buckets", "SELECT 9, * FROM technique_counts"} {
				before[q] = dumpQuery(t, old, q)
			}
			if died {
				old.db.Close()
			} else if err := old.Close(); err != nil {
				t.Fatal(err)
			}

			setMigrations(t, migrations.FS)
			var logged bytes.Buffer
			db, err := Open(ctx, path, Options{Log: slog.New(slog.NewTextHandler(&logged, nil))})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if l := logged.String(); !strings.Contains(l, fmt.Sprintf("from=12 to=%d", mustLatest(t))) || !strings.Contains(l, "migrated the bank") {
				t.Errorf("the migration's log:\n%s", l)
			}
			for q, want := range before {
				q2 := strings.Replace(q, "SELECT 9, *", "SELECT *", 1)
				if got := dumpQuery(t, db, q2); !slices.Equal(got, want) {
					t.Errorf("%s after the migration:\n%s\nwant\n%s", q2, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			var other int
			if err := db.db.GetContext(ctx, &other, "SELECT (SELECT count(*) FROM families WHERE size <> 9) + (SELECT count(*) FROM puzzles WHERE size <> 9)"); err != nil || other != 0 {
				t.Errorf("rows of other sizes after the migration: %d, %v", other, err)
			}
			defs := map[string]string{}
			var idx []struct {
				Name string `db:"name"`
				SQL  string `db:"sql"`
			}
			if err := db.db.SelectContext(ctx, &idx, "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"); err != nil {
				t.Fatal(err)
			}
			for _, i := range idx {
				defs[i.Name] = i.SQL
			}
			for name, def := range map[string]string{
				"puzzles_key":        "CREATE UNIQUE INDEX puzzles_key ON puzzles (size, level, sort_key)",
				"puzzles_bucket":     "CREATE INDEX puzzles_bucket ON puzzles (size * 10000 + level * 1000 + givens)",
				"puzzles_er":         "CREATE INDEX puzzles_er ON puzzles (size, er)",
				"families_canon_key": "CREATE UNIQUE INDEX families_canon_key ON families (canon_key)",
			} {
				if defs[name] != def {
					t.Errorf("index %s = %q, want %q", name, defs[name], def)
				}
			}
			var deferred []string
			if err := db.db.SelectContext(ctx, &deferred, "SELECT name FROM deferred_indexes"); err != nil || len(deferred) != 0 {
				t.Errorf("deferred indexes after the migration = %v, %v; want none", deferred, err)
			}
			if got := rowStrings(t, db, Filter{}); !slices.Equal(got, rows) {
				t.Errorf("rows after the migration:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(rows, "\n"))
			}
			if got := rowStrings(t, db, Filter{Size: 9}); !slices.Equal(got, rows) {
				t.Errorf("9x9 rows after the migration: %d, want %d", len(got), len(rows))
			}
			if got := rowStrings(t, db, Filter{Size: 4}); len(got) != 0 {
				t.Errorf("4x4 rows after the migration: %v", got)
			}
			if r, err := db.Check(ctx, false); err != nil || !r.OK() {
				t.Errorf("check after the migration: %v, %v", r.Problems, err)
			}
			// The migrated bank takes a family of another size beside its
			// own, and a writer that defers indexes defers the new ones.
			mustWriteBatch(t, db, WriteResult{Families: 2, Puzzles: 2, DupFamilies: 1, DupPuzzles: 4}, smallFamily(0), smallFamily(5), derived)
			db = reopen(t, db, Options{DeferIndexes: true})
			if err := db.db.SelectContext(ctx, &deferred, "SELECT name FROM deferred_indexes ORDER BY name"); err != nil ||
				!slices.Equal(deferred, []string{"families_sample", "puzzles_bucket", "puzzles_er", "puzzles_family"}) {
				t.Errorf("deferred by a writer after the migration = %v, %v; want families_sample, puzzles_bucket, puzzles_er and puzzles_family", deferred, err)
			}
			db = reopen(t, db, Options{})
			if got := rowStrings(t, db, Filter{Size: 4}); len(got) != 2 {
				t.Errorf("4x4 rows = %v, want 2", got)
			}
			st, err := db.Stats(ctx)
			if err != nil || !slices.Equal(st.Sizes(), []int{4, 9}) || st.OfSize(9).Puzzles != 7 || st.OfSize(4).Families != 2 {
				t.Errorf("stats after a 4x4 batch: sizes %v, %+v, %v", st.Sizes(), st.Buckets, err)
			}
			if r, err := db.Check(ctx, false); err != nil || !r.OK() {
				t.Errorf("check with two sizes: %v, %v", r.Problems, err)
			}
		})
	}
}

// TestSizesKeyCollisions makes every string and every form of every size
// hash to one key: forms and puzzles of different sizes must still be
// told apart by their text, and a repeat found, live and in bulk mode.
func TestSizesKeyCollisions(t *testing.T) {
	keyOf = func(string) int64 { return 42 }
	canonKey = func(string) int64 { return 7 }
	defer func() { keyOf, canonKey = SortKeyOf, SortKeyOf }()
	for _, opt := range []Options{{}, {DeferIndexes: true}} {
		t.Run(fmt.Sprint(opt.DeferIndexes), func(t *testing.T) {
			db := openTempBank(t, opt)
			// One form a size, the same cells where the sizes share them;
			// levels alike, so that the puzzles share their (level, key).
			nine := bulkFamily(1, 1)
			nine.Level = 1
			batch := []NewFamily{smallFamily(0), nine, smallFamily(1)}
			mustWriteBatch(t, db, WriteResult{Families: 3, Puzzles: 3}, batch...)
			mustWriteBatch(t, db, WriteResult{DupFamilies: 3, DupPuzzles: 3}, batch...)
			mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1, DupFamilies: 1, DupPuzzles: 1}, smallFamily(2), batch[0])
			for _, n := range []int{4, 9} {
				var forms []string
				if err := db.EachCanon(context.Background(), n, func(c string) error { forms = append(forms, c); return nil }); err != nil {
					t.Fatal(err)
				}
				for _, c := range forms {
					f, err := db.FamilyByCanon(context.Background(), c)
					if err != nil || f.Canon != c || f.Size != n {
						t.Errorf("FamilyByCanon(%s) = %s of size %d, %v", c, f.Canon, f.Size, err)
					}
				}
			}
		})
	}
}

// The packing of every size gives back every grid text it takes, in
// packedLenOf bytes, and nothing it refuses.
func TestPackSizesRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sh := rapid.SampledFrom(grid.Shapes[:]).Draw(t, "shape")
		cells := rapid.SliceOfN(rapid.IntRange(0, sh.N), sh.Cells(), sh.Cells()).Draw(t, "cells")
		g := grid.New(sh)
		for i, v := range cells {
			g.Cells[i] = uint8(v)
		}
		s := g.String()
		b, err := appendPackedSize(nil, s, sh.N)
		if err != nil {
			t.Fatalf("pack %s: %v", s, err)
		}
		if len(b) != packedLenOf(sh.N) {
			t.Fatalf("%s packed in %d bytes, want %d", sh, len(b), packedLenOf(sh.N))
		}
		if got := unpackGridSize(b, sh.N); got != s {
			t.Fatalf("unpack(pack(%s)) = %s", s, got)
		}
	})
}

// FuzzPackSize feeds any text to the packing of each size: it packs only
// texts of the size's grid characters, and those unpack to themselves.
func FuzzPackSize(f *testing.F) {
	for _, s := range []string{"1234341221434321", "..3.2.6..9", strings.Repeat("G", 256), strings.Repeat("a", 144)} {
		f.Add(s, uint8(16))
	}
	f.Fuzz(func(t *testing.T, s string, i uint8) {
		sh := grid.Shapes[int(i)%len(grid.Shapes)]
		b, err := appendPackedSize([]byte("x"), s, sh.N)
		if err != nil {
			if string(b) != "x" {
				t.Fatalf("a refused text changed dst to %q", b)
			}
			return
		}
		if g, err := grid.ParseIn(sh, s); err != nil && !strings.Contains(err.Error(), "repeated") {
			t.Fatalf("packed %q, which grid refuses: %v", s, err)
		} else if err == nil && g.String() != s {
			t.Fatalf("packed %q, which is not grid's text %q", s, g.String())
		}
		if got := unpackGridSize(b[1:], sh.N); got != s {
			t.Fatalf("unpack(pack(%q)) = %q", s, got)
		}
	})
}

// A query of one size searches that size's entries of the index that
// gives its order, as a query of a 9x9 bank does: never a sort of every
// match, never a scan.
func TestSizePlans(t *testing.T) {
	db := openTempBank(t, Options{})
	for _, tt := range []struct {
		name   string
		filter Filter
		order  Order
		want   string
	}{
		{"Bucket", Filter{Size: 16, Levels: []int{3}, GivensMin: 120, GivensMax: 120}, OrderID, "SEARCH p USING INDEX puzzles_bucket (<expr>=?)"},
		{"Rating", Filter{Size: 16, RatingMin: 30}, OrderRating, "SEARCH p USING INDEX puzzles_er (size=? AND er>?)"},
		{"RatingLevels", Filter{Size: 4, Levels: []int{1, 2}}, OrderRating, "SEARCH p USING INDEX puzzles_er (size=?)"},
		{"Random", Filter{Size: 12, Levels: []int{2}}, OrderRandom, "puzzles_key (size=? AND level=? AND sort_key>? AND sort_key<?)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := tt.filter.withSizes(context.Background(), db.db)
			if err != nil {
				t.Fatal(err)
			}
			var (
				q    string
				args []any
			)
			if tt.order == OrderRandom {
				var w string
				var join bool
				w, args, join, err = f.where("p", "p.family_id", indexable{level: true})
				q = slotsSQL(w, join, false, 2)
				args = append([]any{int64(5), int64(9), int64(20), int64(30)}, args...)
			} else {
				q, args, err = listSQL(f, QueryOptions{Order: tt.order})
			}
			if err != nil {
				t.Fatal(err)
			}
			checkPlan(t, db, tt.want, "TEMP B-TREE", q, args...)
			if strings.Contains(queryPlan(t, db, q, args...), "SCAN p") {
				t.Errorf("plan scans the puzzles:\n%s", queryPlan(t, db, q, args...))
			}
		})
	}
	// A count of one size's bucket range reads that range alone.
	f, err := Filter{Size: 16, Levels: []int{2, 3}, GivensMin: 100, GivensMax: 130, Minimal: true}.withSizes(context.Background(), db.db)
	if err != nil {
		t.Fatal(err)
	}
	q, args, err := countPuzzlesSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, db, "SEARCH p USING INDEX puzzles_bucket (<expr>>? AND <expr><?)", "SCAN p", q, args...)
}
