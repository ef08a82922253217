package store

import (
	"cmp"
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// bulkFamily is a family of level 2 with the puzzles tag 'b' and the
// numbers ns give (see grid in helpers_test.go for the idea).
func bulkFamily(canon int, ns ...int) NewFamily {
	g := func(n int) string {
		s := []byte(oneFamily(0)[0].Puzzles[0].Puzzle)
		for i := 0; n > 0; i, n = i+1, n/9 {
			s[80-i] = byte('1' + n%9)
		}
		return string(s)
	}
	f := NewFamily{Family: Family{Canon: g(1_000_000 + canon), ER: 20, Level: 2, Givens: 25, Source: "gen"}}
	for _, n := range ns {
		f.Puzzles = append(f.Puzzles, Puzzle{Puzzle: g(n), Solution: g(999_999)})
	}
	return f
}

func mustWriteBatch(t *testing.T, db *DB, want WriteResult, batch ...NewFamily) {
	t.Helper()
	got, err := db.WriteBatch(context.Background(), batch)
	if err != nil {
		t.Fatal(err)
	}
	got.Levels = [6]int{} // TestWriteBatchCapped tests them
	if got != want {
		t.Errorf("WriteBatch = %+v, want %+v", got, want)
	}
}

// TestBulkCrash kills a bulk writer (its connection closes without
// Close): the next writer builds the key index, which cannot fail, and
// finds the dead writer's strings.
func TestBulkCrash(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(ctx, path, Options{DeferIndexes: true})
	if err != nil {
		t.Fatal(err)
	}
	if db.bulk == nil {
		t.Fatal("a writer with DeferIndexes on an empty bank is not in bulk mode")
	}
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 3, DupPuzzles: 1}, bulkFamily(1, 1, 2, 3, 2))
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1, DupPuzzles: 2}, bulkFamily(2, 3, 4, 1))
	db.db.Close()

	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := puzzleIndexes(t, db); !slices.Contains(got, "puzzles_key") {
		t.Errorf("indexes after the crash = %v, want puzzles_key among them", got)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	mustWriteBatch(t, db, WriteResult{Puzzles: 1, DupFamilies: 1, DupPuzzles: 4}, bulkFamily(2, 1, 2, 3, 4, 5))
}

// TestBulkOtherWriter has a second writer store puzzles while the first
// is in bulk mode: the second builds the key index the first deferred,
// and the first, which no longer knows every stored key, goes on with it.
func TestBulkOtherWriter(t *testing.T) {
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
	if bulk.bulk == nil {
		t.Fatal("not in bulk mode")
	}
	mustWriteBatch(t, bulk, WriteResult{Families: 1, Puzzles: 2}, bulkFamily(1, 1, 2))
	// Without the index, only the bulk writer's memory knows 1 and 2.
	mustWriteBatch(t, other, WriteResult{Families: 1, Puzzles: 1, DupPuzzles: 2}, bulkFamily(2, 1, 2, 3))
	if got := puzzleIndexes(t, other); !slices.Contains(got, "puzzles_key") {
		t.Errorf("indexes after the other writer's batch = %v, want puzzles_key among them", got)
	}
	mustWriteBatch(t, bulk, WriteResult{Puzzles: 1, DupFamilies: 1, DupPuzzles: 1}, bulkFamily(1, 3, 4))
	if bulk.bulk != nil {
		t.Error("still in bulk mode after another writer stored puzzles")
	}
	if err := bulk.BuildIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if err := bulk.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestBulkLimit lowers the number of keys a bulk writer keeps: past it,
// the writer builds the key index and goes on with it, and the other
// indexes stay deferred.
func TestBulkLimit(t *testing.T) {
	defer func(n int) { bulkKeyLimit = n }(bulkKeyLimit)
	bulkKeyLimit = 5
	ctx := context.Background()
	db := openTempBank(t, Options{DeferIndexes: true})
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 3}, bulkFamily(1, 1, 2, 3))
	if db.bulk == nil || db.bulk.n != 3 {
		t.Fatalf("bulk keys = %+v, want 3", db.bulk)
	}
	// A batch counts against the limit with all its rows, duplicates
	// too: 3 + 2 is not past 5.
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1, DupPuzzles: 1}, bulkFamily(2, 3, 4))
	if db.bulk == nil {
		t.Fatal("left bulk mode at the limit, not past it")
	}
	mustWriteBatch(t, db, WriteResult{Puzzles: 1, DupFamilies: 1, DupPuzzles: 2}, bulkFamily(2, 4, 1, 6))
	if db.bulk != nil {
		t.Error("still in bulk mode past the limit")
	}
	if got, want := puzzleIndexes(t, db), []string{"puzzles_key"}; !slices.Equal(got, want) {
		t.Errorf("indexes past the limit = %v, want %v", got, want)
	}
	if !db.deferred {
		t.Error("the other indexes are no longer deferred")
	}
	if err := db.BuildIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestKeySetMerge checks the merge of committed rows into a level's keys
// against a sort, with keys before, between and after the stored ones.
func TestKeySetMerge(t *testing.T) {
	var s keySet
	var want []keySlot
	for i, keys := range [][]int64{{10, 20, 30}, {5, 15, 25, 35}, {1, 2, 3}, {40, 50}, {21, 22}} {
		var rows []pending
		for j, k := range keys {
			id := int64(10*i + j + 1)
			rows = append(rows, pending{level: 3, key: k, id: id})
			want = append(want, keySlot{k, id})
		}
		s.add(rows)
	}
	slices.SortFunc(want, func(a, b keySlot) int { return int(a.key - b.key) })
	if !slices.Equal(s.levels[3], want) {
		t.Errorf("keys = %v, want %v", s.levels[3], want)
	}
	if s.n != len(want) || s.nextID != 43 {
		t.Errorf("n, nextID = %d, %d, want %d, 43", s.n, s.nextID, len(want))
	}
	got, _ := s.inWindow(3, 16, 25, 0)
	if w := []keySlot{{20, 2}, {21, 41}, {22, 42}, {25, 13}}; !slices.Equal(got, w) {
		t.Errorf("inWindow(16, 25) = %v, want %v", got, w)
	}
}

// TestKeySetWindows walks ascending windows over random keys, each
// search starting where the last one found its first slot, as
// storedInWindows does, and compares with a filter of all the keys.
func TestKeySetWindows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s keySet
	var rows []pending
	for i := range 5000 {
		rows = append(rows, pending{level: 1, key: rng.Int64N(100_000), id: int64(i + 1)})
	}
	slices.SortFunc(rows, func(a, b pending) int { return cmp.Compare(a.key, b.key) })
	s.add(rows)
	from := 0
	for lo := int64(-5); lo < 100_010; lo += 1 + rng.Int64N(300) {
		hi := lo + rng.Int64N(40)
		var got []keySlot
		got, from = s.inWindow(1, lo, hi, from)
		var want []keySlot
		for _, e := range s.levels[1] {
			if e.key >= lo && e.key <= hi {
				want = append(want, e)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("inWindow(%d, %d) = %v, want %v", lo, hi, got, want)
		}
	}
}
