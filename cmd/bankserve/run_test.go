package main_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bankserve "sudokubank/cmd/bankserve"
	"sudokubank/internal/banktest"
	"sudokubank/internal/cli"
	"sudokubank/store"
)

// MustBank writes a small bank of bankquery's fixture families and
// returns its path, closed.
func MustBank(tb testing.TB) string {
	tb.Helper()
	return banktest.MustBank(tb, banktest.MustFamilies(tb, "../bankquery/testdata/families.jsonl", 20))
}

func TestFlagErrors(t *testing.T) {
	bank := MustBank(t)
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"UnknownFlag", []string{"-nope"}, cli.ExitUsage},
		{"Argument", []string{"-db", bank, "extra"}, cli.ExitUsage},
		{"NoPort", []string{"-db", bank, "-addr", "127.0.0.1"}, cli.ExitUsage},
		{"BadPort", []string{"-db", bank, "-addr", "127.0.0.1:99999"}, cli.ExitUsage},
		{"NoInflight", []string{"-db", bank, "-max-inflight", "0"}, cli.ExitUsage},
		{"BadInflight", []string{"-db", bank, "-max-inflight", "x"}, cli.ExitUsage},
		{"EmptyDB", []string{"-db", ""}, cli.ExitUsage},
		{"CORSPath", []string{"-db", bank, "-cors", "https://app.example.com/play"}, cli.ExitUsage},
		{"CORSScheme", []string{"-db", bank, "-cors", "app.example.com"}, cli.ExitUsage},
		{"MissingBank", []string{"-db", filepath.Join(t.TempDir(), "none.db"), "-addr", "127.0.0.1:0"}, cli.ExitFailure},
		{"Help", []string{"-h"}, cli.ExitOK},
		{"Version", []string{"-version"}, cli.ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			err := bankserve.Run(context.Background(), tt.args, &stdout, &stderr)
			if got := cli.ExitCode(err); got != tt.want {
				t.Errorf("Run(%q) = %v, exit %d; want %d", tt.args, err, got, tt.want)
			}
		})
	}
}

// TestMessages checks what a bad -addr or -cors, a missing bank and a
// port in use say: each names the flag or the bank once, with the
// reason, and no internal wording (strconv.Atoi, "listen tcp", url's
// "parse").
func TestMessages(t *testing.T) {
	bank := MustBank(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	inUse := busy.Addr().String()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"PortName", []string{"-db", bank, "-addr", "localhost:http"}, cli.ExitUsage, `-addr "localhost:http": want host:port, such as 127.0.0.1:8080 (port "http" is not a number)`},
		{"PortRange", []string{"-db", bank, "-addr", ":99999"}, cli.ExitUsage, `-addr ":99999": want host:port, such as 127.0.0.1:8080 (port 99999 is out of range: 0 to 65535)`},
		{"URL", []string{"-db", bank, "-addr", "http://127.0.0.1:8080"}, cli.ExitUsage, `-addr "http://127.0.0.1:8080": want host:port, such as 127.0.0.1:8080 (an address, not a URL: no scheme)`},
		{"NoPort", []string{"-db", bank, "-addr", "bogus"}, cli.ExitUsage, `-addr "bogus": want host:port, such as 127.0.0.1:8080 (missing port in address)`},
		{"CORSList", []string{"-db", bank, "-cors", "https://a.example.com,https://b.example.com"}, cli.ExitUsage, `-cors: origin "https://a.example.com,https://b.example.com": want one origin, such as https://app.example.com, or *`},
		{"MissingBank", []string{"-db", "none.db", "-addr", "127.0.0.1:0"}, cli.ExitFailure, "open bank none.db: no such file or directory"},
		{"PortInUse", []string{"-db", bank, "-addr", inUse}, cli.ExitFailure, "-addr " + inUse + ": address already in use: another process listens on the port; stop it or choose another port"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := bankserve.Run(context.Background(), tt.args, io.Discard, io.Discard)
			if got := cli.ExitCode(err); got != tt.code || err == nil || err.Error() != tt.want {
				t.Errorf("Run(%q) = %v (exit %d); want %q (exit %d)", tt.args, err, got, tt.want, tt.code)
			}
		})
	}
}

// A missing bank is not created.
func TestMissingBankNotCreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	err := bankserve.Run(context.Background(), []string{"-db", path, "-addr", "127.0.0.1:0"}, io.Discard, io.Discard)
	if err == nil {
		t.Fatal("served a missing bank")
	}
	if _, serr := os.Stat(path); serr == nil {
		t.Errorf("a missing bank was created")
	}
}

// MustServe runs bankserve with args on a loopback port until the test
// stops it, and returns the address it prints and a stop that returns
// Run's error.
func MustServe(tb testing.TB, args ...string) (url string, stop func() error) {
	tb.Helper()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	done := make(chan error, 1)
	go func() {
		done <- bankserve.Run(ctx, append(args, "-addr", "127.0.0.1:0"), pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		tb.Fatalf("read the address: %v", err)
	}
	i := strings.Index(line, "http://127.0.0.1:")
	if i < 0 {
		tb.Fatalf("Run printed %q, want the loopback address it serves", line)
	}
	go io.Copy(io.Discard, pr)
	return strings.TrimSpace(line[i:]), func() error {
		cancel()
		return <-done
	}
}

// Run serves on the address it prints until its context is done, and
// then returns nil.
func TestRunServesAndStops(t *testing.T) {
	url, stop := MustServe(t, "-db", MustBank(t))
	resp, err := http.Get(url + "api/v1/puzzles/1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET puzzle 1: %d", resp.StatusCode)
	}
	if err := stop(); err != nil {
		t.Errorf("Run: %v, want nil after a clean stop", err)
	}
}

// -cors with the trailing slash an address bar shows allows the origin
// a browser sends, which has none.
func TestCORSTrailingSlash(t *testing.T) {
	const origin = "https://app.example.com"
	url, stop := MustServe(t, "-db", MustBank(t), "-cors", origin+"/")
	defer stop()
	resp, err := http.Get(url + "api/v1/stats")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != origin {
		t.Errorf("Access-Control-Allow-Origin %q, want %q", got, origin)
	}
}

// A bank at an older schema version is refused and left as it is, not
// migrated: that is bankgen's job.
func TestOldBankRefused(t *testing.T) {
	bank := MustBank(t)
	setVersion := func(v int) int {
		db, err := sql.Open("sqlite", bank)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if v > 0 {
			if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
				t.Fatal(err)
			}
		}
		var got int
		if err := db.QueryRow("PRAGMA user_version").Scan(&got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	setVersion(3)
	err := bankserve.Run(context.Background(), []string{"-db", bank, "-addr", "127.0.0.1:0"}, io.Discard, io.Discard)
	if !errors.Is(err, store.ErrOldBank) || cli.ExitCode(err) != cli.ExitFailure {
		t.Errorf("Run on an old bank: %v (exit %d), want ErrOldBank and exit 1", err, cli.ExitCode(err))
	}
	if v := setVersion(0); v != 3 {
		t.Errorf("user_version %d after Run, want 3 (unmigrated)", v)
	}
}
