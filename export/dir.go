package export

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"sudokubank/internal/filekind"
)

// PendingDir is a directory of .sdk files, one a puzzle, written in the
// two steps of PendingFile: Write fills a temporary file beside each
// destination, Publish gives them all their names. The directory is
// created if missing (its parent must exist) and removed again by
// Discard if it was created and nothing was published.
type PendingDir struct {
	dir     string
	force   bool
	created bool
	files   []*PendingFile
}

// NewPendingDir returns a pending directory at dir; with force, Publish
// may replace existing files of the same names.
func NewPendingDir(dir string, force bool) *PendingDir {
	return &PendingDir{dir: filepath.Clean(dir), force: force}
}

// CheckDirDestination reports whether .sdk files may be written in dir:
// nil when dir is missing or is a directory (not a symbolic link to one),
// an error that says what dir is otherwise.
func CheckDirDestination(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		what := filekind.Of(fi.Mode())
		if what == "" {
			what = "a file"
		}
		return fmt.Errorf("is %s, not a directory: %w", what, ErrNotRegular)
	}
	return nil
}

// Write writes each item as an .sdk file named by SDKName to a temporary
// file in the directory; f must be SDK. Files that exist are refused
// (ErrExists) unless force is set, before anything is written.
func (d *PendingDir) Write(ctx context.Context, f Format, items []Item, opt Options) (err error) {
	if f != SDK {
		return fmt.Errorf("write %s: a directory holds sdk files only, not %s", d.dir, f)
	}
	opt.SDKZip = false
	ps, err := check(items, false)
	if err != nil {
		return err
	}
	if err := checkNine(ps, SDK); err != nil {
		return err
	}
	if err := CheckDirDestination(d.dir); err != nil {
		return fmt.Errorf("write %s: %w", d.dir, err)
	}
	top := 0
	for _, it := range items {
		top = max(top, it.Number)
	}
	names := make(map[string]bool, len(items))
	for i, it := range items {
		name := SDKName(it.Number, top)
		if names[name] {
			return fmt.Errorf("item %d: number %d given twice (a file per number)", i+1, it.Number)
		}
		names[name] = true
		path := filepath.Join(d.dir, name)
		if err := CheckDestination(path, d.force); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := os.Mkdir(d.dir, 0o755); err == nil {
		d.created = true
	} else if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("write %s: %w", d.dir, err)
	}
	defer func() {
		if err != nil {
			d.Discard()
		}
	}()
	for i := range items {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p := NewPendingFile(filepath.Join(d.dir, SDKName(items[i].Number, top)), d.force)
		d.files = append(d.files, p)
		if err := p.Write(ctx, SDK, items[i:i+1], opt); err != nil {
			return err
		}
	}
	return nil
}

// Publish gives every written file its name. It stops at the first that
// fails: the files named before stay.
func (d *PendingDir) Publish() error {
	if d.files == nil {
		return fmt.Errorf("write %s: nothing written", d.dir)
	}
	for i, p := range d.files {
		if err := p.Publish(); err != nil {
			for _, q := range d.files[i:] {
				q.Discard()
			}
			d.files = nil
			return err
		}
	}
	d.files, d.created = nil, false
	syncDir(d.dir)
	return nil
}

// Discard removes the temporary files, and the directory if Write
// created it; after Publish it does nothing.
func (d *PendingDir) Discard() {
	for _, p := range d.files {
		p.Discard()
	}
	d.files = nil
	if d.created {
		os.Remove(d.dir) // only if empty: a file may have come from elsewhere
		d.created = false
	}
}
