package export_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"sudokubank/export"
)

// dirNames returns the names in dir.
func dirNames(tb testing.TB, dir string) []string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	ctx := context.Background()
	items := MustItems(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "pack.sdm")

	if err := export.WriteFile(ctx, path, export.SDM, items, export.Options{}, false); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "pack.sdm.golden"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("got %q, want %q", got, want)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := info.Mode().Perm(), os.FileMode(0o644); got != want {
		t.Errorf("got mode %v, want %v", got, want)
	}

	t.Run("NoOverwrite", func(t *testing.T) {
		err := export.WriteFile(ctx, path, export.CSV, items, export.Options{}, false)
		if !errors.Is(err, export.ErrExists) {
			t.Fatalf("got %v, want ErrExists", err)
		}
		if got, _ := os.ReadFile(path); string(got) != string(want) {
			t.Error("the existing file was changed")
		}
	})
	t.Run("Force", func(t *testing.T) {
		if err := export.WriteFile(ctx, path, export.JSON, items, export.Options{}, true); err != nil {
			t.Fatal(err)
		}
		jsonWant, _ := os.ReadFile(filepath.Join("testdata", "pack.jsonl.golden"))
		if got, _ := os.ReadFile(path); string(got) != string(jsonWant) {
			t.Error("force did not replace the file")
		}
	})
	if got := dirNames(t, dir); len(got) != 1 || got[0] != "pack.sdm" {
		t.Errorf("directory holds %q, want only pack.sdm", got)
	}
}

func TestWriteFileFailureLeavesNothing(t *testing.T) {
	ctx := context.Background()
	bad := MustItems(t)
	bad[3].Puzzle = bad[3].Puzzle[:70]
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		format export.Format
		items  []export.Item
		opt    export.Options
	}{
		{"BadItem", ctx, export.CSV, bad, export.Options{}},
		{"BadPerPage", ctx, export.PDF, MustItems(t), export.Options{PDF: export.PDFOptions{PerPage: 5}}},
		{"UnknownFormat", ctx, "docx", MustItems(t), export.Options{}},
		{"Cancelled", cancelled, export.PDF, MustItems(t), export.Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "pack.out")
			if err := export.WriteFile(tt.ctx, path, tt.format, tt.items, tt.opt, false); err == nil {
				t.Fatal("no error")
			}
			if got := dirNames(t, dir); len(got) != 0 {
				t.Errorf("directory holds %q after a failed write, want nothing", got)
			}
			// With force over an existing file, the old file survives.
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := export.WriteFile(tt.ctx, path, tt.format, tt.items, tt.opt, true); err == nil {
				t.Fatal("no error")
			}
			if got, _ := os.ReadFile(path); string(got) != "old" {
				t.Errorf("got %q, want the old file kept", got)
			}
			if got := dirNames(t, dir); len(got) != 1 {
				t.Errorf("directory holds %q, want only the old file", got)
			}
		})
	}
}

func TestWriteFileNoDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "pack.sdm")
	err := export.WriteFile(context.Background(), path, export.SDM, MustItems(t), export.Options{}, false)
	if err == nil {
		t.Fatal("no error for a missing directory")
	}
	if _, statErr := os.Stat(path); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("got %v, want no file", statErr)
	}
}
