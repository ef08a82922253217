package export_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"sudokubank/export"
)

func TestPendingDir(t *testing.T) {
	ctx := context.Background()
	items := MustItems(t)[:3]
	want := []string{"0001.sdk", "0002.sdk", "0003.sdk"}

	t.Run("New", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "pack")
		d := export.NewPendingDir(dir, false)
		if err := d.Write(ctx, export.SDK, items, export.Options{}); err != nil {
			t.Fatal(err)
		}
		if err := d.Publish(); err != nil {
			t.Fatal(err)
		}
		if got := dirNames(t, dir); !slices.Equal(got, want) {
			t.Fatalf("directory holds %v, want %v", got, want)
		}
		// Each file is what a one-puzzle export writes.
		var one bytes.Buffer
		if err := export.Write(ctx, &one, export.SDK, items[1:2], export.Options{}); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "0002.sdk")); err != nil || !bytes.Equal(got, one.Bytes()) {
			t.Errorf("0002.sdk = %q, %v, want %q", got, err, one.Bytes())
		}
		// Again without force: refused before anything is written.
		d = export.NewPendingDir(dir, false)
		if err := d.Write(ctx, export.SDK, items, export.Options{}); !errors.Is(err, export.ErrExists) {
			t.Errorf("a second write without force: %v, want ErrExists", err)
		}
		if got := dirNames(t, dir); !slices.Equal(got, want) {
			t.Errorf("directory holds %v after a refused write, want %v", got, want)
		}
	})
	t.Run("DiscardRemovesWhatItMade", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "pack")
		d := export.NewPendingDir(dir, false)
		if err := d.Write(ctx, export.SDK, items, export.Options{}); err != nil {
			t.Fatal(err)
		}
		d.Discard()
		if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("directory left after Discard: %v", err)
		}
	})
	t.Run("NotADirectory", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := export.NewPendingDir(path, true).Write(ctx, export.SDK, items, export.Options{})
		if !errors.Is(err, export.ErrNotRegular) {
			t.Errorf("write into a file: %v, want ErrNotRegular", err)
		}
	})
	t.Run("OtherFormat", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "pack")
		if err := export.NewPendingDir(dir, false).Write(ctx, export.CSV, items, export.Options{}); err == nil {
			t.Error("a directory of csv files was written")
		}
	})
}
