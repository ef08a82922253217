package server_test

import (
	"encoding/base64"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"sudokubank/server"
)

// pageAll follows the cursors of list from the start (or from cursor)
// with limit a page and returns every puzzle the pages gave, and the
// pages' sizes.
func pageAll(tb testing.TB, base, filter, cursor string, limit int) (all []puzzle, sizes []int) {
	tb.Helper()
	for range 10_000 {
		q, err := url.ParseQuery(filter)
		if err != nil {
			tb.Fatal(err)
		}
		q.Set("limit", strconv.Itoa(limit))
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var pg page
		MustGet(tb, base+"/api/v1/puzzles?"+q.Encode(), &pg)
		all = append(all, pg.Puzzles...)
		sizes = append(sizes, len(pg.Puzzles))
		if len(pg.Puzzles) > limit {
			tb.Fatalf("%s: a page of %d puzzles, past the limit %d", filter, len(pg.Puzzles), limit)
		}
		if !pg.More {
			return all, sizes
		}
		cursor = pg.Next
	}
	tb.Fatalf("%s: pages never end", filter)
	return nil, nil
}

// ids returns the IDs of ps.
func ids(ps []puzzle) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

// checkNumbers fails unless the puzzles are numbered 1, 2, 3... from
// first: their places in the whole list, whatever page they came on.
func checkNumbers(tb testing.TB, name string, ps []puzzle, first int) {
	tb.Helper()
	for i, p := range ps {
		if p.Number != first+i {
			tb.Errorf("%s: puzzle %d (ID %d) numbered %d, want %d", name, i+1, p.ID, p.Number, first+i)
			return
		}
	}
}

// A puzzle's number is its place in the whole list, as bankquery list
// numbers: page 2 of 7 starts at 8, for filters the store checks row by
// row or through an index, and for every window of IDs a page reads.
func TestPageNumbers(t *testing.T) {
	fams := MustVariantFamilies(t, MustFixture(t), 2, 3)
	path := MustBank(t, fams)
	for _, window := range []int64{0, 10} {
		ts := MustServer(t, path, server.Options{ScanWindow: window})
		for _, filter := range []string{"", "level=evil", "symmetry=rot90", "technique=x-wing", "level=1&givens=40"} {
			all, _ := pageAll(t, ts.URL, filter, "", 1000)
			if len(all) < 3 {
				t.Fatalf("%s: %d puzzles, want 3 or more", filter, len(all))
			}
			checkNumbers(t, filter, all, 1)
			paged, _ := pageAll(t, ts.URL, filter, "", 7)
			if !slices.Equal(ids(paged), ids(all)) {
				t.Errorf("window %d, %s: pages of 7 give %v, want %v", window, filter, ids(paged), ids(all))
			}
			checkNumbers(t, filter+", pages of 7", paged, 1)
		}
	}
	// A cursor an older server gave, the ID alone, numbers on from that
	// puzzle's place; so does a cursor given for another filter.
	ts := MustServer(t, path, server.Options{})
	all, _ := pageAll(t, ts.URL, "level=evil", "", 1000)
	mid := all[len(all)/2]
	old := base64.RawURLEncoding.EncodeToString([]byte("id:" + strconv.FormatInt(mid.ID, 10)))
	rest, _ := pageAll(t, ts.URL, "level=evil", old, 5)
	if !slices.Equal(ids(rest), ids(all[len(all)/2+1:])) {
		t.Errorf("after an old cursor: %v, want %v", ids(rest), ids(all[len(all)/2+1:]))
	}
	checkNumbers(t, "after an old cursor", rest, mid.Number+1)
	var other page
	MustGet(t, ts.URL+"/api/v1/puzzles?limit=3", &other)
	var evil page
	MustGet(t, ts.URL+"/api/v1/puzzles?level=evil&limit=3&cursor="+other.Next, &evil)
	before := 0
	for _, p := range all {
		if p.ID <= other.Puzzles[2].ID {
			before++
		}
	}
	checkNumbers(t, "evil after a cursor of every level", evil.Puzzles, before+1)
}

// A page reads at most its window of IDs past the cursor: a filter that
// few puzzles match gives short pages, some empty, with more set, and
// its pages still hold every match once, in order.
func TestPageWindow(t *testing.T) {
	fams := MustFixture(t)
	path := MustBank(t, fams)
	const window = 10
	ts := MustServer(t, path, server.Options{ScanWindow: window})
	var whole page
	MustGet(t, MustServer(t, path, server.Options{}).URL+"/api/v1/puzzles?symmetry=rot90&limit=1000", &whole)
	got, sizes := pageAll(t, ts.URL, "symmetry=rot90", "", 5)
	if !slices.Equal(ids(got), ids(whole.Puzzles)) || len(got) == 0 {
		t.Fatalf("pages give %v, want %v", ids(got), ids(whole.Puzzles))
	}
	if want := (len(allIDs(t, path)) + window - 1) / window; len(sizes) < want {
		t.Errorf("%d pages of a window of %d IDs each, want %d or more to cover the bank", len(sizes), window, want)
	}
	if !slices.Contains(sizes, 0) {
		t.Errorf("page sizes %v: want some empty ones, of windows without a match", sizes)
	}
	// Each page's puzzles lie in its window.
	cursor := ""
	for range len(sizes) {
		var pg page
		MustGet(t, ts.URL+"/api/v1/puzzles?symmetry=rot90&limit=5&cursor="+cursor, &pg)
		if len(pg.Puzzles) > 0 && len(pg.Puzzles) < 5 && pg.Puzzles[len(pg.Puzzles)-1].ID-pg.Puzzles[0].ID >= window {
			t.Errorf("a short page spans IDs %d to %d, more than a window of %d", pg.Puzzles[0].ID, pg.Puzzles[len(pg.Puzzles)-1].ID, window)
		}
		if !pg.More {
			break
		}
		cursor = pg.Next
	}
}

