package filekind_test

import (
	"io/fs"
	"testing"

	"sudokubank/internal/filekind"
)

func TestOf(t *testing.T) {
	for _, tt := range []struct {
		m    fs.FileMode
		want string
	}{
		{0o644, ""},
		{fs.ModeDir | 0o755, "a directory"},
		{fs.ModeSymlink, "a symbolic link"},
		{fs.ModeNamedPipe, "a named pipe"},
		{fs.ModeSocket, "a socket"},
		{fs.ModeDevice | fs.ModeCharDevice, "a device"},
		{fs.ModeIrregular, "a special file"},
	} {
		if got := filekind.Of(tt.m); got != tt.want {
			t.Errorf("Of(%v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}
