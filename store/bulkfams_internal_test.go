package store

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// familyIndexes returns the names of the families table's indexes, the
// automatic ones too.
func familyIndexes(t *testing.T, db *DB) []string {
	t.Helper()
	var names []string
	if err := db.db.SelectContext(context.Background(), &names, "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'families' ORDER BY name"); err != nil {
		t.Fatal(err)
	}
	return names
}

// withCanonKey swaps canonKey for the test.
func withCanonKey(t *testing.T, h func(string) int64) {
	old := canonKey
	canonKey = h
	t.Cleanup(func() { canonKey = old })
}

// TestBulkFamilies writes families repeated within a batch and across
// batches, with the stored grade differing from the repeat's: a bulk
// writer, which finds stored forms in memory, must count and place them
// as a writer with the live index does; also when every form has one
// hash, or hashes shared by pairs, so that the stored forms are told
// apart by their text.
func TestBulkFamilies(t *testing.T) {
	hashes := []struct {
		name string
		h    func(string) int64
	}{
		{"RealHash", nil},
		{"OneHash", func(string) int64 { return 42 }},
		// Forms that differ only in their last cell collide: all four
		// here, but none with a form of another test.
		{"PrefixHash", func(s string) int64 { return canonKeyOf(s[:80]) }},
	}
	for _, hh := range hashes {
		for _, tt := range []struct {
			name string
			opt  Options
		}{
			{"Live", Options{}},
			{"Bulk", Options{DeferIndexes: true}},
		} {
			t.Run(hh.name+tt.name, func(t *testing.T) {
				if hh.h != nil {
					withCanonKey(t, hh.h)
				}
				db, err := Open(context.Background(), filepath.Join(t.TempDir(), "bank.db"), tt.opt)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				if got, want := db.canons != nil, tt.opt.DeferIndexes; got != want {
					t.Fatalf("bulk mode for families = %v, want %v", got, want)
				}
				wantIdx := []string{"families_canon_key", "families_sample"}
				if tt.opt.DeferIndexes {
					wantIdx = nil
				}
				if got := familyIndexes(t, db); !slices.Equal(got, wantIdx) {
					t.Errorf("families' indexes = %v, want %v", got, wantIdx)
				}
				testFamilyRepeats(t, db)
				if got, want := db.canons != nil, tt.opt.DeferIndexes; got != want {
					t.Errorf("bulk mode for families after the batches = %v, want %v", got, want)
				}
				if err := db.BuildIndexes(context.Background()); err != nil {
					t.Fatal(err)
				}
				if got := familyIndexes(t, db); !slices.Equal(got, []string{"families_canon_key", "families_sample"}) {
					t.Errorf("families' indexes after BuildIndexes = %v, want [families_canon_key families_sample]", got)
				}
				if db.canons != nil {
					t.Error("still in bulk mode for families after BuildIndexes")
				}
				if err := db.IntegrityCheck(context.Background()); err != nil {
					t.Error(err)
				}
				// With the index built, a stored form is still a repeat.
				mustWriteBatch(t, db, WriteResult{Puzzles: 1, DupFamilies: 1}, levelFamily(3, 5, 9))
			})
		}
	}
}

// canonKeyOf is the real canonKey, whatever a test swapped in.
var canonKeyOf = canonKey

// levelFamily is bulkFamily(canon, ns...) at the given level.
func levelFamily(canon, level int, ns ...int) NewFamily {
	f := bulkFamily(canon, ns...)
	f.Level = level
	return f
}

func testFamilyRepeats(t *testing.T, db *DB) {
	ctx := context.Background()
	mustWriteBatch(t, db, WriteResult{Families: 2, Puzzles: 4, DupFamilies: 1},
		levelFamily(1, 1, 1, 2), levelFamily(2, 2, 3), levelFamily(1, 4, 4))
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 2, DupFamilies: 2, DupPuzzles: 2},
		levelFamily(2, 4, 3, 5), levelFamily(3, 3, 6), levelFamily(1, 1, 1))
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 3, DupFamilies: 2},
		levelFamily(3, 5, 7), levelFamily(4, 5, 10), levelFamily(3, 1, 8))
	// Each puzzle is in the family of its form, with the grade stored
	// first.
	for _, c := range []struct{ puzzle, form, level int }{
		{1, 1, 1}, {2, 1, 1}, {4, 1, 1}, {3, 2, 2}, {5, 2, 2}, {6, 3, 3}, {7, 3, 3}, {8, 3, 3}, {10, 4, 5},
	} {
		r, err := db.PuzzleByString(ctx, bulkFamily(0, c.puzzle).Puzzles[0].Puzzle)
		if err != nil {
			t.Fatalf("puzzle %d: %v", c.puzzle, err)
		}
		f, err := db.Family(ctx, r.FamilyID)
		if err != nil {
			t.Fatalf("puzzle %d: %v", c.puzzle, err)
		}
		if f.Canon != bulkFamily(c.form).Canon || r.Level != c.level || f.Level != c.level {
			t.Errorf("puzzle %d: family %s, level %d (family's %d); want %s, %d", c.puzzle, f.Canon, r.Level, f.Level, bulkFamily(c.form).Canon, c.level)
		}
	}
	// A bulk writer gives the new families the next IDs.
	if db.canons != nil && db.canons.n != 4 {
		t.Errorf("bulk set of %d families, want 4", db.canons.n)
	}
	if st, err := db.Stats(ctx); err != nil || st.Families != 4 || st.Puzzles != 9 {
		t.Errorf("Stats = %d families, %d puzzles, %v; want 4, 9", st.Families, st.Puzzles, err)
	}
}

