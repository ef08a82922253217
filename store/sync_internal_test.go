package store

import "testing"

// TestSyncFull checks that Options.SyncFull makes the writer's commits
// wait for the disk, and that the default does not.
func TestSyncFull(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  Options
		want int
	}{{"Default", Options{}, 1}, {"Full", Options{SyncFull: true}, 2}} {
		t.Run(tt.name, func(t *testing.T) {
			db := openTempBank(t, tt.opt)
			var got int
			if err := db.db.Get(&got, "PRAGMA synchronous"); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("PRAGMA synchronous = %d, want %d", got, tt.want)
			}
		})
	}
}
