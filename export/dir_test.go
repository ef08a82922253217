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
	t.Run("SmallerPackReplacesTheLarger", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "pack")
		d := export.NewPendingDir(dir, false)
		if err := d.Write(ctx, export.SDK, items, export.Options{}); err != nil {
			t.Fatal(err)
		}
		if err := d.Publish(); err != nil {
			t.Fatal(err)
		}
		// A file the export did not name stays whatever happens.
		other := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(other, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		// Without force, a pack of two would leave 0003.sdk beside it.
		d = export.NewPendingDir(dir, false)
		two := slices.Clone(items[:2])
		two[0].Number, two[1].Number = 1, 2
		if err := d.Write(ctx, export.SDK, two, export.Options{}); !errors.Is(err, export.ErrExists) {
			t.Errorf("a smaller pack without force: %v, want ErrExists", err)
		}
		// Nor, without force, another pack whose names are all new.
		later := slices.Clone(two)
		later[0].Number, later[1].Number = 4, 5
		if err := export.NewPendingDir(dir, false).Write(ctx, export.SDK, later, export.Options{}); !errors.Is(err, export.ErrExists) {
			t.Errorf("a pack numbered from 4 without force: %v, want ErrExists", err)
		}
		d = export.NewPendingDir(dir, true)
		if err := d.Write(ctx, export.SDK, two, export.Options{}); err != nil {
			t.Fatal(err)
		}
		// Until it is published the earlier pack is whole.
		if got := dirNames(t, dir); !slices.Contains(got, "0003.sdk") {
			t.Errorf("directory holds %v before Publish, want the earlier 0003.sdk still", got)
		}
		if err := d.Publish(); err != nil {
			t.Fatal(err)
		}
		if got, want := dirNames(t, dir), []string{"0001.sdk", "0002.sdk", "notes.txt"}; !slices.Equal(got, want) {
			t.Errorf("directory holds %v after a smaller pack with force, want %v", got, want)
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