// TestBulkFamiliesCrash kills a bulk writer: the next writer builds the
// index of the canonical forms, unique, and finds the dead writer's.
func TestBulkFamiliesCrash(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(ctx, path, Options{DeferIndexes: true})
	if err != nil {
		t.Fatal(err)
	}
	mustWriteBatch(t, db, WriteResult{Families: 2, Puzzles: 2}, bulkFamily(1, 1), bulkFamily(2, 2))
	var deferred []string
	if err := db.db.SelectContext(ctx, &deferred, "SELECT name FROM deferred_indexes ORDER BY name"); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(deferred, "families_canon_key") {
		t.Errorf("deferred indexes = %v, want families_canon_key among them", deferred)
	}
	db.db.Close()

	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var sql string
	if err := db.db.GetContext(ctx, &sql, "SELECT sql FROM sqlite_schema WHERE name = 'families_canon_key'"); err != nil {
		t.Fatalf("families_canon_key after the crash: %v", err)
	}
	if !strings.HasPrefix(sql, "CREATE UNIQUE INDEX") {
		t.Errorf("families_canon_key after the crash is %q, want a unique index", sql)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 3, DupFamilies: 2}, bulkFamily(2, 3), bulkFamily(3, 4), bulkFamily(1, 5))
}

// TestBulkFamiliesOtherWriter has a second writer store families while
// the first is in bulk mode: the second builds the index of the keys the
// first deferred and finds the first's families by it; the first, which
// no longer knows every stored form, goes on with the index.
func TestBulkFamiliesOtherWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	other, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	bulk, err := Open(ctx, path, Options{DeferIndexes: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bulk.Close()
	if bulk.canons == nil {
		t.Fatal("not in bulk mode for families")
	}
	mustWriteBatch(t, bulk, WriteResult{Families: 1, Puzzles: 1}, bulkFamily(1, 1))
	// A new variant of a stored family: a new puzzle, no new family. The
	// bulk writer's forms still tell every stored family; its keys no
	// longer tell every stored puzzle.
	mustWriteBatch(t, other, WriteResult{Puzzles: 1, DupFamilies: 1}, bulkFamily(1, 2))
	if got := familyIndexes(t, other); !slices.Equal(got, []string{"families_canon_key"}) {
		t.Errorf("families' indexes after the other writer's batch = %v, want [families_canon_key]", got)
	}
	mustWriteBatch(t, bulk, WriteResult{Families: 1, Puzzles: 1, DupFamilies: 1, DupPuzzles: 1}, bulkFamily(1, 2), bulkFamily(2, 3))
	if bulk.bulk != nil || bulk.canons == nil {
		t.Errorf("bulk mode for puzzles, families = %v, %v; want false, true", bulk.bulk != nil, bulk.canons != nil)
	}
	// A new family from the other writer ends the bulk writer's bulk mode
	// for families too.
	mustWriteBatch(t, other, WriteResult{Families: 1, Puzzles: 2, DupFamilies: 1}, bulkFamily(2, 4), bulkFamily(3, 5))
	mustWriteBatch(t, bulk, WriteResult{Families: 1, Puzzles: 1, DupFamilies: 3}, bulkFamily(1, 6), bulkFamily(2), bulkFamily(3), bulkFamily(4))
	if bulk.canons != nil {
		t.Error("still in bulk mode for families after another writer stored families")
	}
	if err := bulk.BuildIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if err := bulk.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestBulkFamilyLimit lowers the number of families a bulk writer keeps:
// past it, the writer builds the index of the keys and goes on with it,
// and the other deferred indexes stay deferred.
func TestBulkFamilyLimit(t *testing.T) {
	defer func(n int) { bulkFamilyLimit = n }(bulkFamilyLimit)
	bulkFamilyLimit = 3
	ctx := context.Background()
	db := openTempBank(t, Options{DeferIndexes: true})
	mustWriteBatch(t, db, WriteResult{Families: 2, Puzzles: 2}, bulkFamily(1, 1), bulkFamily(2, 2))
	// A batch counts against the limit with all its families, repeats
	// too: 2 + 1 is not past 3.
	mustWriteBatch(t, db, WriteResult{DupFamilies: 1, DupPuzzles: 1}, bulkFamily(1, 1))
	if db.canons == nil {
		t.Fatal("left bulk mode for families at the limit, not past it")
	}
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1, DupFamilies: 1}, bulkFamily(2), bulkFamily(3, 3))
	if db.canons != nil {
		t.Error("still in bulk mode for families past the limit")
	}
	if db.bulk == nil || !db.deferred {
		t.Error("past the families' limit, the puzzles' bulk mode or deferred indexes ended too")
	}
	if got := familyIndexes(t, db); !slices.Equal(got, []string{"families_canon_key"}) {
		t.Errorf("families' indexes past the limit = %v, want [families_canon_key]", got)
	}
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1, DupFamilies: 3}, bulkFamily(1), bulkFamily(2), bulkFamily(3), bulkFamily(4, 4))
	if err := db.BuildIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestFamSet compares the set's lookups with a list of its hashes, over
