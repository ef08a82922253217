package server

import (
	"encoding/json"
	"errors"
	"net/url"
	"testing"
)

// A cursor this server gives reads back as its ID and count; anything
// else is refused as a bad cursor, never read as another place or a
// panic. An older server's cursor, the ID alone, still reads.
func FuzzDecodeCursor(f *testing.F) {
	for _, s := range []string{"", encodeCursor(cursor{ID: 1}), encodeCursor(cursor{ID: 1 << 40}), encodeCursor(countedCursor(7, 3, "abc")),
		encodeCursor(countedCursor(7, 8, "abc")), "aWQ6MA", "aWQ6LTE", "bm9wZQ", "!!", "aWQ6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeCursor(s)
		if err != nil {
			var pe *paramError
			if !errors.As(err, &pe) || pe.name != "cursor" {
				t.Errorf("decodeCursor(%q) error %v does not name the cursor", s, err)
			}
			return
		}
		if s == "" {
			if c != (cursor{}) {
				t.Errorf("empty cursor = %+v, want the start", c)
			}
			return
		}
		if c.ID <= 0 || c.N < 0 || c.N > c.ID || encodeCursor(c) != s {
			t.Errorf("decodeCursor(%q) = %+v, which encodes as %q", s, c, encodeCursor(c))
		}
	})
}

// The cursors this server gives read back as they were, and an older
// server's, "id:ID", reads as that ID without a count.
func TestCursorRoundTrip(t *testing.T) {
	for _, c := range []cursor{{ID: 1}, {ID: 1 << 40}, countedCursor(51, 50, filterPrint(url.Values{"level": {"evil"}})), countedCursor(9, 0, filterPrint(nil))} {
		got, err := decodeCursor(encodeCursor(c))
		if err != nil || got != c {
			t.Errorf("cursor %+v reads back as %+v, %v", c, got, err)
		}
	}
	// base64url of "id:42", as bankserve wrote its cursors before they
	// were counted.
	if got, err := decodeCursor("aWQ6NDI"); err != nil || got != (cursor{ID: 42}) {
		t.Errorf("old cursor: %+v, %v; want ID 42, uncounted", got, err)
	}
	if a, b := filterPrint(url.Values{"level": {"evil"}}), filterPrint(url.Values{"level": {"easy"}}); a == b {
		t.Errorf("two filters, one fingerprint %s", a)
	}
}

// Any query string gives a filter or an error that names a parameter.
func FuzzFilterParams(f *testing.F) {
	for _, s := range []string{"level=evil&rating=7-9.9", "givens=22-26&minimal=1", "technique=x-wing", "symmetry=rot45",
		"levle=1", "level=1&level=2", "%zz", "score=NaN-", "limit=5", "minimal=maybe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := query(&url.URL{RawQuery: raw}, filterParams)
		if err == nil {
			_, err = filterOf(q)
		}
		if err == nil {
			return
		}
		var pe *paramError
		if !errors.As(err, &pe) || pe.name == "" {
			t.Errorf("query %q: error %v names no parameter", raw, err)
		}
	})
}

// randomBody writes what marshal writes of randomJSON, byte for byte.
func TestRandomBody(t *testing.T) {
	obj := json.RawMessage(`{"id":7,"puzzle":"1.3<&>","cells":[1,0,3]}`)
	for _, tt := range []struct {
		seed uint64
		objs []json.RawMessage
	}{
		{0, []json.RawMessage{}},
		{42, []json.RawMessage{obj}},
		{maxSeed, []json.RawMessage{obj, obj, obj}},
	} {
		want, err := marshal(randomJSON{Seed: tt.seed, Puzzles: tt.objs})
		if err != nil {
			t.Fatal(err)
		}
		if got := randomBody(tt.seed, tt.objs); string(got) != string(want) {
			t.Errorf("seed %d, %d objects:\ngot  %s\nwant %s", tt.seed, len(tt.objs), got, want)
		}
	}
}
