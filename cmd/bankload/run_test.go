package main_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	bankload "sudokubank/cmd/bankload"
	"sudokubank/internal/banktest"
	"sudokubank/internal/cli"
	"sudokubank/server"
	"sudokubank/store"
)

// MustBank writes a small bank of bankquery's fixture families and
// returns its path, closed.
func MustBank(tb testing.TB) string {
	tb.Helper()
	return banktest.MustBank(tb, banktest.MustFamilies(tb, "../bankquery/testdata/families.jsonl", 0))
}

// run runs bankload and returns its output and error.
func run(args ...string) (string, string, error) {
	var out, errs bytes.Buffer
	err := bankload.Run(context.Background(), args, &out, &errs)
	return out.String(), errs.String(), err
}

// A bounded load on a bank served in-process reports every figure.
func TestLoadInProcess(t *testing.T) {
	out, _, err := run("-db", MustBank(t), "-c", "4", "-n", "120", "-d", "5m")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"/api/v1/puzzles/random?level=evil: 4 clients", "requests  120 in ", ", 0 errors",
		"requests/s", "p50 ", "p99 ", "cpu ", "memory    rss "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A running server by URL; answers other than 200 are errors, and fail
// the run.
func TestLoadURL(t *testing.T) {
	db, err := store.OpenReadOnly(context.Background(), MustBank(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ts := httptest.NewServer(server.New(db, server.Options{}))
	defer ts.Close()
	out, _, err := run("-url", ts.URL+"/", "-c", "2", "-n", "30", "-d", "5m", "-path", "/api/v1/puzzles?level=easy&limit=5")
	if err != nil || !strings.Contains(out, "requests  30 in ") {
		t.Errorf("%v\n%s", err, out)
	}
	out, _, err = run("-url", ts.URL, "-c", "2", "-n", "10", "-d", "5m", "-path", "/api/v1/puzzles/random?level=nope")
	if err == nil || !strings.Contains(err.Error(), "10 of 10 requests failed") || !strings.Contains(out, "error     status 400") {
		t.Errorf("bad level: %v\n%s", err, out)
	}
}

// TestNoServer loads a URL where no server listens: one failure at once,
// with the reason, not a load of failed requests and their rate.
func TestNoServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	out, _, err := run("-url", "http://"+addr, "-c", "2", "-d", "5m")
	want := "-url http://" + addr + ": no server answers: connection refused"
	if err == nil || err.Error() != want || cli.ExitCode(err) != cli.ExitFailure || out != "" {
		t.Errorf("%v (exit %d), stdout %q; want %q, exit 1 and no report", err, cli.ExitCode(err), out, want)
	}
}

// -every prints progress lines to stderr while the load runs.
func TestProgress(t *testing.T) {
	_, stderr, err := run("-db", MustBank(t), "-c", "1", "-d", "250ms", "-every", "50ms")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "requests/s") || !strings.Contains(stderr, "rss ") {
		t.Errorf("progress:\n%s", stderr)
	}
}

// -pid naming no process is refused before any request is sent, naming
// the pid, not found out as "memory unknown" at the end of the run.
func TestPidNoProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no Linux /proc here:", err)
	}
	// Above PID_MAX_LIMIT (4194304), so no process has it.
	const pid = "4194305"
	var asked atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asked.Add(1) }))
	defer ts.Close()
	out, _, err := run("-url", ts.URL, "-pid", pid, "-n", "1")
	if want := "-pid " + pid + ": no such process"; err == nil || !strings.Contains(err.Error(), want) || cli.ExitCode(err) != cli.ExitUsage || out != "" || asked.Load() != 0 {
		t.Errorf("%v (exit %d), stdout %q, %d requests; want %q, exit 2, no report and no request", err, cli.ExitCode(err), out, asked.Load(), want)
	}
}

func TestFlagErrors(t *testing.T) {
	tests := [][]string{
		{},
		{"-url", "http://127.0.0.1:1", "-db", "x.db"},
		{"-db", "x.db", "-c", "0"},
		{"-db", "x.db", "-d", "0s"},
		{"-db", "x.db", "-n", "-1"},
		{"-db", "x.db", "-every", "-1s"},
		{"-db", "x.db", "-timeout", "0s"},
		{"-db", "x.db", "-max-inflight", "0"},
		{"-db", "x.db", "-pid", "1"},
		{"-url", "http://127.0.0.1:1", "-pid", "-1"},
		{"-db", "x.db", "-path", "api/v1/stats"},
		{"-url", "127.0.0.1:8080"},
		{"-url", "ftp://host/"},
		{"-db", "x.db", "extra"},
		{"-nope"},
	}
	for _, args := range tests {
		_, _, err := run(args...)
		if cli.ExitCode(err) != cli.ExitUsage {
			t.Errorf("%q: %v (exit %d), want a usage error", args, err, cli.ExitCode(err))
		}
	}
	_, _, err := run("-db", filepath.Join(t.TempDir(), "missing.db"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || strings.Count(err.Error(), "missing.db") != 1 {
		t.Errorf("missing bank: %v, want it named once", err)
	}
	out, _, err := run("-h")
	if err != nil || !strings.Contains(out, "Usage: bankload") || !strings.Contains(out, "-every") {
		t.Errorf("-h: %v\n%s", err, out)
	}
}
