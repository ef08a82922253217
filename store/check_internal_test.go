package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"sudokubank/gen"
)

// checkedBank returns a bank of a few real families, with variants, a
// technique path and a pack, closed when the test ends.
func checkedBank(t *testing.T) *DB {
	t.Helper()
	ctx := context.Background()
	db := openTempBank(t, Options{})
	rng := rand.New(rand.NewPCG(3, 4))
	path, err := EncodePath([]string{"hidden-single", "naked-single", "hidden-single"})
	if err != nil {
		t.Fatal(err)
	}
	var batch []NewFamily
	for _, base := range []gen.Transform{gen.Identity(), gen.MirrorLR(), gen.Turn90()} {
		f, _ := variantFamily(t, base, gen.Identity(), gen.RandomTransform(rng), gen.RandomTransform(rng))
		f.Path = path
		batch = append(batch, f)
	}
	if _, err := db.WriteBatch(ctx, batch); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CreatePack(ctx, PackSpec{Name: "p", Client: "c"}, Filter{}, QueryOptions{}, 2); err != nil {
		t.Fatal(err)
	}
	return db
}

// mustCheck runs db.Check and fails the test on error.
func mustCheck(t *testing.T, db *DB, quick bool) Report {
	t.Helper()
	r, err := db.Check(context.Background(), quick)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCheck damages a whole bank in one way at a time, through SQL that
// goes around the writer, and checks that Check names the damage.
func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		sql   string
		quick bool   // found by the quick check too
		want  string // in a problem
	}{
		{"Whole", "", true, ""},
		{"Bucket", "UPDATE buckets SET families = families + 1 WHERE level = 2", true, "buckets: level 2"},
		{"BucketPuzzles", "UPDATE buckets SET puzzles = 0", true, "buckets: level 2"},
		{"TechniqueCount", "UPDATE technique_counts SET puzzles = puzzles + 1 WHERE technique = 'naked-single'", true, "technique_counts: level 2 naked-single"},
		{"PackCount", "UPDATE packed_families SET packs = 2", true, "packed_families"},
		{"ClientCount", "DELETE FROM client_families", true, "client_families"},
		{"ForeignKey", "PRAGMA foreign_keys = OFF; DELETE FROM packs", true, "refers to a missing packs row"},
		{"Canon", "PRAGMA ignore_check_constraints = ON; DROP INDEX families_canon_key; UPDATE families SET canon = (SELECT canon FROM families WHERE id = 1)", true, "stored 3 times"},
		{"SortKey", "UPDATE puzzles SET sort_key = sort_key + 1 WHERE id = 1", false, "sort key"},
		{"Repeat", "DROP INDEX puzzles_key; INSERT INTO puzzles (family_id, code, sort_key, level, givens, er) SELECT family_id, code, sort_key, level, givens, er FROM puzzles WHERE id = 1; UPDATE buckets SET puzzles = puzzles + 1; UPDATE technique_counts SET puzzles = puzzles + 1", false, "stored 2 times"},
		{"Solution", "UPDATE families SET solution = (SELECT solution FROM families WHERE id = 2) WHERE id = 1", false, "its solution"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := checkedBank(t)
			if tt.sql != "" {
				if _, err := db.db.Exec(tt.sql); err != nil {
					t.Fatal(err)
				}
				// The connection goes back with its checks on.
				db.db.Exec("PRAGMA foreign_keys = ON; PRAGMA ignore_check_constraints = OFF")
			}
			for _, quick := range []bool{false, true} {
				r := mustCheck(t, db, quick)
				found := tt.want != "" && (!quick || tt.quick)
				if found != !r.OK() {
					t.Errorf("quick %v: problems %q, want some: %v", quick, r.Problems, found)
				}
				if found && !strings.Contains(strings.Join(r.Problems, "\n"), tt.want) {
					t.Errorf("quick %v: problems %q, want one saying %q", quick, r.Problems, tt.want)
				}
			}
		})
	}
}

