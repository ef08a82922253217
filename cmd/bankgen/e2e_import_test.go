package main

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/store"
)

// TestImportStrict imports a good line and a bad one: the import stores
// the good one either way, and -strict makes the exit status 1.
func TestImportStrict(t *testing.T) {
	dir := t.TempDir()
	in := importable(t) + "not a puzzle\n"
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	mustSucceed(t, bankgen(t, dir, "import", "-db", "a.db", "-quiet", "in.txt"))
	r := bankgen(t, dir, "import", "-db", "b.db", "-quiet", "-strict", "in.txt")
	if r.code != 1 || !strings.Contains(r.stderr, "-strict: 1 of 2 records refused (the others were imported)") {
		t.Errorf("-strict: exit code %d, stderr:\n%s\nwant 1 and the count of rejected lines", r.code, r.stderr)
	}
	if got := families(filepath.Join(dir, "b.db")); got != 1 {
		t.Errorf("-strict stored %d families, want the good line's 1", got)
	}
}

// TestImportSummaryCounts imports a file of one puzzle, two bad records,
// a comment and a blank line: the summary counts the records read (not
// the comment or the blank line), tells the puzzle from the refused
// records, says where the refusals were reported, and gives each count
// the noun that agrees with it; each refusal on stderr says "refused",
// the summary's word.
func TestImportSummaryCounts(t *testing.T) {
	dir := t.TempDir()
	in := "# a comment\n\n" + importable(t) + "not a puzzle\n" + strings.Repeat(".", 81) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	r := bankgen(t, dir, "import", "-db", "b.db", "-quiet", "in.txt")
	mustSucceed(t, r)
	for _, want := range []string{
		"bankgen import: done: 3 records read from in.txt in ",
		": 1 puzzle, 2 refused\n",
		"  puzzles: 1 new family, 0 families the bank had (1 puzzle stored in all, 0 already stored)\n",
		"  refused: 1 unparseable, 0 with no solution, 1 with several solutions, 0 failed",
		"; each reported on stderr with its place\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, want := range []string{"in.txt:4:", "in.txt:5:"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not report %s:\n%s", want, r.stderr)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(withoutNewBank(r.stderr)), "\n") {
		if !strings.HasSuffix(line, "; refused") {
			t.Errorf("a refusal on stderr does not end in the summary's word, refused: %q", line)
		}
	}
}

// TestImportNoPuzzle imports files in which no record is a puzzle (a
// binary file, XML) and files that hold no record at all (empty, only
// comments). Each exits 1 with a message that says which, and records
// the run as failed with it.
func TestImportNoPuzzle(t *testing.T) {
	dir := t.TempDir()
	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"bin.dat", bin, "no record of bin.dat was a puzzle with one solution ("},
		{"games.xml", []byte("<?xml version=\"1.0\"?>\n<opensudoku>\n<game data=\"12\"/>\n</opensudoku>\n"), "no record of games.xml was a puzzle with one solution (1 record read)"},
		{"notes.txt", []byte("# only a comment\n\n"), "notes.txt holds no record"},
		{"empty.txt", nil, "empty.txt holds no record"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, tt.name), tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			db := strings.TrimSuffix(tt.name, filepath.Ext(tt.name)) + ".db"
			r := bankgen(t, dir, "import", "-db", db, "-quiet", tt.name)
			if r.code != 1 || !strings.Contains(r.stderr, "bankgen: "+tt.want) {
				t.Errorf("exit code %d, stderr:\n%s\nwant 1 and %q", r.code, r.stderr, tt.want)
			}
			rs := runs(t, filepath.Join(dir, db))
			if len(rs) != 1 || rs[0].Status != store.RunFailed || !strings.Contains(rs[0].Message, tt.want) {
				t.Errorf("runs %+v, want one failed run saying %q", rs, tt.want)
			}
		})
	}
}

