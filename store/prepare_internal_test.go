package store

import (
	"maps"
	"testing"
)

// TestPrepareIsUsed: WriteBatch must take a prepared family's work
// rather than do it again (no sort key or canonical form's key computed
// in the writer), and do it for a family that was not prepared. Without
// this, a matches that never matched would pass every other test, the
// rows being the same.
func TestPrepareIsUsed(t *testing.T) {
	db := openTempBank(t, Options{})
	prepared := bulkFamily(1, 1, 2, 3)
	if err := Prepare(&prepared); err != nil {
		t.Fatal(err)
	}
	if !prepared.prep.matches(&prepared) {
		t.Fatal("a family just prepared does not match its preparation")
	}

	// Prepare computed its keys already; from here on, count.
	calls, canonCalls := 0, 0
	oldCanon := canonKey
	withCanonKey(t, func(s string) int64 { canonCalls++; return oldCanon(s) })
	old := keyOf
	keyOf = func(s string) int64 { calls++; return old(s) }
	t.Cleanup(func() { keyOf = old })

	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 3}, prepared)
	if calls != 0 || canonCalls != 0 {
		t.Errorf("WriteBatch of a prepared family computed %d sort keys and %d canonical form keys, want 0 and 0", calls, canonCalls)
	}
	calls, canonCalls = 0, 0
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 2}, bulkFamily(2, 4, 5))
	if calls != 2 || canonCalls != 1 {
		t.Errorf("WriteBatch of a family not prepared computed %d sort keys and %d canonical form keys, want 2 and 1", calls, canonCalls)
	}
}

// TestPrepareStaleCanon changes a family's canonical form after Prepare:
// the preparation, whose key is the old form's, must not match, and the
// family must be stored under the new form's key.
func TestPrepareStaleCanon(t *testing.T) {
	db := openTempBank(t, Options{})
	f := bulkFamily(1, 1)
	if err := Prepare(&f); err != nil {
		t.Fatal(err)
	}
	f.Canon = bulkFamily(2).Canon
	if f.prep.matches(&f) {
		t.Fatal("a family whose canonical form changed after Prepare matches its preparation")
	}
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1}, f)
	want := map[string]int64{f.Canon: canonKey(f.Canon)}
	if got := storedCanonKeys(t, db); !maps.Equal(got, want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
}
