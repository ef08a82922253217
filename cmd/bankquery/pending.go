package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"sudokubank/export"
)

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
