//go:build unix

package export_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"sudokubank/export"
)

// TestWriteFileOnlyRegular gives WriteFile, with force, paths that are
// not regular files: each is refused (ErrNotRegular) and left as it was,
// where a rename would have replaced the pipe, or the link itself.
func TestWriteFileOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
		mode             fs.FileMode
	}{
		{"NamedPipe", fifo, "is a named pipe", fs.ModeNamedPipe},
		{"SymbolicLink", link, "is a symbolic link", fs.ModeSymlink},
		{"Directory", dir, "is a directory", fs.ModeDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := export.WriteFile(context.Background(), tt.path, export.SDM, MustItems(t), export.Options{}, true)
			if !errors.Is(err, export.ErrNotRegular) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("WriteFile error %v, want ErrNotRegular saying %q", err, tt.want)
			}
			if fi, err := os.Lstat(tt.path); err != nil || fi.Mode()&tt.mode == 0 {
				t.Errorf("%s is now %v, %v", tt.path, fi.Mode(), err)
			}
		})
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target holds %q", b)
	}
	if got := dirNames(t, dir); len(got) != 3 {
		t.Errorf("directory holds %q, want the pipe, the target and the link", got)
	}
	// A device is tried without force only: a broken check must not
	// replace the system's null device.
	err := export.WriteFile(context.Background(), os.DevNull, export.SDM, MustItems(t), export.Options{}, false)
	if !errors.Is(err, export.ErrNotRegular) || !strings.Contains(err.Error(), "is a device") {
		t.Errorf("WriteFile(%s) error %v, want ErrNotRegular saying it is a device", os.DevNull, err)
	}
}
