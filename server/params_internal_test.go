package server

import (
	"encoding/json"
	"errors"
	"net/url"
	"testing"
)

// A cursor this server gives reads back as its ID; anything else is
// refused as a bad cursor, never read as another ID's or a panic.
func FuzzDecodeCursor(f *testing.F) {
	for _, s := range []string{"", encodeCursor(1), encodeCursor(1 << 40), "aWQ6MA", "aWQ6LTE", "bm9wZQ", "!!", "aWQ6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := decodeCursor(s)
		if err != nil {
			var pe *paramError
			if !errors.As(err, &pe) || pe.name != "cursor" {
				t.Errorf("decodeCursor(%q) error %v does not name the cursor", s, err)
			}
			return
		}
		if s == "" {
			if id != 0 {
				t.Errorf("empty cursor = %d, want 0", id)
			}
			return
		}
		if id <= 0 || encodeCursor(id) != s {
			t.Errorf("decodeCursor(%q) = %d, which encodes as %q", s, id, encodeCursor(id))
		}
	})
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
