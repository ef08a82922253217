package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"sudokubank/server"
)

// exportIDs exports url as JSON lines and returns the puzzles' IDs.
func exportIDs(tb testing.TB, url string) []int64 {
	tb.Helper()
	r := MustGet(tb, url, nil)
	var out []int64
	sc := bufio.NewScanner(bytes.NewReader(r.body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p puzzle
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			tb.Fatalf("%s: %v in %s", url, err, sc.Bytes())
		}
		out = append(out, p.ID)
	}
	return out
}

// An export of the first puzzles of a filter the store checks row by row
// reads the first window of IDs alone, as a page does: where the window
// holds count of them it answers them; where it holds fewer and the bank
// goes on, it answers 400 saying why and what to do, never a file cut
// short unsaid. A filter read from an index needs no window.
func TestExportWindow(t *testing.T) {
	path := MustBank(t, MustVariantFamilies(t, MustFixture(t), 2, 3))
	var whole page
	MustGet(t, MustServer(t, path, server.Options{}).URL+"/api/v1/puzzles?symmetry=rot90&limit=1000", &whole)
	if len(whole.Puzzles) < 3 {
		t.Fatalf("%d rot90 puzzles, want 3 or more", len(whole.Puzzles))
	}
	// A window that ends at the second match.
	window := whole.Puzzles[1].ID
	ts := MustServer(t, path, server.Options{ScanWindow: window})
	if got, want := exportIDs(t, ts.URL+"/api/v1/export?symmetry=rot90&count=2"), ids(whole.Puzzles[:2]); !slices.Equal(got, want) {
		t.Errorf("count=2 in the window: %v, want %v", got, want)
	}
	for _, q := range []string{"symmetry=rot90&count=3", "symmetry=rot90", "symmetry=rot90&format=pdf&count=12"} {
		r := MustDo(t, "GET", ts.URL+"/api/v1/export?"+q, nil, nil)
		if r.status != 400 || !hasError(r.body, "count") || !hasError(r.body, "first "+strconv.FormatInt(window, 10)+" puzzle IDs hold 2") ||
			!hasError(r.body, "count=2 or fewer") || !hasError(r.body, "ids=") {
			t.Errorf("%s: status %d, body %s; want 400 saying the window holds 2", q, r.status, r.body)
		}
		if r.header.Get("Content-Disposition") != "" {
			t.Errorf("%s: an error sent as an attachment", q)
		}
	}
	// A random sample is not the first by ID: no window.
	if got := exportIDs(t, ts.URL+"/api/v1/export?symmetry=rot90&count=1000&seed=1"); len(got) != len(whole.Puzzles) {
		t.Errorf("a random sample of every rot90 puzzle: %d, want %d", len(got), len(whole.Puzzles))
	}
	// One level and one number of givens: every match, past any window.
	first := whole.Puzzles[len(whole.Puzzles)-1]
	bucket := "level=" + strconv.Itoa(first.Level) + "&givens=" + strconv.Itoa(first.Givens)
	var in page
	MustGet(t, MustServer(t, path, server.Options{}).URL+"/api/v1/puzzles?limit=1000&"+bucket, &in)
	if got := exportIDs(t, ts.URL+"/api/v1/export?count=1000&"+bucket); !slices.Equal(got, ids(in.Puzzles)) {
		t.Errorf("%s: %v, want %v", bucket, got, ids(in.Puzzles))
	}
}
