package main_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/export"
)

// A technique no family of the levels asked for uses is answered from the
// bank's counts: nothing printed but what an empty result prints, and a
// message on stderr that says why. A technique some family uses says
// nothing of the kind.
func TestTechniqueUnused(t *testing.T) {
	db := MustBank(t)
	header := strings.Join(export.CSVHeader, ",") + "\r\n"
	tests := []struct {
		name     string
		args     []string
		rows     bool   // some rows are printed
		stderr   string // in stderr; "" for an empty stderr
		exitCode int
	}{
		{"NoFamily", []string{"list", "-db", db, "-technique", "jellyfish", "-format", "csv"}, false,
			"bankquery list: no family in the bank uses technique jellyfish: nothing matches", 0},
		{"NoFamilyOfLevels", []string{"list", "-db", db, "-technique", "x-wing", "-level", "1,easy", "-format", "csv"}, false,
			"no family of level extremely-easy, easy in the bank uses technique x-wing", 0},
		{"Used", []string{"list", "-db", db, "-technique", "x-wing", "-level", "4", "-format", "csv"}, true, "", 0},
		{"ExportNoRecord", []string{"export", "-db", db, "-technique", "jellyfish", "-count", "2", "-format", "sdm",
			"-out", filepath.Join(t.TempDir(), "a.sdm"), "-no-record", "-seed", "1"}, false,
			"bankquery export: no family in the bank uses technique jellyfish", 1},
		{"Export", []string{"export", "-db", db, "-technique", "jellyfish", "-count", "2", "-format", "sdm",
			"-out", filepath.Join(t.TempDir(), "b.sdm"), "-seed", "1"}, false,
			"bankquery export: no family in the bank uses technique jellyfish", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.args...)
			if r.code != tt.exitCode {
				t.Fatalf("exit code %d (%v), want %d; stderr:\n%s", r.code, r.err, tt.exitCode, r.stderr)
			}
			switch {
			case tt.args[0] == "export":
				if r.stdout != "" {
					t.Errorf("stdout = %q, want nothing", r.stdout)
				}
				if !strings.Contains(r.err.Error(), "0 of 2 puzzles match") {
					t.Errorf("error = %v, want 0 of 2 puzzles match", r.err)
				}
				out := tt.args[slices.Index(tt.args, "-out")+1]
				if _, err := os.Stat(out); err == nil {
					t.Errorf("export wrote %s", out)
				}
			case tt.rows:
				if !strings.HasPrefix(r.stdout, header) || r.stdout == header {
					t.Errorf("stdout = %q, want the header and rows", r.stdout)
				}
			default:
				if r.stdout != header {
					t.Errorf("stdout = %q, want only the header", r.stdout)
				}
			}
			if tt.stderr == "" && r.stderr != "" || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("stderr = %q, want %q", r.stderr, tt.stderr)
			}
		})
	}
}
