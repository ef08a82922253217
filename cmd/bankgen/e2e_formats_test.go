package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"sudokubank/internal/plural"
)

// bankqueryBin builds the bankquery program once for the tests that
// export with it.
var bankqueryBin = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "bankquery-e2e-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "bankquery")
	if out, err := exec.Command("go", "build", "-o", path, "../bankquery").CombinedOutput(); err != nil {
		return "", &exec.Error{Name: "go build ../bankquery: " + string(out), Err: err}
	}
	return path, nil
})

// mustBankquery runs bankquery in dir and fails the test unless it succeeds.
func mustBankquery(t *testing.T, dir string, args ...string) {
	t.Helper()
	bin, err := bankqueryBin()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bankquery %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// puzzles returns the bank's puzzles, sorted.
func puzzles(tb testing.TB, path string) []string {
	tb.Helper()
	var ps []string
	for _, r := range bankRows(tb, path) {
		ps = append(ps, r.Puzzle)
	}
	slices.Sort(ps)
	return ps
}

// What bankquery exports, bankgen imports back: into the bank it came
// from, every puzzle is one the bank stores (no family added); into a
// fresh bank, the same puzzles. The sdk zip, the OpenSudoku XML, and the
// other formats, from a file and from a pipe.
func TestImportExports(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "b.db")
	var out, errb bytes.Buffer
	if err := Run(context.Background(), []string{"-db", db, "-count", "8", "-seed", "5", "-quiet"}, &out, &errb); err != nil {
		t.Fatalf("bankgen: %v\n%s", err, errb.String())
	}
	before := canons(t, db)
	exported := puzzles(t, db)
	if len(exported) != 8 {
		t.Fatalf("the bank has %d puzzles, want 8 (one a family)", len(exported))
	}
	files := map[string]string{ // file: format
		"pack.zip": "sdk", "pack.opensudoku": "opensudoku", "pack.csv": "csv", "pack.jsonl": "json", "pack.sdm": "sdm", "sdk/": "sdk",
	}
	for file, format := range files {
		mustBankquery(t, dir, "export", "-db", "b.db", "-count", "8", "-format", format, "-out", file, "-no-record",
			"-author", "Ann", "-url", "https://example.com/")
	}
	sdkDir := filepath.Join(dir, "sdk")
	one := filepath.Join(sdkDir, "0001.sdk")
	for _, file := range []string{"pack.zip", "pack.opensudoku", "pack.csv", "pack.jsonl", "pack.sdm", one} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want := 8
			if file == one {
				want = 1
			}
			r := bankgen(t, dir, "import", "-db", "b.db", "-source", "back", "-quiet", file)
			mustSucceed(t, r)
			summary := fmt.Sprintf("%s read from %s in", plural.Count(int64(want), "record"), file)
			counts := fmt.Sprintf(": 0 new families, %s the bank had (0 puzzles stored in all, %d already stored)", plural.Count(int64(want), "family"), want)
			if !strings.Contains(r.stdout, summary) || !strings.Contains(r.stdout, counts) || strings.Contains(r.stderr, "skipped") {
				t.Errorf("import into the same bank:\n%s%s", r.stdout, r.stderr)
			}
			if got := canons(t, db); !slices.Equal(got, before) {
				t.Errorf("the import changed the families")
			}

			fresh := filepath.Join(t.TempDir(), "fresh.db")
			mustSucceed(t, bankgen(t, dir, "import", "-db", fresh, "-source", "fresh", "-quiet", file))
			got := puzzles(t, fresh)
			if file == one {
				if len(got) != 1 || !slices.Contains(exported, got[0]) {
					t.Errorf("a fresh bank holds %v, want one of the exported puzzles", got)
				}
			} else if !slices.Equal(got, exported) {
				t.Errorf("a fresh bank holds %v, want %v", got, exported)
			}
		})
	}
	t.Run("ZipFromPipe", func(t *testing.T) {
		data, err := os.ReadFile(filepath.Join(dir, "pack.zip"))
		if err != nil {
			t.Fatal(err)
		}
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		cmd := exec.Command(bin, "import", "-db", fresh, "-quiet", "-")
		cmd.Stdin = bytes.NewReader(data)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("import -: %v\n%s", err, out)
		}
		if got := puzzles(t, fresh); !slices.Equal(got, exported) {
			t.Errorf("a fresh bank holds %v, want %v", got, exported)
		}
	})
}

// A bad puzzle in a zip is reported by the file in the zip and its line.
func TestImportZipNamesMember(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"0001.sdk": "#Dgood\n..4...2.7\n.85.24...\n2.6..3..8\n51.......\n..8.7....\n.....14.6\n.7.......\n...65....\n..1.4.6.3\n",
		"0002.sdk": "#Dbad\n#L-\n44.......\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n",
	} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in.zip"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := bankgen(t, dir, "import", "-db", "b.db", "-quiet", "in.zip")
	mustSucceed(t, r)
	if want := "in.zip:0002.sdk:3: digit repeated"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
	}
	if !strings.Contains(r.stdout, "2 records read from in.zip") || !strings.Contains(r.stdout, ": 1 puzzle, 1 refused") || !strings.Contains(r.stdout, "1 new family,") {
		t.Errorf("summary:\n%s", r.stdout)
	}
}
