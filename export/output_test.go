package export_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sudokubank/export"
)

// MustFile writes a small regular file at path.
func MustFile(tb testing.TB, path string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestCheckOutput checks where an export may go: never the bank or the
// files beside it however they are spelt, a file only if it is regular
// and (without force) new, a directory only inside one that exists.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	bank := filepath.Join(dir, "bank.db")
	MustFile(t, bank)
	MustFile(t, filepath.Join(dir, "old.sdm"))
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(bank, filepath.Join(dir, "hard.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "via")); err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.Separator)
	tests := []struct {
		name, path string
		force      bool
		want       error  // nil: no error
		says       string // what the error says, for an error no sentinel names
	}{
		{"Stdout", export.Stdout, false, nil, ""},
		{"NewFile", "new.sdm", false, nil, ""},
		{"Bank", bank, true, export.ErrBankFile, ""},
		{"BankRelative", "bank.db", true, export.ErrBankFile, ""},
		{"BankWAL", bank + "-wal", true, export.ErrBankFile, ""},
		{"BankSHM", "bank.db-shm", true, export.ErrBankFile, ""},
		{"BankJournal", bank + "-journal", true, export.ErrBankFile, ""},
		{"BankThroughLinkedDir", filepath.Join(dir, "via", "bank.db-wal"), true, export.ErrBankFile, ""},
		{"BankHardLink", "hard.db", true, export.ErrBankFile, ""},
		{"Exists", "old.sdm", false, export.ErrExists, ""},
		{"ExistsForced", "old.sdm", true, nil, ""},
		{"Directory", "sub", true, export.ErrNotRegular, ""},
		{"NoDirectory", filepath.Join("missing", "x.sdm"), false, nil, "directory missing does not exist"},
		{"DirOutput", "sub" + sep, false, nil, ""},
		{"NewDirOutput", filepath.Join("sub", "new") + sep, false, nil, ""},
		{"DirOutputIsFile", "old.sdm" + sep, false, export.ErrNotRegular, ""},
		{"DirOutputNoParent", filepath.Join("missing", "new") + sep, false, nil, "directory missing does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := export.CheckOutput(tt.path, bank, tt.force)
			switch {
			case tt.says != "":
				if err == nil || err.Error() != tt.says {
					t.Errorf("CheckOutput(%q) = %v, want %q", tt.path, err, tt.says)
				}
			case tt.want == nil:
				if err != nil {
					t.Errorf("CheckOutput(%q) = %v, want nil", tt.path, err)
				}
			case !errors.Is(err, tt.want):
				t.Errorf("CheckOutput(%q) = %v, want %v", tt.path, err, tt.want)
			}
		})
	}
	// The error names the bank as it was given.
	if err := export.CheckOutput("bank.db-wal", bank, true); err == nil || err.Error() != "is the bank "+bank+" or one of its files; name another file" {
		t.Errorf("CheckOutput of the WAL says %v", err)
	}
}

// TestNewPending checks that each kind of output is made whole before
// Publish hands it over: standard output included.
func TestNewPending(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, path string
		want       any
	}{
		{"Stdout", export.Stdout, &export.PendingWriter{}},
		{"Dir", filepath.Join(dir, "d") + string(filepath.Separator), &export.PendingDir{}},
		{"File", filepath.Join(dir, "f.sdm"), &export.PendingFile{}},
	} {
		p := export.NewPending(tt.path, nil, false)
		if got, want := fmt.Sprintf("%T", p), fmt.Sprintf("%T", tt.want); got != want {
			t.Errorf("%s: NewPending(%q) is a %s, want a %s", tt.name, tt.path, got, want)
		}
	}
	var out bytes.Buffer
	p := export.NewPending(export.Stdout, &out, false)
	if err := p.Write(context.Background(), export.SDM, MustItems(t), export.Options{}); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Fatalf("%d bytes written before Publish", out.Len())
	}
	if err := p.Publish(); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := export.Write(context.Background(), &want, export.SDM, MustItems(t), export.Options{}); err != nil {
		t.Fatal(err)
	}
	if out.String() != want.String() {
		t.Errorf("published %q, want %q", out.String(), want.String())
	}
	p.Discard()
}