// TestImportDirectory gives a directory as the file, or on standard
// input: a usage error, before any bank is made or any run recorded.
func TestImportDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := bankgen(t, dir, "import", "-db", "b.db", "sub")
	if r.code != 2 || !strings.Contains(r.stderr, "sub is a directory") {
		t.Errorf("exit code %d, stderr:\n%s\nwant 2 and a directory", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.db")); !os.IsNotExist(err) {
		t.Errorf("the refused import made the bank: %v", err)
	}
	mustSucceed(t, bankgen(t, dir, "-db", "c.db", "-count", "1", "-seed", "3", "-quiet"))
	if r := bankgen(t, dir, "import", "-db", "c.db", "sub"); r.code != 2 {
		t.Errorf("exit code %d, want 2", r.code)
	}
	if rs := runs(t, filepath.Join(dir, "c.db")); len(rs) != 1 {
		t.Errorf("%d runs after a refused import, want the generating run alone", len(rs))
	}
	// A directory on standard input (bankgen import - < sub) is refused
	// as a named one is, not read until it fails as "produce: read
	// /dev/stdin: is a directory" with a failed run recorded.
	sub, err := os.Open(filepath.Join(dir, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	cmd := exec.Command(bin, "import", "-db", "c.db", "-")
	cmd.Dir, cmd.Stdin = dir, sub
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	r = ended(t, cmd.Args, &out, &errb, cmd.Run())
	if r.code != 2 || !strings.Contains(r.stderr, "standard input is a directory") {
		t.Errorf("import - < sub: exit code %d, stderr:\n%s\nwant 2 and a directory", r.code, r.stderr)
	}
	if rs := runs(t, filepath.Join(dir, "c.db")); len(rs) != 1 {
		t.Errorf("%d runs after a refused import, want the generating run alone", len(rs))
	}
}

// TestImportMissingFile names a file that is not there, and one this
// process may not read: each is refused before any bank is made or any
// run recorded, naming the file once; a missing one is a usage error
// (exit 2), as a missing merge shard is.
func TestImportMissingFile(t *testing.T) {
	dir := t.TempDir()
	r := bankgen(t, dir, "import", "-db", "b.db", "missing.txt")
	if want := "bankgen: missing.txt: no such file or directory\n"; r.code != 2 || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("exit code %d, stderr:\n%s\nwant 2 and %q", r.code, r.stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.db")); !os.IsNotExist(err) {
		t.Errorf("the refused import made the bank: %v", err)
	}
	if os.Geteuid() == 0 {
		t.Log("running as root, which reads any file: the unreadable case is left out")
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "locked.txt"), []byte(importable(t)), 0o000); err != nil {
		t.Fatal(err)
	}
	r = bankgen(t, dir, "import", "-db", "b.db", "locked.txt")
	if want := "bankgen: locked.txt: permission denied\n"; r.code != 1 || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("exit code %d, stderr:\n%s\nwant 1 and %q", r.code, r.stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.db")); !os.IsNotExist(err) {
		t.Errorf("the refused import made the bank: %v", err)
	}
}

// TestImportLongLineMessage imports a line of 95 cells: the message
// names the line and counts its cells.
func TestImportLongLineMessage(t *testing.T) {
	dir := t.TempDir()
	good := strings.TrimSpace(importable(t))
	in := good + "\n" + good + "12345678901234\n"
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	r := bankgen(t, dir, "import", "-db", "b.db", "-quiet", "in.txt")
	mustSucceed(t, r)
	if !strings.Contains(r.stderr, "in.txt:2: line has 95 cells, a puzzle has 81") {
		t.Errorf("stderr:\n%s\nwant line 2 with its 95 cells", r.stderr)
	}
}

// TestRunsRecordKindSourceArgs runs a generation and two imports of one
// file: each run records its kind, source and arguments, and the second
// import, which adds nothing, is recorded saying so.
func TestRunsRecordKindSourceArgs(t *testing.T) {
	dir := t.TempDir()
	mustSucceed(t, bankgen(t, dir, "-db", "b.db", "-count", "1", "-seed", "5", "-quiet"))
	if err := os.WriteFile(filepath.Join(dir, "my top.txt"), []byte(importable(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	imp := []string{"import", "-db", "b.db", "-quiet", "-source", "top", "my top.txt"}
	mustSucceed(t, bankgen(t, dir, imp...))
	mustSucceed(t, bankgen(t, dir, imp...))
	rs := runs(t, filepath.Join(dir, "b.db"))
	if len(rs) != 3 {
		t.Fatalf("%d runs, want 3", len(rs))
	}
	want := []struct {
		kind, source string
		args         []string
	}{
		{store.RunGenerate, "gen", []string{"-db", "b.db", "-count", "1", "-seed", "5", "-quiet"}},
		{store.RunImport, "top", imp},
		{store.RunImport, "top", imp},
	}
	for i, w := range want {
		if r := rs[i]; r.Kind != w.kind || r.Source != w.source || !slices.Equal(r.Args, w.args) {
			t.Errorf("run %d: kind %q source %q args %q; want %q %q %q", r.ID, r.Kind, r.Source, r.Args, w.kind, w.source, w.args)
		}
	}
	if r := rs[1]; r.Families != 1 || r.Message != "" {
		t.Errorf("first import: %d families, message %q; want 1 and none", r.Families, r.Message)
	}
	if r := rs[2]; r.Status != store.RunCompleted || r.Families != 0 || !strings.HasPrefix(r.Message, "added nothing") {
		t.Errorf("second import: %s, %d families, message %q; want completed, 0, added nothing", r.Status, r.Families, r.Message)
	}
}

// TestVersion asks each command for its version: exit 0, the module and
// the revision line on stdout, and no bank made.
func TestVersion(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"-version"}, {"import", "-version"}, {"-count", "5", "-version"}} {
		r := bankgen(t, dir, args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "bankgen ") || !strings.Contains(r.stdout, "\nmodule   sudokubank\n") || !strings.Contains(r.stdout, "\nrevision ") {
			t.Errorf("bankgen %q: exit code %d, stdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "puzzles.db")); !os.IsNotExist(err) {
		t.Errorf("-version made a bank: %v", err)
	}
}

// TestImportNameWithoutSource imports files whose names leave no source
// name once the extension is cut (".txt", a dotfile): a usage error
// before the bank is opened, not puzzles that fail one by one; -source
// names the source.
func TestImportNameWithoutSource(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".txt", ".puzzles"} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(importable(t)), 0o644); err != nil {
				t.Fatal(err)
			}
			r := bankgen(t, dir, "import", "-db", "b.db", "-quiet", name)
			if r.code != 2 || !strings.Contains(r.stderr, "gives no source name; name the source with -source") {
				t.Errorf("exit code %d, stderr:\n%s\nwant 2 and no source name", r.code, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "b.db")); !os.IsNotExist(err) {
				t.Errorf("the refused import made the bank: %v", err)
			}
			mustSucceed(t, bankgen(t, dir, "import", "-db", "c.db", "-quiet", "-source", "dot", name))
		})
	}
}

