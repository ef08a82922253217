package export

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Stdout is the output path that means standard output.
const Stdout = "-"

// ErrBankFile is wrapped by CheckOutput's error for a path that is the
// bank or one of the files SQLite keeps beside it.
var ErrBankFile = errors.New("is the bank or one of its files")

// bankFileError is CheckOutput's error for a path that is the bank.
type bankFileError struct{ bank string }

func (e bankFileError) Error() string {
	return fmt.Sprintf("is the bank %s or one of its files; name another file", e.bank)
}

func (e bankFileError) Unwrap() error { return ErrBankFile }

// IsDirOutput reports whether path names a directory, by its trailing
// separator: SDK's one file a puzzle go there (PendingDir).
func IsDirOutput(path string) bool {
	return path != "" && os.IsPathSeparator(path[len(path)-1])
}

// CheckOutput reports whether an export of the bank at bank may be
// written to path, so that a caller fails before any work: nil for
// Stdout; for a directory (IsDirOutput), what CheckDirDestination says,
// and an error if its parent does not exist; for a file, ErrBankFile if
// it is the bank or one of its files (a rename over the bank replaces
// it, and over its WAL loses what the export records), what
// CheckDestination says (ErrExists without force, ErrNotRegular), and an
// error if its directory does not exist. The files in a directory are
// checked as they are written.
func CheckOutput(path, bank string, force bool) error {
	if path == Stdout {
		return nil
	}
	if IsDirOutput(path) {
		dir := filepath.Clean(path)
		if err := CheckDirDestination(dir); err != nil {
			return err
		}
		return dirExists(filepath.Dir(dir))
	}
	if isBankFile(path, bank) {
		return bankFileError{bank}
	}
	if err := CheckDestination(path, force); err != nil {
		return err
	}
	return dirExists(filepath.Dir(path))
}

// dirExists fails unless dir is a directory.
func dirExists(dir string) error {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("directory %s does not exist", dir)
	}
	return nil
}

// bankSuffixes are the files SQLite keeps beside a bank, by the suffix
// of their names.
var bankSuffixes = []string{"", "-wal", "-shm", "-journal"}

// isBankFile reports whether path names the bank or one of the files
// SQLite keeps beside it, however either is spelt: relative or absolute,
// through symbolic links, or (for files that exist) by another hard link.
// The WAL and shared-memory files come and go, so their names count
// whether or not they exist.
func isBankFile(path, bank string) bool {
	outs := spellings(path)
	for _, b := range spellings(bank) {
		for _, suf := range bankSuffixes {
			for _, o := range outs {
				if o == b+suf {
					return true
				}
			}
		}
	}
	out, err := os.Stat(path)
	if err != nil {
		return false
	}
	for _, suf := range bankSuffixes {
		if fi, err := os.Stat(bank + suf); err == nil && os.SameFile(out, fi) {
			return true
		}
	}
	return false
}

// spellings returns path made absolute, and with the symbolic links of
// its directory, and of itself if it exists, resolved.
func spellings(path string) []string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return []string{filepath.Clean(path)}
	}
	out := []string{abs}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		out = append(out, filepath.Join(dir, filepath.Base(abs)))
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		out = append(out, r)
	}
	return out
}

// Pending is an output written in two steps, as PendingFile is: Write
// makes the whole output ready and Publish hands it over, so that a
// caller records something (bankquery's pack) between the two only for
// an output made whole. Discard drops what was not published.
type Pending interface {
	Write(ctx context.Context, f Format, items []Item, opt Options) error
	Publish() error
	Discard()
}

// NewPending returns the pending output at path: w for Stdout, a
// PendingDir for a directory (IsDirOutput), a PendingFile otherwise.
// With force, Publish may replace existing files.
func NewPending(path string, w io.Writer, force bool) Pending {
	switch {
	case path == Stdout:
		return NewPendingWriter(w)
	case IsDirOutput(path):
		return NewPendingDir(path, force)
	}
	return NewPendingFile(path, force)
}

// PendingWriter is a writer, standard output most often, as a Pending:
// the output is made in memory (a pack of 10,000 puzzles in sdm is 820
// KB) and written out on Publish, since what has been written to a pipe
// cannot be taken back.
type PendingWriter struct {
	w   io.Writer
	buf bytes.Buffer
}

// NewPendingWriter returns a pending output that Publish writes to w.
func NewPendingWriter(w io.Writer) *PendingWriter { return &PendingWriter{w: w} }

// Write makes the output in memory.
func (d *PendingWriter) Write(ctx context.Context, f Format, items []Item, opt Options) error {
	d.buf.Reset()
	if err := Write(ctx, &d.buf, f, items, opt); err != nil {
		return fmt.Errorf("write standard output: %w", err)
	}
	return nil
}

// Publish writes the output to the writer.
func (d *PendingWriter) Publish() error {
	if _, err := d.w.Write(d.buf.Bytes()); err != nil {
		return fmt.Errorf("write standard output: %w", err)
	}
	d.buf.Reset()
	return nil
}

// Discard drops the output.
func (d *PendingWriter) Discard() { d.buf.Reset() }
