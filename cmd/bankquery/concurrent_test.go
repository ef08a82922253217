package main_test

import (
	"fmt"
	"os"
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

// Exports racing for one output file: one wins, and the bank records
// exactly the winner's pack. A loser that had already committed its pack
// when it found the name taken deletes the pack again.
func TestConcurrentExportsToOneFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary several times")
	}
	mustBinary(t)
	db := MustBank(t)
	dir := t.TempDir()
	var wg sync.WaitGroup
	results := make([]result, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = exe(t, dir, "export", "-db", db, "-client", fmt.Sprintf("c%d", i), "-count", "20",
				"-seed", fmt.Sprint(i), "-format", "sdm", "-out", "same.sdm", "-pack", fmt.Sprintf("p%d", i))
		}()
	}
	wg.Wait()
	winner := -1
	for i, r := range results {
		switch {
		case r.code == 0:
			if winner >= 0 {
				t.Errorf("exports %d and %d both wrote same.sdm", winner, i)
			}
			winner = i
		// A loser that finds the file before it starts is refused as a
		// usage error (2); one that finds it at the hand-over failed (1).
		case (r.code == 1 || r.code == 2) && strings.Contains(r.stderr, "file exists"):
			if strings.Contains(r.stderr, "the pack was not recorded") {
				t.Logf("export %d lost the race after committing its pack, and deleted it", i)
			}
		default:
			t.Errorf("export %d: exit %d, stderr:\n%s", i, r.code, r.stderr)
		}
	}
	packs := MustPacks(t, db)
	if len(packs) != 1 || winner < 0 || packs[0].Name != fmt.Sprintf("p%d", winner) {
		t.Fatalf("packs %+v after the race won by export %d, want only the winner's", packs, winner)
	}
	want := ""
	for _, row := range MustPackRows(t, db, packs[0].ID) {
		want += strings.ReplaceAll(row.Puzzle, ".", "0") + "\n"
	}
	got, err := os.ReadFile(filepath.Join(dir, "same.sdm"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("same.sdm is not the recorded pack's puzzles")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only same.sdm", len(entries))
	}
}
