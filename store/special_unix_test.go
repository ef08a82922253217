//go:build unix

package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"sudokubank/store"
)

// A -db that is not a regular file is refused as not a bank by every
// open, and left as it was: a named pipe must not block the open for
// good, and a device (as /dev/null) must not read as an empty file that
// a new bank is then renamed over.
func TestOpenSpecialFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files := map[string]func(path string) error{
		"Directory": func(p string) error { return os.Mkdir(p, 0o755) },
		"NamedPipe": func(p string) error { return syscall.Mkfifo(p, 0o644) },
	}
	if os.Geteuid() == 0 {
		// The null device's numbers on Linux (1, 3); only root may make one.
		files["Device"] = func(p string) error { return syscall.Mknod(p, syscall.S_IFCHR|0o644, 1<<8|3) }
	}
	opens := map[string]func(path string) error{
		"Open": func(p string) error {
			db, err := store.Open(ctx, p, store.Options{})
			if err == nil {
				db.Close()
			}
			return err
		},
		"OpenReadOnly": func(p string) error {
			db, err := store.OpenReadOnly(ctx, p)
			if err == nil {
				db.Close()
			}
			return err
		},
	}
	for name, mk := range files {
		for oname, open := range opens {
			t.Run(name+"/"+oname, func(t *testing.T) {
				path := filepath.Join(dir, name+oname+".db")
				if err := mk(path); err != nil {
					t.Skipf("cannot make %s: %v", name, err)
				}
				before, err := os.Lstat(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := open(path); !errors.Is(err, store.ErrNotBank) {
					t.Errorf("%s = %v, want ErrNotBank", oname, err)
				}
				after, err := os.Lstat(path)
				if err != nil || after.Mode() != before.Mode() {
					t.Errorf("after %s: %v %v, want the %s left as it was (%v)", oname, after.Mode(), err, name, before.Mode())
				}
			})
		}
	}
}
