//go:build unix

package main_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestExportWritesOnlyRegularFiles gives -force an output that is not a
// regular file: it is refused with a message that says what it is, and
// left as it was. A device is tried without -force only, so that a
// broken check cannot replace the system's /dev/null.
func TestExportWritesOnlyRegularFiles(t *testing.T) {
	db := MustBank(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	target := filepath.Join(dir, "target.sdm")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink := filepath.Join(dir, "link.sdm")
	if err := os.Symlink(target, symlink); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.sdm")
	if err := os.Symlink(filepath.Join(dir, "nowhere.sdm"), dangling); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, out string
		force     bool
		want      string
		mode      fs.FileMode // the type the path must still have
	}{
		{"NamedPipe", fifo, true, "is a named pipe", fs.ModeNamedPipe},
		{"SymbolicLink", symlink, true, "is a symbolic link", fs.ModeSymlink},
		{"DanglingSymbolicLink", dangling, false, "is a symbolic link", fs.ModeSymlink},
		{"Directory", sub, true, "is a directory", fs.ModeDir},
		{"Device", os.DevNull, false, "is a device", fs.ModeDevice},
	}
	for _, tt := range tests {
		for _, mode := range []string{"Recorded", "NoRecord"} {
			t.Run(tt.name+mode, func(t *testing.T) {
				args := []string{"export", "-db", db, "-count", "3", "-format", "sdm", "-out", tt.out}
				if tt.force {
					args = append(args, "-force")
				}
				if mode == "NoRecord" {
					args = append(args, "-no-record")
				}
				r := run(t, args...)
				if r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
					t.Errorf("exit status %d, error %v; want 2 (a usage error) and %q", r.code, r.err, tt.want)
				}
				if got := mustStat(t, tt.out).Mode(); got&tt.mode == 0 {
					t.Errorf("%s is now %v", tt.out, got)
				}
			})
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Errorf("the symbolic link's target holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere.sdm")); err == nil {
		t.Error("the dangling link's target was created")
	}
	if packs := MustPacks(t, db); len(packs) != 0 {
		t.Errorf("refused exports recorded %d packs", len(packs))
	}
}