// enough families to double the table several times, with hashes that
// share few slots of the table.
func TestFamSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := newFamSet()
	var hashes []uint64
	for n := 1; n <= 20_000; n++ {
		// The table's slot is the hash's low bits: these share few
		// slots. The hashes are unique, as the writer keeps the keys.
		h := rng.Uint64N(5_000_000) * 1024
		if n%3 == 0 {
			h = rng.Uint64()
		}
		if slices.Contains(hashes, h) {
			n--
			continue
		}
		s.insert(h)
		hashes = append(hashes, h)
		if n%997 != 0 && n != 20_000 {
			continue
		}
		for range 50 {
			h := hashes[rng.IntN(len(hashes))]
			if rng.IntN(4) == 0 {
				h = rng.Uint64()
			}
			var got, want []int64
			if id, ok := s.get(h); ok {
				got = append(got, id)
			}
			for i, x := range hashes {
				if x == h {
					want = append(want, int64(i+1))
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("after %d families: get(%#x) = %v, want %v", n, h, got, want)
			}
		}
	}
	if s.n != len(hashes) {
		t.Errorf("n = %d, want %d", s.n, len(hashes))
	}
}

// TestFamSetMemory checks the memory bulkFamilyMemory and BulkKeyMemory
// state: 8 bytes a family in chunks of famChunk, and 4 a table slot. Just
// past a doubling of the table, where a family takes the most, that is
// under 20 bytes a family.
func TestFamSetMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a set of 800,000 families")
	}
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	before := m.HeapAlloc
	s := newFamSet()
	n := 1<<20/4*3 + 1 // the table doubles to 2^21 slots
	rng := rand.New(rand.NewPCG(5, 6))
	for range n {
		s.insert(rng.Uint64())
	}
	runtime.GC()
	runtime.ReadMemStats(&m)
	got := int64(m.HeapAlloc - before)
	runtime.KeepAlive(s)
	if len(s.table) != 1<<21 {
		t.Fatalf("table of %d slots, want %d", len(s.table), 1<<21)
	}
	want := int64(8*famChunk*len(s.chunks) + 4*len(s.table))
	if got > want+64<<10 || float64(got)/float64(n) >= 20 {
		t.Errorf("a set of %d families holds %d bytes (%.1f a family), want %d and under 20 a family", n, got, float64(got)/float64(n), want)
	}
	t.Logf("%d families: %.1f bytes a family", n, float64(got)/float64(n))
}

// TestBuildIndexesCheckpoints checks that BuildIndexes leaves no page of
// the bank in the WAL only: the file holds every page, so the next commit
// has no checkpoint of the build to stall on. Without the checkpoint, a
// build this small leaves its pages in the WAL (well short of the
// automatic checkpoint's 1,000), and the file is short of them.
func TestBuildIndexesCheckpoints(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{DeferIndexes: true})
	mustWriteBatch(t, db, WriteResult{Families: 3, Puzzles: 3}, bulkFamily(1, 1), bulkFamily(2, 2), bulkFamily(3, 3))
	if err := db.BuildIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	var pages, size int64
	if err := db.db.GetContext(ctx, &pages, "PRAGMA page_count"); err != nil {
		t.Fatal(err)
	}
	if err := db.db.GetContext(ctx, &size, "PRAGMA page_size"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(db.path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != pages*size {
		t.Errorf("after BuildIndexes the file has %d bytes, the bank %d pages of %d: not checkpointed", fi.Size(), pages, size)
	}
}
