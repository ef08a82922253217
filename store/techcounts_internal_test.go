package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// recountTechniques counts, for every (level, technique) the bank's
// families mention, the families and puzzles the technique filter's own
// SQL selects: the truth the kept counts must equal.
func recountTechniques(t *testing.T, db *DB) map[techKey][2]int64 {
	t.Helper()
	ctx := context.Background()
	var slugs []string
	rows, err := db.db.QueryContext(ctx, "SELECT path FROM families UNION SELECT technique FROM family_techniques")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		if pathHasCounts(s) {
			pathTechniques(s, func(x string) { seen[x] = true })
		} else {
			for _, x := range strings.Fields(s) {
				seen[x] = true
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	slugs = slices.Sorted(maps.Keys(seen))
	out := map[techKey][2]int64{}
	for _, slug := range slugs {
		for level := 1; level <= 5; level++ {
			f := Filter{Levels: []int{level}, Technique: slug}
			wf, af, _, err := f.where("f", "f.id", anyIndex)
			if err != nil {
				t.Fatal(err)
			}
			wp, ap, _, err := f.where("p", "p.family_id", anyIndex)
			if err != nil {
				t.Fatal(err)
			}
			var c [2]int64
			if err := db.db.GetContext(ctx, &c[0], "SELECT count(*) FROM families f WHERE "+wf, af...); err != nil {
				t.Fatal(err)
			}
			if err := db.db.GetContext(ctx, &c[1], "SELECT count(*) FROM puzzles p JOIN families f ON f.id = p.family_id WHERE "+wp, ap...); err != nil {
				t.Fatal(err)
			}
			if c[0] > 0 || c[1] > 0 {
				out[techKey{9, level, slug}] = c
			}
		}
	}
	return out
}

// keptTechniques returns the counts the bank keeps.
func keptTechniques(t *testing.T, db *DB) map[techKey][2]int64 {
	t.Helper()
	var rows []TechniqueCount
	if err := db.db.SelectContext(context.Background(), &rows,
		"SELECT size, level, technique, families, puzzles FROM technique_counts WHERE families <> 0 OR puzzles <> 0"); err != nil {
		t.Fatal(err)
	}
	out := map[techKey][2]int64{}
	for _, r := range rows {
		out[techKey{r.Size, r.Level, r.Technique}] = [2]int64{r.Families, r.Puzzles}
	}
	return out
}

func checkTechniqueCounts(t *testing.T, db *DB, when string) {
	t.Helper()
	got, want := keptTechniques(t, db), recountTechniques(t, db)
	if len(want) == 0 {
		t.Fatalf("%s: the recount found no technique at all", when)
	}
	for k, w := range want {
		if g := got[k]; g != w {
			t.Errorf("%s: level %d %s: kept families/puzzles %v, want %v", when, k.level, k.technique, g, w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: level %d %s: kept %v, want none", when, k.level, k.technique, g)
		}
	}
}

// techGrid returns a distinct grid string for n: its base-9 digits plus
// one, after empty cells.
func techGrid(n int) string {
	d := []byte(strconv.FormatInt(int64(n), 9))
	for i := range d {
		d[i]++
	}
	return strings.Repeat(".", 81-len(d)) + string(d)
}

var testSlugs = []string{"full-house", "hidden-single-box", "naked-single", "x-wing", "swordfish", "jellyfish", "aic", "nishio"}

// randomTechFamily is family n of a small pool with a random level and
// technique sequence, in the runs form or, if list, the list form with
// its counts; it has k variants drawn from a pool of 3 per family, so
// that batches repeat strings and families.
func randomTechFamily(r *rand.Rand, n int, list bool) NewFamily {
	var steps []string
	for range 1 + r.IntN(12) {
		steps = append(steps, testSlugs[r.IntN(len(testSlugs))])
	}
	f := NewFamily{Family: Family{
		Canon: techGrid(n), ER: 20 + r.IntN(60), EP: 10, ED: 10, Level: 1 + r.IntN(5),
		Score: 1, Givens: 22 + r.IntN(5), MinRowCol: 1, Hardest: steps[0], Symmetry: "none", Source: "gen",
	}}
	if list {
		f.Path = strings.Join(steps, " ")
		f.Techniques = map[string]int{}
		for _, s := range steps {
			f.Techniques[s]++
		}
	} else {
		var err error
		if f.Path, err = EncodePath(steps); err != nil {
			panic(err)
		}
	}
	for range r.IntN(4) {
		p := techGrid(1_000_000 + 10*n + r.IntN(3))
		f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: p, Solution: p})
	}
	return f
}

// TestTechniqueCountsStayExact writes random batches that repeat
// families and puzzles within and across batches, in both path forms,
// with a live writer and a bulk one, and checks the kept counts against
// a recount by the technique filter after every batch. A repeated family
// comes with a different random grade: its new variants count under the
// stored family's techniques, which are the ones the filter sees.
func TestTechniqueCountsStayExact(t *testing.T) {
	for _, bulk := range []bool{false, true} {
		t.Run(fmt.Sprintf("Bulk%v", bulk), func(t *testing.T) {
			ctx := context.Background()
			db := openTempBank(t, Options{DeferIndexes: bulk})
			r := rand.New(rand.NewPCG(7, uint64(len(t.Name()))))
			for b := range 12 {
				var batch []NewFamily
				for range 1 + r.IntN(30) {
					n := r.IntN(60) // 60 canonical forms: many repeats
					batch = append(batch, randomTechFamily(r, n, n%3 == 0))
				}
				if _, err := db.WriteBatch(ctx, batch); err != nil {
					t.Fatal(err)
				}
				checkTechniqueCounts(t, db, fmt.Sprintf("after batch %d", b))
			}
			if err := db.IntegrityCheck(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTechniqueCountsFamilyOfOtherLevel: a later variant of a stored
// family counts under the stored family's level and techniques, not the
// level and techniques the batch claims for it.
func TestTechniqueCountsFamilyOfOtherLevel(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	canon := techGrid(5)
	path, _ := EncodePath([]string{"full-house", "x-wing", "full-house"})
	first := NewFamily{
		Family:  Family{Canon: canon, ER: 30, Level: 3, Givens: 25, Path: path, Source: "gen"},
		Puzzles: []Puzzle{{Puzzle: canon, Solution: canon}},
	}
	if _, err := db.WriteBatch(ctx, []NewFamily{first}); err != nil {
		t.Fatal(err)
	}
	again := first
	again.Level, again.Path = 5, ",aic,a"
	v := techGrid(6)
	again.Puzzles = []Puzzle{{Puzzle: v, Solution: v}, {Puzzle: canon, Solution: canon}}
	res, err := db.WriteBatch(ctx, []NewFamily{again})
	if err != nil {
		t.Fatal(err)
	}
	if want := (WriteResult{Puzzles: 1, DupFamilies: 1, DupPuzzles: 1}); res != want {
		t.Fatalf("second batch = %+v, want %+v", res, want)
	}
	want := map[techKey][2]int64{{9, 3, "full-house"}: {1, 2}, {9, 3, "x-wing"}: {1, 2}}
	if got := keptTechniques(t, db); !maps.Equal(got, want) {
		t.Errorf("counts = %v, want %v", got, want)
	}
	checkTechniqueCounts(t, db, "after the repeat")
}

// TestTechniqueCountsImportBatch writes a batch like an import's: new
// variants of several stored families, in both path forms, some of them
// twice in the batch from different runs, beside a new family repeated
// from another run. Each puzzle counts once, under its stored family's
// level and techniques, and under the run of the batch family it came
// with, in the technique, bucket and run counts.
func TestTechniqueCountsImportBatch(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	r1, err := db.StartRun(ctx, Run{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := db.StartRun(ctx, Run{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	family := func(n, level, givens int, run int64, steps []string, puzzles ...int) NewFamily {
		f := NewFamily{Family: Family{Canon: techGrid(n), ER: 30, Level: level, Givens: givens, Source: "gen", RunID: run}}
		if steps == nil {
			f.Path, f.Techniques = "naked-single aic aic", map[string]int{"naked-single": 1, "aic": 2}
		} else if f.Path, err = EncodePath(steps); err != nil {
			t.Fatal(err)
		}
		for _, p := range puzzles {
			f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: techGrid(p), Solution: techGrid(p)})
		}
		return f
	}
	a := family(1, 2, 25, r1, []string{"full-house", "x-wing"}, 101)
	b := family(2, 4, 24, 0, nil, 201) // the list form
	c := family(3, 2, 25, 0, []string{"full-house", "swordfish"}, 301)
	if _, err := db.WriteBatch(ctx, []NewFamily{a, b, c}); err != nil {
		t.Fatal(err)
	}
	// The import's copy of a claims another level and path: the stored
	// family's count.
	aCopy := family(1, 5, 30, 0, []string{"aic"}, 102, 103, 101)
	res, err := db.WriteBatch(ctx, []NewFamily{
		aCopy,
		family(2, 4, 24, 0, nil, 202),
		family(1, 2, 25, r2, []string{"full-house", "x-wing"}, 104),
		family(3, 2, 25, 0, []string{"full-house", "swordfish"}, 301), // nothing new
		family(4, 2, 30, r2, []string{"x-wing"}, 401),
		family(4, 2, 30, r1, []string{"x-wing"}, 402), // a repeat of a new family, from another run
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := (WriteResult{Families: 1, Puzzles: 6, DupFamilies: 5, DupPuzzles: 2, Levels: [6]int{2: 1}}); res != want {
		t.Errorf("import batch = %+v, want %+v", res, want)
	}
	wantTech := map[techKey][2]int64{
		{9, 2, "full-house"}: {2, 5}, {9, 2, "x-wing"}: {2, 6}, {9, 2, "swordfish"}: {1, 1},
		{9, 4, "naked-single"}: {1, 2}, {9, 4, "aic"}: {1, 2},
	}
	if got := keptTechniques(t, db); !maps.Equal(got, wantTech) {
		t.Errorf("technique counts = %v, want %v", got, wantTech)
	}
	checkTechniqueCounts(t, db, "after the import batch")
	var buckets []Bucket
	if err := db.db.SelectContext(ctx, &buckets, "SELECT level, givens, families, puzzles FROM buckets ORDER BY level, givens"); err != nil {
		t.Fatal(err)
	}
	wantBuckets := []Bucket{{Level: 2, Givens: 25, Families: 2, Puzzles: 5}, {Level: 2, Givens: 30, Families: 1, Puzzles: 2}, {Level: 4, Givens: 24, Families: 1, Puzzles: 2}}
	if !slices.Equal(buckets, wantBuckets) {
		t.Errorf("buckets = %+v, want %+v", buckets, wantBuckets)
	}
	runs, err := db.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64][2]int64{}
	for _, r := range runs {
		got[r.ID] = [2]int64{r.Families, r.Puzzles}
	}
	if want := map[int64][2]int64{r1: {1, 2}, r2: {1, 2}}; !maps.Equal(got, want) {
		t.Errorf("run families/puzzles = %v, want %v", got, want)
	}
}

func TestPathTechniques(t *testing.T) {
	tests := []struct {
		path string
		want []string
	}{
		{",full-house,a", []string{"full-house"}},
		{",x-wing,full-house,a2ba", []string{"x-wing", "full-house"}},
		{",a,ab,b,abc", []string{"a", "ab", "b"}},
		{",ab,a,ab,b,a2b", []string{"ab", "a", "b"}}, // not EncodePath's: a repeat counts once
		{",", nil},
	}
	for _, tt := range tests {
		var got []string
		pathTechniques(tt.path, func(s string) { got = append(got, s) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("pathTechniques(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestTechniqueCountsMigration upgrades a bank that the schema-5 code
// wrote (testdata/schema5.sql: generated families in the runs form,
// list-form families with family_techniques rows, families without
// variants, later variants of stored families): 0007 must fill the
// counts the technique filter gives, and writes after it keep them.
func TestTechniqueCountsMigration(t *testing.T) {
	ctx := context.Background()
	dump, err := os.ReadFile("testdata/schema5.sql")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bank.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, string(dump)); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v, lists, runs int
	for q, p := range map[string]*int{
		"PRAGMA user_version": &v,
		"SELECT count(*) FROM families WHERE path <> '' AND substr(path, 1, 1) <> ','": &lists,
		"SELECT count(*) FROM families WHERE substr(path, 1, 1) = ','":                 &runs,
	} {
		if err := db.db.GetContext(ctx, p, q); err != nil {
			t.Fatal(err)
		}
	}
	if latest, _ := latestVersion(migrationFS); v != latest || lists == 0 || runs == 0 {
		t.Fatalf("migrated bank: version %d (want %d), %d list-form and %d runs-form families (want some of each)", v, latest, lists, runs)
	}
	checkTechniqueCounts(t, db, "after the migration")
	// The fixture's families 1..8 again, each with one new variant.
	r := rand.New(rand.NewPCG(1, 2))
	var batch []NewFamily
	for n := 1; n <= 8; n++ {
		f := randomTechFamily(r, n, false)
		f.Puzzles = []Puzzle{{Puzzle: techGrid(7000 + n), Solution: techGrid(7000 + n)}}
		batch = append(batch, f)
	}
	batch = append(batch, randomTechFamily(r, 100, true))
	res, err := db.WriteBatch(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	if res.DupFamilies != 8 || res.Families != 1 {
		t.Errorf("batch after the migration = %+v, want 8 families repeated and 1 new", res)
	}
	checkTechniqueCounts(t, db, "after a batch on the migrated bank")
}
