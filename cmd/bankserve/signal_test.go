package main_test

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The binary serves until SIGTERM, then stops cleanly with status 0,
// having logged each request.
func TestBinaryStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := filepath.Join(t.TempDir(), "bankserve")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-db", MustBank(t), "-addr", "127.0.0.1:0")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("read the address: %v; stderr:\n%s", err, stderr.String())
	}
	i := strings.Index(line, "http://127.0.0.1:")
	if i < 0 {
		t.Fatalf("printed %q, want the loopback address", line)
	}
	resp, err := http.Get(strings.TrimSpace(line[i:]) + "healthz")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, stdout) // to the end: the process has exited
	if err := cmd.Wait(); err != nil {
		t.Errorf("after SIGTERM: %v, want exit 0; stderr:\n%s", err, stderr.String())
	}
	log := stderr.String()
	if !strings.Contains(log, "path=/healthz") || !strings.Contains(log, "msg=stopped") {
		t.Errorf("stderr:\n%s\nwant the request's log line and the stop", log)
	}
}
