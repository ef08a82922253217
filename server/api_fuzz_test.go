package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"sudokubank/server"
	"sudokubank/store"
)

// apiRoutes are the API's paths, with {} where the fuzzer's segment
// goes: a puzzle ID or a date, as a client may type anything there.
var apiRoutes = []string{
	"/api/v1/stats",
	"/api/v1/puzzles",
	"/api/v1/puzzles/random",
	"/api/v1/puzzles/{}",
	"/api/v1/puzzles/{}/hints",
	"/api/v1/daily/{}",
	"/api/v1/export",
	"/puzzles/{}",
}

// FuzzAPI sends the API any path segment and query string: every answer
// is a success or a 4xx whose JSON error names a parameter or the thing
// not found, never a 5xx, which would mean the server took the client's
// mistake for its own.
func FuzzAPI(f *testing.F) {
	for i := range apiRoutes {
		for _, seg := range []string{"1", "0", "-1", "99999999999999999999", "2026-02-29", "2025-02-29", "x"} {
			f.Add(uint8(i), seg, "")
		}
	}
	for _, q := range []string{"limit=5", "limit=-1", "limit=99999999999", "cursor=aWQ6MA", "cursor=!!", "seed=18446744073709551616",
		"ids=1,2,,3", "ids=" + strings.Repeat("1,", 600), "format=pdf", "format=sdm&count=3", "level=evil&size=16", "solution=maybe",
		"count=0", "count=easy=1,evil=2", "size=25", "n=3", "page=2", "%zz", "level=1&level=1"} {
		f.Add(uint8(1), "", q)
		f.Add(uint8(2), "", q)
		f.Add(uint8(6), "", q)
		f.Add(uint8(5), "2026-01-01", q)
	}
	path := MustBank(f, MustFixture(f))
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	h := server.New(db, server.Options{})
	f.Fuzz(func(t *testing.T, route uint8, seg, rawQuery string) {
		p := strings.Replace(apiRoutes[int(route)%len(apiRoutes)], "{}", seg, 1)
		u := "http://bank.test" + p
		if rawQuery != "" {
			u += "?" + rawQuery
		}
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			return // no client sends a URL Go cannot read
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch {
		case w.Code >= 500:
			t.Fatalf("GET %s: %d %s", u, w.Code, w.Body)
		case w.Code == http.StatusBadRequest && strings.HasPrefix(p, "/api/"):
			var e struct{ Error string }
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || !strings.HasPrefix(e.Error, "parameter ") {
				t.Fatalf("GET %s: 400 %q names no parameter", u, w.Body)
			}
		}
	})
}
