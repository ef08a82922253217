package migrations_test

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/migrations"
)

var update = flag.Bool("update", false, "append new migrations to testdata/sums.txt")

// TestNumbering checks the names: NNNN_name.sql from 0001 without gaps.
func TestNumbering(t *testing.T) {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no migrations embedded")
	}
	for i, n := range names {
		if want := fmt.Sprintf("%04d_", i+1); !strings.HasPrefix(n, want) {
			t.Errorf("migration %d is %s, want a name starting %s", i+1, n, want)
		}
	}
}

// TestAppendOnly checks that no released migration has changed: each
// file's SHA-256 is recorded in testdata/sums.txt. A new migration is
// recorded with -update; an edited one fails, since banks in the field
// already ran the old text.
func TestAppendOnly(t *testing.T) {
	const sumsFile = "testdata/sums.txt"
	recorded := map[string]string{}
	b, err := os.ReadFile(sumsFile)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if sum, name, ok := strings.Cut(line, "  "); ok {
			recorded[name] = sum
		}
	}
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, n := range names {
		data, err := fs.ReadFile(migrations.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		sum := fmt.Sprintf("%x", sha256.Sum256(data))
		fmt.Fprintf(&out, "%s  %s\n", sum, n)
		switch old, ok := recorded[n]; {
		case !ok && !*update:
			t.Errorf("%s is not recorded in %s; run go test ./migrations -update", n, sumsFile)
		case ok && old != sum:
			t.Errorf("%s changed since it was recorded: migrations are append-only, add a new file instead", n)
		}
		delete(recorded, n)
	}
	for n := range recorded {
		t.Errorf("%s was recorded but is gone: migrations are append-only", n)
	}
	if *update && !t.Failed() {
		if err := os.WriteFile(filepath.FromSlash(sumsFile), []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
