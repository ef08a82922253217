package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"sudokubank/export"
)

// pendingFile is an output file written in two steps: write fills a
// temporary file next to the destination and syncs it; publish gives it
// its name. Between the two the caller commits the pack, so that a pack
// is recorded only for a file that was written whole, and a file gets
// its name only once its pack is recorded.
type pendingFile struct {
	path  string // the destination
	tmp   string // the temporary file, "" once published or discarded
	force bool   // replace an existing destination
}

// checkDestination fails early when path exists and force is not set,
// or when its directory does not exist.
func checkDestination(path string, force bool) error {
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("-out %s: is a directory", path)
		}
		if !force {
			return fmt.Errorf("-out %s: %w (use -force to replace it)", path, export.ErrExists)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("-out %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("-out %s: directory %s does not exist", path, dir)
	}
	return nil
}

// write writes items to a temporary file beside p.path and syncs it.
func (p *pendingFile) write(ctx context.Context, f export.Format, items []export.Item, opt export.Options) (err error) {
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
			p.discard()
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := export.Write(ctx, bw, f, items, opt); err != nil {
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

// publish gives the written temporary file its name. Without force it
// never replaces a file, even one that appeared while it was written.
func (p *pendingFile) publish() error {
	if p.tmp == "" {
		return fmt.Errorf("write %s: nothing written", p.path)
	}
	if p.force {
		if err := os.Rename(p.tmp, p.path); err != nil {
			return fmt.Errorf("write %s: %w", p.path, err)
		}
	} else if err := os.Link(p.tmp, p.path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("write %s: %w (use -force to replace it)", p.path, export.ErrExists)
		}
		return fmt.Errorf("write %s: %w", p.path, err)
	} else {
		os.Remove(p.tmp)
	}
	p.tmp = ""
	syncDir(filepath.Dir(p.path))
	return nil
}

// discard removes the temporary file, if any.
func (p *pendingFile) discard() {
	if p.tmp != "" {
		os.Remove(p.tmp)
		p.tmp = ""
	}
}

// syncDir makes a new name durable; best effort.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