// A filter the store answers from an index, one level and one number of
// givens, reads its matches alone: its pages are full however rare its
// puzzles and however small the window of IDs a page of another filter
// reads.
func TestPageIndexedNoWindow(t *testing.T) {
	path := MustBank(t, MustVariantFamilies(t, MustFixture(t), 2, 3))
	var whole page
	MustGet(t, MustServer(t, path, server.Options{}).URL+"/api/v1/puzzles?limit=1000", &whole)
	// The (level, givens) pair with the most puzzles.
	type bucket struct{ level, givens int }
	n := map[bucket]int{}
	best := bucket{}
	for _, p := range whole.Puzzles {
		b := bucket{p.Level, p.Givens}
		if n[b]++; n[b] > n[best] {
			best = b
		}
	}
	if n[best] < 4 {
		t.Fatalf("the largest bucket, %+v, holds %d puzzles; want 4 or more", best, n[best])
	}
	filter := "level=" + strconv.Itoa(best.level) + "&givens=" + strconv.Itoa(best.givens)
	ts := MustServer(t, path, server.Options{ScanWindow: 1})
	const limit = 2
	got, sizes := pageAll(t, ts.URL, filter, "", limit)
	var want []int64
	for _, p := range whole.Puzzles {
		if (bucket{p.Level, p.Givens}) == best {
			want = append(want, p.ID)
		}
	}
	if !slices.Equal(ids(got), want) {
		t.Fatalf("%s: pages give %v, want %v", filter, ids(got), want)
	}
	checkNumbers(t, filter, got, 1)
	for i, n := range sizes[:len(sizes)-1] {
		if n != limit {
			t.Errorf("%s: page %d of %v holds %d puzzles, want %d: an index read needs no window", filter, i+1, sizes, n, limit)
		}
	}
}

// A cursor without a count of the filter asked for, an older server's
// or one given for other parameters, is counted afresh where an index
// holds the filter's matches (TestPageNumbers); where the count would
// read each puzzle's family up to the cursor, it is refused, naming why.
func TestCursorCountRefused(t *testing.T) {
	path := MustBank(t, MustVariantFamilies(t, MustFixture(t), 2, 3))
	ts := MustServer(t, path, server.Options{})
	var first page
	MustGet(t, ts.URL+"/api/v1/puzzles?limit=3", &first)
	old := base64.RawURLEncoding.EncodeToString([]byte("id:" + strconv.FormatInt(first.Puzzles[2].ID, 10)))
	for _, cursor := range []string{first.Next, old} {
		for _, filter := range []string{"symmetry=rot90", "level=evil&technique=x-wing", "minimal=true"} {
			r := MustDo(t, "GET", ts.URL+"/api/v1/puzzles?"+filter+"&cursor="+cursor, nil, nil)
			if r.status != 400 || !hasError(r.body, "cursor") || !hasError(r.body, "without cursor") {
				t.Errorf("%s after cursor %s: status %d, body %s; want 400 naming the cursor and why", filter, cursor, r.status, r.body)
			}
		}
	}
	// The cursor of the filter's own page goes on.
	var rot page
	MustGet(t, ts.URL+"/api/v1/puzzles?symmetry=rot90&limit=1", &rot)
	MustGet(t, ts.URL+"/api/v1/puzzles?symmetry=rot90&limit=1&cursor="+rot.Next, nil)
}

// A cursor without this filter's count is counted afresh from an index
// up to as many entries as a window has IDs (16 here), and refused past
// them, naming why.
func TestCursorRecountBounded(t *testing.T) {
	path := MustBank(t, MustVariantFamilies(t, MustFixture(t), 2, 3))
	ts := MustServer(t, path, server.Options{ScanWindow: 16})
	all, _ := pageAll(t, MustServer(t, path, server.Options{}).URL, "level=evil", "", 1000)
	if len(all) < 20 {
		t.Fatalf("%d evil puzzles, want 20 or more", len(all))
	}
	oldCursor := func(id int64) string {
		return base64.RawURLEncoding.EncodeToString([]byte("id:" + strconv.FormatInt(id, 10)))
	}
	// The 16th match: 16 counted, numbering on from 17.
	var pg page
	MustGet(t, ts.URL+"/api/v1/puzzles?level=evil&limit=1000&cursor="+oldCursor(all[15].ID), &pg)
	checkNumbers(t, "after the 16th", pg.Puzzles, 17)
	// The 17th: past the bound.
	r := MustDo(t, "GET", ts.URL+"/api/v1/puzzles?level=evil&cursor="+oldCursor(all[16].ID), nil, nil)
	if r.status != 400 || !hasError(r.body, "cursor") || !hasError(r.body, "more than 16 of them") {
		t.Errorf("after the 17th: status %d, body %s; want 400 naming the bound", r.status, r.body)
	}
}
