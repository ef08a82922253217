package server_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"sudokubank/internal/banktest"
	"sudokubank/server"
)

// syncBuffer is a log's buffer that the server's goroutines may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestDamagedBank serves a bank damaged in two ways: a family's value
// changed to a text where an integer was (the rows of its puzzles no
// longer read), and half a page of the puzzles table overwritten (SQLite
// finds it malformed). The API answers a JSON 500 that calls the bank
// damaged without naming its file, for remote clients; the server's log
// names the file and the check to run.
func TestDamagedBank(t *testing.T) {
	for _, tt := range []struct {
		name   string
		damage func(testing.TB, string)
		paths  []string
	}{
		{"Value", func(tb testing.TB, path string) { banktest.MustExec(tb, path, "UPDATE families SET ep = 'x'") },
			[]string{"/api/v1/puzzles", "/api/v1/puzzles?level=easy", "/api/v1/puzzles/1", "/api/v1/puzzles/1/hints",
				"/api/v1/puzzles/random?seed=1", "/api/v1/daily/2026-11-28", "/api/v1/export?count=3", "/api/v1/export?ids=1,2"}},
		// A page of the list reads a window of IDs, which the store does
		// not count against the bank's counts: an empty one passes.
		{"Page", banktest.DamagePage,
			[]string{"/api/v1/puzzles/1", "/api/v1/export?count=3"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bank := MustBank(t, MustFixture(t))
			tt.damage(t, bank)
			var log syncBuffer
			ts := MustServer(t, bank, server.Options{Log: slog.New(slog.NewTextHandler(&log, nil))})
			for _, p := range tt.paths {
				r := MustDo(t, http.MethodGet, ts.URL+p, nil, nil)
				if r.status != http.StatusInternalServerError || !hasError(r.body, "bank is damaged") ||
					!strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
					t.Errorf("GET %s: status %d, %s; want 500 and a JSON error that calls the bank damaged", p, r.status, r.body)
				}
				if dir := filepath.Dir(bank); bytes.Contains(r.body, []byte(dir)) || bytes.Contains(r.body, []byte("puzzles.db")) {
					t.Errorf("GET %s: the answer names the bank's file: %s", p, r.body)
				}
			}
			if l := log.String(); !strings.Contains(l, "bank damaged") || !strings.Contains(l, "file="+bank) ||
				!strings.Contains(l, "bankquery check -db "+bank) {
				t.Errorf("the log does not name the damaged file and the check to run:\n%s", l)
			}
		})
	}
}

// TestBrowserDamagedBank: the page of a damaged bank says so in its
// status line, for a list and for one puzzle, whose page is the shell
// with status 500 and calls the puzzle unavailable, not missing.
func TestBrowserDamagedBank(t *testing.T) {
	b := MustBrowser(t, 1200, 1000)
	bank := MustBank(t, MustFixture(t))
	banktest.MustExec(t, bank, "UPDATE families SET ep = 'x'")
	ts := MustServer(t, bank, server.Options{})
	for _, p := range []string{"/?level=easy", "/puzzles/1"} {
		b.do(t, chromedp.Navigate(ts.URL+p), wait(`(document.getElementById("status")?.textContent ?? "") !== ""`))
		if got := eval[string](t, b, `document.getElementById("status").textContent`); !strings.Contains(got, "puzzle bank is damaged") {
			t.Errorf("%s: the status line says %q, want the bank called damaged", p, got)
		}
	}
	if got := eval[string](t, b, `document.getElementById("p-title").textContent`); got != "Puzzle unavailable" {
		t.Errorf("/puzzles/1: heading %q, want Puzzle unavailable", got)
	}
	if r := MustDo(t, http.MethodGet, ts.URL+"/puzzles/1", nil, nil); r.status != http.StatusInternalServerError ||
		!strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /puzzles/1: status %d, %s; want the page's shell with 500", r.status, r.header.Get("Content-Type"))
	}
}
