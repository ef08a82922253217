package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"sudokubank/internal/banktest"
	"sudokubank/server"
	"sudokubank/store"
)

// fixturePath holds real graded families: bankquery's test fixture.
const fixturePath = "../cmd/bankquery/testdata/families.jsonl"

// MustFixture reads the fixture families.
func MustFixture(tb testing.TB) []store.NewFamily {
	tb.Helper()
	return banktest.MustFamilies(tb, fixturePath, 0)
}

// MustBank writes fams into a new bank and returns its path, closed.
func MustBank(tb testing.TB, fams []store.NewFamily) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "puzzles.db")
	db := MustWriter(tb, path)
	if _, err := db.WriteBatch(context.Background(), fams); err != nil {
		tb.Fatal(err)
	}
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// MustWriter opens the bank at path for writing, as bankgen does, until
// the test ends.
func MustWriter(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// MustServer serves the bank at path read-only from an httptest server.
func MustServer(tb testing.TB, path string, opt server.Options) *httptest.Server {
	tb.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	ts := httptest.NewServer(server.New(db, opt))
	tb.Cleanup(func() {
		ts.Close()
		db.Close()
	})
	return ts
}

// response is a response read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// MustDo sends a request and reads its response.
func MustDo(tb testing.TB, method, url string, header http.Header, body io.Reader) response {
	tb.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

// MustGet gets url and decodes its JSON body into v; the status must be
// 200.
func MustGet(tb testing.TB, url string, v any) response {
	tb.Helper()
	r := MustDo(tb, http.MethodGet, url, nil, nil)
	if r.status != http.StatusOK {
		tb.Fatalf("GET %s: status %d, body %s", url, r.status, r.body)
	}
	if v != nil {
		if err := json.Unmarshal(r.body, v); err != nil {
			tb.Fatalf("GET %s: %v in %s", url, err, r.body)
		}
	}
	return r
}

// puzzle is a puzzle object as the API and bankquery list -format json
// write it.
type puzzle struct {
	Number    int     `json:"number"`
	ID        int64   `json:"id"`
	Family    int64   `json:"family"`
	Puzzle    string  `json:"puzzle"`
	Solution  string  `json:"solution"`
	Givens    int     `json:"givens"`
	Level     int     `json:"level"`
	LevelName string  `json:"level_name"`
	Rating    float64 `json:"rating"`
	Hardest   string  `json:"hardest"`
	Symmetry  string  `json:"symmetry"`
	Minimal   bool    `json:"minimal"`
	Source    string  `json:"source"`
}

type page struct {
	Puzzles []puzzle `json:"puzzles"`
	Next    string   `json:"next"`
	More    bool     `json:"more"`
}

// allIDs returns the IDs of every puzzle of the bank at path, in order.
func allIDs(tb testing.TB, path string) []int64 {
	tb.Helper()
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var ids []int64
	if err := db.Query(context.Background(), store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		ids = append(ids, r.ID)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return ids
}

// hasError reports whether body is {"error": ...} mentioning word.
func hasError(body []byte, word string) bool {
	var e struct {
		Error string `json:"error"`
	}
	return json.Unmarshal(body, &e) == nil && strings.Contains(e.Error, word)
}

// httptestServer serves h on a loopback httptest server and returns its
// URL.
func httptestServer(tb testing.TB, h http.Handler) string {
	ts := httptest.NewServer(h)
	tb.Cleanup(ts.Close)
	return ts.URL
}
