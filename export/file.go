package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"sudokubank/internal/filekind"
)

// WriteFile writes items in format f to the file at path, atomically: it
// writes a temporary file in the same directory, syncs it to disk and
// only then gives it its name, so readers see either no file or the whole
// file. It refuses to replace an existing file unless force is set
// (ErrExists). On any error, cancellation included, it removes its
// temporary file and leaves path as it was.
func WriteFile(ctx context.Context, path string, f Format, items []Item, opt Options, force bool) error {
	if err := CheckDestination(path, force); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	p := NewPendingFile(path, force)
	defer p.Discard()
	if err := p.Write(ctx, f, items, opt); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return p.Publish()
}

// CheckDestination reports whether a file may be written at path: nil
// when nothing is there, or a regular file is and force is set;
// ErrExists for a regular file without force; and ErrNotRegular, with a
// message that says what the path is, for anything else, since a rename
// over it would replace a device, a named pipe or a symbolic link itself
// with a regular file. WriteFile and Publish check again as late as they
// can; a caller checks first to fail before any work.
func CheckDestination(path string, force bool) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if what := filekind.Of(fi.Mode()); what != "" {
		return fmt.Errorf("is %s: %w", what, ErrNotRegular)
	}
	if !force {
		return ErrExists
	}
	return nil
}

// PendingFile is an output file written in two steps: Write fills a
// temporary file next to the destination and syncs it; Publish gives it
// its name. A caller that must record something only for a file written
// whole (bankquery records the pack) does so between the two.
type PendingFile struct {
	path  string // the destination
	tmp   string // the temporary file, "" before Write and once published or discarded
	force bool   // replace an existing destination
}

// NewPendingFile returns a pending file for path; with force, Publish may
// replace an existing file.
func NewPendingFile(path string, force bool) *PendingFile {
	return &PendingFile{path: path, force: force}
}

// Write writes items in format f to a temporary file beside the
// destination and syncs it to disk. On error it removes the temporary file.
func (p *PendingFile) Write(ctx context.Context, f Format, items []Item, opt Options) (err error) {
	dir, base := filepath.Split(p.path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	p.tmp = tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			p.Discard()
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := Write(ctx, bw, f, items, opt); err != nil {
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", p.path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", p.path, err)
	}
	return nil
}

// Publish gives the written temporary file its name. Without force it
// never replaces a file, even one that appeared while it was written
// (ErrExists).
func (p *PendingFile) Publish() error {
	if p.tmp == "" {
		return fmt.Errorf("write %s: nothing written", p.path)
	}
	if p.force {
		// A rename replaces whatever has the name: only a regular file
		// may, even if something else appeared while the file was written.
		if err := CheckDestination(p.path, true); err != nil {
			return fmt.Errorf("write %s: %w", p.path, err)
		}
		if err := os.Rename(p.tmp, p.path); err != nil {
			return fmt.Errorf("write %s: %w", p.path, err)
		}
	} else if err := linkNew(p.tmp, p.path); err != nil {
		return err
	}
	p.tmp = ""
	syncDir(filepath.Dir(p.path))
	return nil
}

// Discard removes the temporary file, if any; after Publish it does nothing.
func (p *PendingFile) Discard() {
	if p.tmp != "" {
		os.Remove(p.tmp)
		p.tmp = ""
	}
}

// linkNew gives the finished temporary file its name without replacing a
// file that appeared at path while it was being written: a hard link fails
// if path exists. Where hard links are not supported it falls back to a
// rename after one more look.
func linkNew(tmpName, path string) error {
	err := os.Link(tmpName, path)
	if err == nil {
		os.Remove(tmpName)
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("write %s: %w", path, ErrExists)
	}
	if _, statErr := os.Lstat(path); statErr == nil {
		return fmt.Errorf("write %s: %w", path, ErrExists)
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// syncDir makes the new name durable. It is best effort: some systems
// cannot sync a directory, and the file itself is already on disk.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
