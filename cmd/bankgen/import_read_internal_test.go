package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// failingReader reads r, then fails with err.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// TestImportReadFails imports standard input that fails to read after
// some lines, as a disk or a network file system may: the error names
// the input and says the import stopped there, with no internal stage
// name ("produce:"), and the summary says what was stored.
func TestImportReadFails(t *testing.T) {
	dir := t.TempDir()
	good := importable(t)
	in := &failingReader{r: strings.NewReader(strings.Repeat(good, 3000)), err: syscall.EIO}
	o := importOptions{db: filepath.Join(dir, "b.db"), source: "stdin", file: "-", workers: 2, quiet: true}
	var stdout, stderr bytes.Buffer
	err := importFile(context.Background(), o, []string{"-"}, &stdout, &stderr, in)
	const want = "standard input: line 3001: input/output error: the import stopped there, after 3000 records; the puzzles among them are stored"
	if err == nil || err.Error() != want {
		t.Errorf("importFile = %v, want %q", err, want)
	}
	// Every record read before the failure was imported, as at the
	// input's end, and the summary counts them.
	if want := "bankgen import: failed: 3000 records read from - in "; !strings.Contains(stdout.String(), want) {
		t.Errorf("summary:\n%s\nwant %q", stdout.String(), want)
	}
	if got := families(o.db); got != 1 {
		t.Errorf("the bank holds %d families, want the input's 1", got)
	}
}

// TestImportNamedFileReadFails imports a file whose first read fails
// (a process's own memory file reads as an I/O error at offset 0): the
// error names the file once, without the read's path or a stage name.
func TestImportNamedFileReadFails(t *testing.T) {
	const mem = "/proc/self/mem"
	if _, err := os.Stat(mem); err != nil {
		t.Skipf("no %s: %v", mem, err)
	}
	r := bankgen(t, t.TempDir(), "import", "-db", "b.db", "-quiet", mem)
	if want := "bankgen: " + mem + ": input/output error: nothing was imported\n"; r.code != 1 || withoutNewBank(r.stderr) != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", r.code, r.stderr, want)
	}
}