// TestImportSourceGen imports under the name "gen", given or taken from
// the file's name: a usage error, since "gen" marks the generated
// families and imported ones under it could not be told apart.
func TestImportSourceGen(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gen.txt"), []byte(importable(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"gen.txt"}, {"-source", "gen", "gen.txt"}} {
		r := bankgen(t, dir, append([]string{"import", "-db", "b.db", "-quiet"}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, `the source name "gen" is the generated families'`) {
			t.Errorf("%v: exit code %d, stderr:\n%s\nwant 2 and gen refused", args, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b.db")); !os.IsNotExist(err) {
		t.Errorf("the refused import made the bank: %v", err)
	}
	mustSucceed(t, bankgen(t, dir, "import", "-db", "b.db", "-quiet", "-source", "generated", "gen.txt"))
}

// TestImportFileNotRead imports inputs that cannot be read as a whole (a
// zip that cannot be opened, a gzip, a PDF) and a zip with a good file
// beside two it cannot read: a file not read is no record, so it is
// counted apart from the records read and refused; an input not read at
// all fails the import with its reason, and -strict fails on a zip's
// file not read as it does on a refused record.
func TestImportFileNotRead(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, data, why string }{
		{"bad.zip", "PK\x03\x04 not really a zip", "a zip that cannot be read"},
		{"list.gz", "\x1f\x8b\x08\x00 compressed", "a gzip-compressed file, not read"},
		{"pack.pdf", "%PDF-1.7\n", "a PDF, not read"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, tt.name), []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			db := strings.ReplaceAll(tt.name, ".", "-") + ".db"
			r := bankgen(t, dir, "import", "-db", db, "-quiet", tt.name)
			if want := "bankgen: " + tt.name + ": " + tt.why; r.code != 1 || !strings.Contains(r.stderr, want) {
				t.Errorf("exit code %d, stderr:\n%s\nwant 1 and %q", r.code, r.stderr, want)
			}
			if strings.Contains(r.stderr, "; refused") || strings.Count(r.stderr, tt.why) != 1 {
				t.Errorf("stderr:\n%s\nwant the reason once, as the import's error, not as a refused record", r.stderr)
			}
			if want := "0 records read from " + tt.name + " in "; !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, ": 0 puzzles, 0 refused; 1 file could not be read\n") {
				t.Errorf("summary:\n%s\nwant %q and 1 file that could not be read", r.stdout, want)
			}
			rs := runs(t, filepath.Join(dir, db))
			if len(rs) != 1 || rs[0].Status != store.RunFailed || rs[0].Rejected != 0 || !strings.Contains(rs[0].Message, tt.why) {
				t.Errorf("runs %+v, want one failed run saying why, no record rejected", rs)
			}
		})
	}

	t.Run("ZipFiles", func(t *testing.T) {
		var inner bytes.Buffer
		if err := zip.NewWriter(&inner).Close(); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, f := range []struct{ name, body string }{
			{"0001.txt", importable(t)},
			{"0002.txt", "\xff\xfe1\x00.\x00"},
			{"0003.zip", inner.String()},
		} {
			w, err := zw.Create(f.name)
			if err != nil {
				t.Fatal(err)
			}
			w.Write([]byte(f.body))
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "in.zip"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		r := bankgen(t, dir, "import", "-db", "zip.db", "-quiet", "in.zip")
		mustSucceed(t, r)
		if want := ": 1 record read from in.zip in "; !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, ": 1 puzzle, 0 refused; 2 files could not be read\n") {
			t.Errorf("summary:\n%s\nwant %q, 1 puzzle, 0 refused and 2 files not read", r.stdout, want)
		}
		for _, want := range []string{"in.zip:0002.txt: a UTF-16 text", "in.zip:0003.zip: a zip inside a zip is not read"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("stderr:\n%s\nwant %q", r.stderr, want)
			}
		}
		if strings.Contains(r.stderr, "; refused") {
			t.Errorf("stderr:\n%s\na file not read is reported as a refused record", r.stderr)
		}
		r = bankgen(t, dir, "import", "-db", "strict.db", "-quiet", "-strict", "in.zip")
		if want := "-strict: 0 of 1 record refused and 2 files could not be read (the others were imported)"; r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("-strict: exit code %d, stderr:\n%s\nwant 1 and %q", r.code, r.stderr, want)
		}
	})
}
