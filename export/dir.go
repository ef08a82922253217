package export

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sudokubank/internal/filekind"
)

// PendingDir is a directory of .sdk files, one a puzzle, written in the
// two steps of PendingFile: Write fills a temporary file beside each
// destination, Publish gives them all their names. The directory is
// created if missing (its parent must exist) and removed again by
// Discard if it was created and nothing was published.
//
// The directory is the pack: the .sdk files named as SDKName names them
// (0001.sdk, 00012.sdk, ...) are all the pack's. An earlier export's
// files under those names are refused without force and, with it,
// removed once the new pack is published, so that a smaller pack does
// not leave the larger one's last puzzles behind. Other files are left
// alone.
type PendingDir struct {
	dir     string
	force   bool
	created bool
	files   []*PendingFile
	stale   []string // earlier exports' files, removed by Publish
}

// NewPendingDir returns a pending directory at dir; with force, Publish
// may replace existing files of the same names and removes an earlier
// export's other files.
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
	stale, err := packFiles(d.dir, names)
	if err != nil {
		return fmt.Errorf("write %s: %w", d.dir, err)
	}
	if len(stale) > 0 && !d.force {
		return fmt.Errorf("write %s: holds %s of an earlier export, which this pack would leave beside its own: %w",
			d.dir, filepath.Base(stale[0]), ErrExists)
	}
	d.stale = stale
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

// packFiles returns the paths of the files in dir named as SDKName names
// a pack's files but not among keep: an earlier export's. A missing dir
// holds none.
func packFiles(dir string, keep map[string]bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if isSDKName(e.Name()) && !keep[e.Name()] && e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

// isSDKName reports whether name is one SDKName makes: four or more
// digits and ".sdk".
func isSDKName(name string) bool {
	num, ok := strings.CutSuffix(name, ".sdk")
	if !ok || len(num) < 4 {
		return false
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Publish gives every written file its name and then removes an earlier
// export's files that the pack does not replace. It stops at the first
// file that fails: the files named before stay.
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
	for _, p := range d.stale {
		// Only a regular file is removed: something else that took the
		// name meanwhile was not written by an export.
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("write %s: remove an earlier export's file: %w", d.dir, err)
			}
		}
	}
	d.stale = nil
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
