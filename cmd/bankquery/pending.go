package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"sudokubank/export"
)

// stdoutName is the -out that means standard output.
const stdoutName = "-"

// checkDestination fails early when the export cannot go to path: the
// bank or one of its files (a rename over the bank replaces it, and over
// its WAL loses the pack), something other than a regular file (see
// export.CheckDestination), an existing file without force, or a
// directory that does not exist.
func checkDestination(path, bank string, force bool) error {
	if path == stdoutName {
		return nil
	}
	if isDirOut(path) {
		// The files in it are checked as they are written.
		dir := filepath.Clean(path)
		if err := export.CheckDirDestination(dir); err != nil {
			return fmt.Errorf("-out %s: %w", path, err)
		}
		if fi, err := os.Stat(filepath.Dir(dir)); err != nil || !fi.IsDir() {
			return fmt.Errorf("-out %s: directory %s does not exist", path, filepath.Dir(dir))
		}
		return nil
	}
	if isBankFile(path, bank) {
		return fmt.Errorf("-out %s: is the bank %s or one of its files; name another file", path, bank)
	}
	if err := export.CheckDestination(path, force); err != nil {
		if errors.Is(err, export.ErrExists) {
			return fmt.Errorf("-out %s: %w (use -force to replace it)", path, export.ErrExists)
		}
		return fmt.Errorf("-out %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("-out %s: directory %s does not exist", path, dir)
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

// destination is where an export goes, in two steps as
// export.PendingFile does: Write makes the whole output ready and
// Publish hands it over, so that a pack is recorded between the two only
// for an output made whole.
type destination interface {
	Write(ctx context.Context, f export.Format, items []export.Item, opt export.Options) error
	Publish() error
	Discard()
}

// isDirOut reports whether -out path names a directory, by its trailing
// separator: sdk's one file a puzzle go there.
func isDirOut(path string) bool {
	return path != "" && os.IsPathSeparator(path[len(path)-1])
}

// newDestination returns the destination of -out path.
func newDestination(e *env, path string, force bool) destination {
	if path == stdoutName {
		return &stdoutDest{w: e.stdout}
	}
	if isDirOut(path) {
		return export.NewPendingDir(path, force)
	}
	return export.NewPendingFile(path, force)
}

// stdoutDest is standard output as a destination: the export is made in
// memory (a pack of 10,000 puzzles in sdm is 820 KB) and written out on
// Publish, since what has been written to a pipe cannot be taken back if
// the pack is not recorded.
type stdoutDest struct {
	w   io.Writer
	buf bytes.Buffer
}

func (d *stdoutDest) Write(ctx context.Context, f export.Format, items []export.Item, opt export.Options) error {
	d.buf.Reset()
	if err := export.Write(ctx, &d.buf, f, items, opt); err != nil {
		return fmt.Errorf("write standard output: %w", err)
	}
	return nil
}

func (d *stdoutDest) Publish() error {
	if _, err := d.w.Write(d.buf.Bytes()); err != nil {
		return fmt.Errorf("write standard output: %w", err)
	}
	d.buf.Reset()
	return nil
}

func (d *stdoutDest) Discard() { d.buf.Reset() }
