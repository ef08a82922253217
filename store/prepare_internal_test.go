package store

import "testing"

// TestPrepareIsUsed: WriteBatch must take a prepared family's work
// rather than do it again (no sort key computed in the writer), and do
// it for a family that was not prepared. Without this, a matches that
// never matched would pass every other test, the rows being the same.
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
	calls := 0
	old := keyOf
	keyOf = func(s string) int64 { calls++; return old(s) }
	t.Cleanup(func() { keyOf = old })

	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 3}, prepared)
	if calls != 0 {
		t.Errorf("WriteBatch of a prepared family computed %d sort keys, want 0", calls)
	}
	calls = 0
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 2}, bulkFamily(2, 4, 5))
	if calls != 2 {
		t.Errorf("WriteBatch of a family not prepared computed %d sort keys, want 2", calls)
	}
}
