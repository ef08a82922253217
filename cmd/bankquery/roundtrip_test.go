package main_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	bankgenOnce sync.Once
	bankgenBin  string
	bankgenErr  error
)

// mustBankgen builds cmd/bankgen once and returns its path.
func mustBankgen(tb testing.TB) string {
	tb.Helper()
	bankgenOnce.Do(func() {
		bankgenBin = filepath.Join(binDir, "bankgen")
		out, err := exec.Command("go", "build", "-o", bankgenBin, "../bankgen").CombinedOutput()
		if err != nil {
			bankgenErr = err
			tb.Logf("build bankgen: %s", out)
		}
	})
	if bankgenErr != nil {
		tb.Fatalf("build bankgen: %v", bankgenErr)
	}
	return bankgenBin
}

// An sdm export imported back into the same bank by bankgen finds every
// puzzle already stored: the export wrote the bank's puzzles unchanged.
func TestRoundTripThroughBankgenImport(t *testing.T) {
	for _, record := range []bool{false, true} {
		name := "Unrecorded"
		if record {
			name = "Recorded"
		}
		t.Run(name, func(t *testing.T) {
			db := MustBank(t)
			dir := filepath.Dir(db)
			out := filepath.Join(dir, "all.sdm")
			args := []string{"export", "-db", db, "-count", "150", "-format", "sdm", "-out", out, "-order", "id", "-seed", "1"}
			if !record {
				args = append(args, "-no-record")
			}
			mustRun(t, args...)
			before := mustRun(t, "stats", "-db", db)
			cmd := exec.Command(mustBankgen(t), "import", "-db", db, "-source", "roundtrip", "-quiet", out)
			got, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("bankgen import: %v\n%s", err, got)
			}
			for _, want := range []string{"150 records read", ": 150 puzzles, 0 refused", "0 new families", "150 families the bank had", "0 puzzles stored", "150 already stored"} {
				if !strings.Contains(string(got), want) {
					t.Errorf("bankgen import said:\n%s\nwant %q", got, want)
				}
			}
			// The runs table gains the import's run; everything above it
			// (families, puzzles, levels, givens, packs) must not change.
			after := mustRun(t, "stats", "-db", db)
			if b, a := beforeRuns(before), beforeRuns(after); a != b {
				t.Errorf("after the import, stats says:\n%s\nwant the bank unchanged:\n%s", a, b)
			}
		})
	}
}

// beforeRuns returns the part of stats' text output above its runs table.
func beforeRuns(stats string) string {
	for _, heading := range []string{"\nruns:", "\nno generator runs"} {
		if i := strings.Index(stats, heading); i >= 0 {
			return stats[:i]
		}
	}
	return stats
}
