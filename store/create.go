package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// creatingInfix marks the temporary file a new bank is built in, beside
// its path: "b.db.creating-123456". No command opens such a name as a
// bank; a leftover of a process that died is removed by the next Open of
// the bank's path.
const creatingInfix = ".creating-"

// create builds a new bank for path in a temporary file in the same
// directory, with pages of pageSize, in WAL mode and fully migrated, and
// then gives it the name path, so that a process killed on the way never
// leaves a half-built bank at path. It holds the temporary file locked
// (flock, as a run's lock file) while it works, which tells a live
// creator's file from a dead one's.
//
// If a bank appeared at path meanwhile (another process created it
// first), create leaves it and discards its own, and made is false; an
// empty file at path is replaced.
func create(ctx context.Context, path string, q []string) (made bool, err error) {
	dir, tmp, lk, err := startCreation(path)
	if err != nil {
		return false, err
	}
	done := false
	defer func() {
		if !done {
			removeSidecars(tmp)
		}
		lk.release()   // removes tmp, which is by now path's or discarded
		os.Remove(tmp) // where there are no lock files
	}()
	if err := buildBank(ctx, tmp, q); err != nil {
		return false, err
	}
	if err := syncFile(tmp); err != nil {
		return false, fmt.Errorf("create: %w", err)
	}
	built, err := os.Stat(tmp)
	if err != nil {
		return false, fmt.Errorf("create: %w", err)
	}
	if err := placeBank(tmp, path); err != nil {
		return false, fmt.Errorf("create: %w", err)
	}
	done = true
	// placeBank leaves a bank another process placed first: this one's
	// is path's only if path is the file it built.
	now, err := os.Stat(path)
	made = err == nil && os.SameFile(built, now)
	return made, syncDir(dir)
}

// startCreation removes what dead creators of a bank at path left and
// makes the temporary file a new bank at path is built in (createTemp),
// in path's directory, which it returns too.
func startCreation(path string) (dir, tmp string, lk *runLock, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeDeadCreations(path)
	tmp, lk, err = createTemp(dir, base)
	return dir, tmp, lk, err
}

// createTemp makes a new empty file for a bank named base in dir, with
// the permissions SQLite gives a new database (0644 less the umask),
// which os.CreateTemp's 0600 would narrow, and returns its name, locked.
// Another creator's removeDeadCreations may find the file before it is
// locked and take it for a dead one's; then the name is dropped for a
// new one.
func createTemp(dir, base string) (string, *runLock, error) {
	for range 100 {
		name := filepath.Join(dir, base+creatingInfix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			// Said of the bank's directory: the temporary name is no
			// name the user gave.
			if _, serr := os.Stat(dir); errors.Is(serr, fs.ErrNotExist) {
				return "", nil, fmt.Errorf("no directory %s to make it in", filepath.Clean(dir))
			}
			return "", nil, fmt.Errorf("make a file in %s: %w", filepath.Clean(dir), reason(err))
		}
		opened, err := f.Stat()
		if err != nil {
			f.Close()
			return "", nil, err
		}
		lk, err := lockOpen(f)
		if lockBusy(err) {
			continue // a cleaner holds it, and removes it
		}
		if err != nil {
			os.Remove(name)
			return "", nil, err
		}
		if now, err := os.Stat(name); err != nil || !os.SameFile(opened, now) {
			lk.drop() // a cleaner removed it: the name is not ours
			continue
		}
		return name, lk, nil
	}
	return "", nil, fmt.Errorf("no free temporary name for %s in %s", base, dir)
}

// buildBank makes the file at tmp a bank at the latest schema version and
// closes it with its WAL checkpointed into it and removed: a WAL is named
// after its database, and would not follow the file to its new name.
func buildBank(ctx context.Context, tmp string, q []string) error {
	x, err := sqlx.Open("sqlite", dsn(tmp, q))
	if err != nil {
		return err
	}
	x.SetMaxOpenConns(1)
	defer x.Close()
	// Pages of pageSize, and in WAL mode from the start, so that the
	// migrations commit without an fsync each (the rollback journal's
	// mode takes three a migration). The page size must come first: the
	// WAL mode writes the file's header, and with it the size.
	if err := setPageSize(ctx, x); err != nil {
		return err
	}
	if err := setWAL(ctx, x); err != nil {
		return err
	}
	if err := migrate(ctx, x, migrationFS, nil, nil); err != nil {
		return err
	}
	var busy, logPages, done int
	if err := x.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logPages, &done); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if busy != 0 || logPages != done {
		return fmt.Errorf("checkpoint: %d of %d pages", done, logPages)
	}
	if err := x.Close(); err != nil {
		return err
	}
	if _, err := os.Stat(tmp + "-wal"); err == nil {
		return fmt.Errorf("%s-wal left after closing", tmp)
	}
	return nil
}

// placeBank gives the built bank at tmp the name path: a new link if
// path is missing, which fails rather than replace a bank another process
// placed meanwhile (that one is kept, and tmp discarded by the caller);
// or a rename over the empty file at path. A file system without hard
// links gets the rename.
func placeBank(tmp, path string) error {
	err := os.Link(tmp, path)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrExist):
		st, serr := os.Stat(path)
		if serr != nil {
			return serr
		}
		if st.Size() > 0 {
			return nil // another process's bank, or a file Open will judge
		}
		return replaceEmpty(tmp, path)
	}
	return os.Rename(tmp, path)
}

// replaceEmpty renames tmp over the empty file at path, unless another
// process replaced that file first: creators of one empty file take
// turns by a lock on it, and the later ones find a file that is not the
// one they locked, and leave it.
func replaceEmpty(tmp, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := waitLock(f); err != nil {
		return err
	}
	locked, err := f.Stat()
	if err != nil {
		return err
	}
	now, err := os.Stat(path)
	if err != nil || !os.SameFile(locked, now) || now.Size() > 0 {
		return nil // replaced, or written: Open judges what is there
	}
	return os.Rename(tmp, path)
}

// removeDeadCreations removes what creators of a bank at path that died
// left beside it: their temporary files, unlocked, and those files'
// journals.
func removeDeadCreations(path string) {
	names, _ := filepath.Glob(globEscape(path) + creatingInfix + "*")
	for _, name := range names {
		if strings.HasSuffix(name, "-wal") || strings.HasSuffix(name, "-shm") || strings.HasSuffix(name, "-journal") {
			continue
		}
		lk, alive, err := probeRun(name)
		if err != nil || alive || lk == nil {
			continue
		}
		removeSidecars(name)
		lk.release()
	}
}

// removeSidecars removes the journal files SQLite may have left beside
// the database file name.
func removeSidecars(name string) {
	for _, s := range []string{"-wal", "-shm", "-journal"} {
		os.Remove(name + s)
	}
}

// globEscape escapes the characters filepath.Match treats specially.
func globEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(s)
}

// syncFile flushes the file name's contents to disk.
func syncFile(name string) error {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("sync %s: %w", name, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", name, err)
	}
	return nil
}

// syncDir flushes a directory's entries to disk, so that a name just
// made in it survives a power cut.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
