package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes items in format f to the file at path, atomically: it
// writes a temporary file in the same directory, syncs it to disk and
// only then gives it its name, so readers see either no file or the whole
// file. It refuses to replace an existing file unless force is set
// (ErrExists). On any error, cancellation included, it removes its
// temporary file and leaves path as it was.
func WriteFile(ctx context.Context, path string, f Format, items []Item, opt Options, force bool) (err error) {
	if !force {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("write %s: %w (use force to replace it)", path, ErrExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()

	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := Write(ctx, bw, f, items, opt); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if force {
		if err := os.Rename(tmpName, path); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	} else if err := linkNew(tmpName, path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
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
		return fmt.Errorf("write %s: %w (use force to replace it)", path, ErrExists)
	}
	if _, statErr := os.Lstat(path); statErr == nil {
		return fmt.Errorf("write %s: %w (use force to replace it)", path, ErrExists)
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
