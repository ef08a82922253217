package store

import "testing"

// TestTempStoreFile checks that a writer keeps SQLite's temporary data
// in files, the setting under which the sorter of an index build packs
// its records into one buffer (store.go, open); with temp_store=MEMORY
// (2) the deferred indexes build in about half as much CPU again.
func TestTempStoreFile(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  Options
	}{{"Default", Options{}}, {"Bulk", Options{DeferIndexes: true, CacheSizeKB: bulkCacheKB}}} {
		t.Run(tt.name, func(t *testing.T) {
			db := openTempBank(t, tt.opt)
			var got int
			if err := db.db.Get(&got, "PRAGMA temp_store"); err != nil {
				t.Fatal(err)
			}
			if got != 1 {
				t.Errorf("PRAGMA temp_store = %d, want 1 (FILE)", got)
			}
		})
	}
}
