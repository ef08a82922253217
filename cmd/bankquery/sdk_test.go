package main_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A pack of sdk puzzles is one file a puzzle, as SadMan and SudoCue read
// them: a zip of them, or a directory with -out DIR/; each file carries
// the credits given on the command line.
func TestExportSDKFiles(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	args := func(out string, extra ...string) []string {
		return append([]string{"export", "-db", db, "-level", "medium", "-count", "3", "-seed", "5", "-format", "sdk",
			"-out", out, "-no-record", "-author", "Ann Author", "-source-name", "Puzzles & Co",
			"-url", "https://example.com/puzzles", "-date", "2026-11-27"}, extra...)
	}
	zipPath := filepath.Join(dir, "pack.zip")
	mustRun(t, args(zipPath)...)
	data, err := os.ReadFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0001.sdk", "0002.sdk", "0003.sdk"}
	var names []string
	members := map[string][]byte{}
	for _, f := range zr.File {
		names = append(names, f.Name)
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		members[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(names, want) {
		t.Fatalf("zip holds %v, want %v", names, want)
	}
	for _, h := range []string{"#AAnn Author\n", "#SPuzzles & Co\n", "#Uhttps://example.com/puzzles\n", "#B2026-11-27\n", "#Lmedium\n"} {
		if !bytes.Contains(members["0002.sdk"], []byte(h)) {
			t.Errorf("0002.sdk lacks %q:\n%s", h, members["0002.sdk"])
		}
	}

	// The same pack to a directory: the same files.
	out := filepath.Join(dir, "pack") + string(filepath.Separator)
	mustRun(t, args(out)...)
	for _, name := range want {
		got, err := os.ReadFile(filepath.Join(dir, "pack", name))
		if err != nil || !bytes.Equal(got, members[name]) {
			t.Errorf("%s in the directory = %q, %v; want the zip's %q", name, got, err, members[name])
		}
	}
	// Again: the files exist, so without -force nothing is written, and
	// the exit status is 2, as for an -out file that exists (export -h).
	r := run(t, args(out)...)
	if r.code != 2 || !strings.Contains(r.err.Error(), "file exists (use -force to replace it)") {
		t.Errorf("a second export to the directory: exit %d, %v; want 2, file exists (use -force to replace it)", r.code, r.err)
	}
	mustRun(t, args(out, "-force")...)
	// A smaller pack into it, its own file gone: the larger pack's last
	// files are an earlier export's, refused without -force, exit 2 too.
	if err := os.Remove(filepath.Join(dir, "pack", "0001.sdk")); err != nil {
		t.Fatal(err)
	}
	small := args(out)
	small[slices.Index(small, "-count")+1] = "1"
	if r := run(t, small...); r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), "of an earlier export") {
		t.Errorf("a smaller pack into the directory: exit %d, %v; want 2, of an earlier export", r.code, r.err)
	}

	// One puzzle is one plain .sdk file.
	one := filepath.Join(dir, "one.sdk")
	a := args(one)
	a[slices.Index(a, "-count")+1] = "1"
	mustRun(t, a...)
	if got, err := os.ReadFile(one); err != nil || !bytes.HasPrefix(got, []byte("#AAnn Author\n#D")) {
		t.Errorf("one.sdk = %q, %v", got, err)
	}
	// Unless the file's name says zip.
	oneZip := filepath.Join(dir, "one.zip")
	a[slices.Index(a, "-out")+1] = oneZip
	mustRun(t, a...)
	if got, err := os.ReadFile(oneZip); err != nil || !bytes.HasPrefix(got, []byte("PK\x03\x04")) {
		t.Errorf("one.zip = %q, %v; want a zip", got, err)
	}
}

// Credits are user text: a control character, a URL that is not a web
// address or a date that is not one exit 2 before anything is written.
func TestExportCreditsChecked(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	exp := func(extra ...string) []string {
		return append([]string{"export", "-db", db, "-level", "medium", "-count", "3", "-format", "sdk", "-out",
			filepath.Join(dir, "p.zip"), "-no-record"}, extra...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"AuthorControl", exp("-author", "Ann\nAuthor"), `-author "Ann\nAuthor": character U+000A`},
		{"SourceNameLong", exp("-source-name", strings.Repeat("x", 201)), "-source-name"},
		{"URLScheme", exp("-url", "javascript:alert(1)"), "want an http:// or https:// address"},
		{"URLSpace", exp("-url", "https://example.com/a b"), "space or control character"},
		{"URLNoHost", exp("-url", "https:///path"), "no host"},
		{"DateFormat", exp("-date", "27/11/2026"), "want a date as YYYY-MM-DD"},
		{"DateZip", exp("-date", "1970-01-01"), "year 1970"},
		{"ZipToStdout", []string{"export", "-db", db, "-level", "medium", "-count", "3", "-format", "sdk", "-out", "-", "-no-record"}, "make a zip"},
		{"DirectoryOfCSV", []string{"export", "-db", db, "-level", "medium", "-count", "3", "-format", "csv", "-out", dir + "/d/", "-no-record"}, "a directory takes -format sdk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.args...)
			if r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
				t.Errorf("exit %d, %v; want 2 and %q", r.code, r.err, tt.want)
			}
		})
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("refused exports left %v, %v", entries, err)
	}
}
