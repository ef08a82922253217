package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
