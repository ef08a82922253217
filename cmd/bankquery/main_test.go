package main_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	bankquery "sudokubank/cmd/bankquery"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// binDir holds the bankquery program built for the end-to-end tests.
var (
	binDir    string
	binary    string
	buildOnce sync.Once
	buildErr  error
)

// TestMain makes the directory the binary is built into and removes it
// at the end. The binary is built on the first end-to-end test, not
// here, so that fuzzing workers, which run TestMain too, do not each
// build it.
func TestMain(m *testing.M) {
	flag.Parse()
	var err error
	binDir, err = os.MkdirTemp("", "bankquery-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(binDir)
	os.Exit(code)
}

// mustBinary builds the bankquery binary once and returns its path.
func mustBinary(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		binary = filepath.Join(binDir, "bankquery")
		out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("build bankquery: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return binary
}

// result is what one run of the command produced.
type result struct {
	stdout, stderr string
	code           int
	err            error
}

// run runs the command in this process, as main would.
func run(tb testing.TB, args ...string) result {
	tb.Helper()
	var out, errb bytes.Buffer
	err := bankquery.Run(context.Background(), args, &out, &errb)
	return result{out.String(), errb.String(), bankquery.ExitCode(err), err}
}

// mustRun runs the command and fails the test unless it succeeds.
func mustRun(tb testing.TB, args ...string) string {
	tb.Helper()
	r := run(tb, args...)
	if r.err != nil {
		tb.Fatalf("bankquery %s: %v\nstderr:\n%s", strings.Join(args, " "), r.err, r.stderr)
	}
	return r.stdout
}

// exe runs the built binary as a subprocess in dir.
func exe(tb testing.TB, dir string, args ...string) result {
	tb.Helper()
	cmd := exec.Command(mustBinary(tb), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
		err = nil
	}
	if err != nil {
		tb.Fatalf("run %s: %v", binary, err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(tb testing.TB, name string, got []byte) {
	tb.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s differs from the golden file (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", path, clip(got), clip(want))
	}
}

func clip(b []byte) string {
	if len(b) > 3000 {
		return string(b[:3000]) + "\n..."
	}
	return string(b)
}

var packTime = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d|\d{8}T\d{6}Z`)

// stable replaces what changes from run to run (the temporary directory,
// times) with fixed text.
func stable(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "$DIR")
	return packTime.ReplaceAllString(s, "TIME")
}
