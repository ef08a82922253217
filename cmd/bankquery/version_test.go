package main_test

import (
	"strings"
	"testing"
)

// TestVersion asks the binary and its subcommands for the version: exit
// 0, the module and the revision on stdout, no bank needed.
func TestVersion(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"-version"}, {"--version"}, {"stats", "-version"}, {"runs", "-db", "none.db", "-version"}, {"list", "-version"}} {
		r := exe(t, dir, args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "bankquery ") || !strings.Contains(r.stdout, "\nmodule   sudokubank\n") || !strings.Contains(r.stdout, "\nrevision ") {
			t.Errorf("bankquery %q: exit code %d, stdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
		}
	}
}
