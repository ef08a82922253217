package main_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	bankquery "sudokubank/cmd/bankquery"
	"sudokubank/internal/cli"
)

// An export interrupted at any moment leaves either its file and its
// pack or neither, and never a temporary file.
func TestExportInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary several times")
	}
	bin := mustBinary(t)
	db := MustBank(t)
	for i, delay := range []time.Duration{0, 5 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond} {
		dir := t.TempDir()
		out := filepath.Join(dir, "book.pdf")
		cmd := exec.Command(bin, "export", "-db", db, "-count", "150", "-format", "pdf", "-per-page", "1",
			"-out", out, "-seed", "1", "-pack", "try-"+delay.String())
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		_, statErr := os.Stat(out)
		wrote := statErr == nil
		recorded := false
		for _, p := range MustPacks(t, db) {
			recorded = recorded || p.Name == "try-"+delay.String()
		}
		t.Logf("interrupt after %s: exit %d, file %v, pack %v", delay, code, wrote, recorded)
		if wrote != recorded {
			t.Errorf("run %d: file written %v but pack recorded %v; stderr:\n%s", i, wrote, recorded, stderr.String())
		}
		if wrote && code != 0 || !wrote && code == 0 {
			t.Errorf("run %d: exit %d with file written %v", i, code, wrote)
		}
		if code != 0 && code != 130 && code != -1 {
			t.Errorf("run %d: exit %d, want 0 or 130; stderr:\n%s", i, code, stderr.String())
		}
		if want := "bankquery export: interrupted: " + out + " was not written and no pack was recorded\n"; code == 130 && !strings.HasSuffix(stderr.String(), want) {
			t.Errorf("run %d: stderr %q, want it to end in %q", i, stderr.String(), want)
		}
		if strings.Contains(stderr.String(), "goroutine ") {
			t.Errorf("run %d: stack trace:\n%s", i, stderr.String())
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() != "book.pdf" {
				t.Errorf("run %d left %s", i, e.Name())
			}
		}
	}
}

// TestInterruptedSays runs the commands that write, and one that reads,
// with their context cancelled as a signal cancels it: each exits 130
// with one line that says it was interrupted and what it left, never
// the raw "context canceled", and leaves no file, pack or release.
func TestInterruptedSays(t *testing.T) {
	db := MustBank(t)
	mustRun(t, "export", "-db", db, "-count", "5", "-format", "sdm", "-out", filepath.Join(t.TempDir(), "p.sdm"), "-pack", "kept", "-seed", "1")
	dir := t.TempDir()
	out := filepath.Join(dir, "book.pdf")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"Export", []string{"export", "-db", db, "-count", "20", "-format", "pdf", "-out", out, "-pack", "stopped", "-seed", "1"},
			"bankquery export: interrupted: " + out + " was not written and no pack was recorded\n"},
		{"ExportNoRecord", []string{"export", "-db", db, "-count", "20", "-format", "sdm", "-out", "-", "-no-record", "-seed", "1"},
			"bankquery export: interrupted: nothing was written to standard output\n"},
		{"PacksExport", []string{"packs", "export", "kept", "-db", db, "-format", "csv", "-out", out},
			"bankquery packs export: interrupted: " + out + " was not written\n"},
		{"PacksRelease", []string{"packs", "release", "kept", "-db", db, "-force"},
			"bankquery packs release: interrupted: pack kept was not released\n"},
		{"List", []string{"list", "-db", db}, "bankquery list: interrupted\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var stdout, stderr strings.Builder
			err := bankquery.Run(ctx, tt.args, &stdout, &stderr)
			if code := bankquery.ExitCode(err); code != 130 || !errors.Is(err, cli.ErrInterrupted) {
				t.Errorf("exit %d, error %v; want 130 and interrupted", code, err)
			}
			if stderr.String() != tt.want || stdout.Len() > 0 {
				t.Errorf("stderr %q, stdout %q; want stderr %q alone", stderr.String(), stdout.String(), tt.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("left %s", entries[0].Name())
			}
			packs := MustPacks(t, db)
			if len(packs) != 1 || packs[0].Name != "kept" || packs[0].Released() {
				t.Errorf("packs %+v, want kept alone, not released", packs)
			}
		})
	}
}
