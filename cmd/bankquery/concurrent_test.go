package main_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Exports for two clients running at once, as separate processes on one
// bank, still never share a family, nor give a client one family twice:
// each selects and reserves inside its own write transaction.
func TestConcurrentExportsAreExclusive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary several times")
	}
	mustBinary(t)
	path := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, path, manyVariantFamilies(t, 24, 12))
	dir := t.TempDir()
	var wg sync.WaitGroup
	results := make([]result, 6)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := []string{"acme", "globex"}[i%2]
			results[i] = exe(t, dir, "export", "-db", path, "-client", client, "-count", "5", "-seed", fmt.Sprint(i),
				"-format", "sdm", "-out", fmt.Sprintf("%d.sdm", i))
		}()
	}
	wg.Wait()
	ok := 0
	for i, r := range results {
		switch {
		case r.code == 0:
			ok++
		case r.code == 1 && strings.Contains(r.stderr, "not enough"):
		default:
			t.Errorf("export %d: exit %d, stderr:\n%s", i, r.code, r.stderr)
		}
	}
	if ok < 4 {
		t.Errorf("%d of 6 exports succeeded, want at least 4 (24 families, 5 a pack)", ok)
	}
	owners := map[int64]string{}
	for _, p := range MustPacks(t, path) {
		for _, row := range MustPackRows(t, path, p.ID) {
			// A client is not given a family twice either.
			if o, dup := owners[row.FamilyID]; dup {
				t.Errorf("family %d in packs for %s and %s", row.FamilyID, o, p.Client)
			}
			owners[row.FamilyID] = p.Client
		}
	}
}