// TestCheckDamagedPage overwrites half a page of the puzzles table in a
// closed bank, as a bad disk might: Check reports it, and a writer
// refuses the bank without changing it.
func TestCheckDamagedPage(t *testing.T) {
	ctx := context.Background()
	db := checkedBank(t)
	path := db.path
	var root, size int64
	if err := db.db.Get(&root, "SELECT rootpage FROM sqlite_schema WHERE name = 'puzzles'"); err != nil {
		t.Fatal(err)
	}
	if err := db.db.Get(&size, "PRAGMA page_size"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(strings.Repeat("\xab", int(size/2))), (root-1)*size+size/2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	if w, err := Open(ctx, path, Options{}); !errors.Is(err, ErrDamaged) {
		if err == nil {
			w.Close()
		}
		t.Errorf("Open of a damaged bank: %v, want ErrDamaged", err)
	}
	if after, err := os.ReadFile(path); err != nil || string(after) != string(before) {
		t.Errorf("the writer that refused the bank changed it (%v)", err)
	}
	r, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, quick := range []bool{false, true} {
		if rep := mustCheck(t, r, quick); rep.OK() {
			t.Errorf("quick %v: Check found nothing wrong with a damaged page", quick)
		}
	}
}

// TestCheckWhileWriterWrites commits a batch through another writer
// between the check's read of the counters and its count of the rows, as
// bankgen may at any moment: the check sees one snapshot and finds the
// bank whole, instead of counters that disagree with rows written after.
func TestCheckWhileWriterWrites(t *testing.T) {
	ctx := context.Background()
	db := checkedBank(t)
	w, err := Open(ctx, db.path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, quick := range []bool{false, true} {
		written := false
		checkReadHook = func() {
			if written {
				return
			}
			written = true
			f, _ := variantFamily(t, gen.RandomTransform(rng), gen.Identity(), gen.RandomTransform(rng))
			if _, err := w.WriteBatch(ctx, []NewFamily{f}); err != nil {
				t.Errorf("WriteBatch: %v", err)
			}
		}
		r := mustCheck(t, db, quick)
		checkReadHook = nil
		if !written {
			t.Fatalf("quick %v: the hook never ran", quick)
		}
		if !r.OK() {
			t.Errorf("quick %v: problems %q while a writer wrote, want none", quick, r.Problems)
		}
	}
	if r := mustCheck(t, db, false); !r.OK() {
		t.Errorf("after the writes: problems %q, want none", r.Problems)
	}
}

// TestCheckMovedKeys makes every string and form hash to one key, so
// that the writer stores all but the first of each under the next free
// key of its window: the whole check passes such a bank, and names a
// row moved past a key no other row holds.
func TestCheckMovedKeys(t *testing.T) {
	keyOf = func(string) int64 { return 42 }
	canonKey = func(string) int64 { return 42 }
	defer func() { keyOf, canonKey = SortKeyOf, SortKeyOf }()
	db := checkedBank(t)
	if r := mustCheck(t, db, false); !r.OK() {
		t.Fatalf("a bank of moved keys: problems %q, want none", r.Problems)
	}
	if _, err := db.db.Exec("UPDATE puzzles SET sort_key = sort_key + 1 WHERE sort_key = (SELECT max(sort_key) FROM puzzles WHERE level = 2) AND level = 2"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.db.Exec("UPDATE families SET canon_key = 57 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	r := mustCheck(t, db, false)
	got := strings.Join(r.Problems, "\n")
	for _, want := range []string{"canon key 57, its string's is 42, which no other row holds", "its string's is 42, which no other row holds"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q, want one saying %q", r.Problems, want)
		}
	}
}

// A key stored as text, which no constraint of the non-STRICT tables
// refuses and no foreign key sees (the pack still points at its rows),
// is found by the full check and named with its table and column.
func TestCheckIntegerColumns(t *testing.T) {
	db := checkedBank(t)
	if r := mustCheck(t, db, false); !r.OK() {
		t.Fatalf("a whole bank: problems %q, want none", r.Problems)
	}
	if _, err := db.db.Exec("UPDATE pack_items SET position = 'x' WHERE position = (SELECT min(position) FROM pack_items)"); err != nil {
		t.Fatal(err)
	}
	r := mustCheck(t, db, false)
	if got, want := strings.Join(r.Problems, "\n"), "pack_items: 1 row whose position is not an integer"; got != want {
		t.Errorf("problems %q, want only %q", got, want)
	}
}
