package grade_test

import (
	"testing"

	"sudokubank/grade"
)

// FuzzParseRating checks that an accepted rating prints back to a text
// that parses to the same value, and that nothing panics.
func FuzzParseRating(f *testing.F) {
	for _, s := range []string{"6.2", "6", "0.0", "12.0", "-1", "6.", "6.25", "+6", "99999999999999999999", "922337203685477580.9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := grade.ParseRating(s)
		if err != nil {
			return
		}
		if r < 0 {
			t.Fatalf("ParseRating(%q) = %d, a negative rating", s, r)
		}
		back, err := grade.ParseRating(r.String())
		if err != nil || back != r {
			t.Fatalf("ParseRating(%q) = %v; its String %q parses to %v, %v", s, r, r.String(), back, err)
		}
	})
}

// FuzzParseLevel checks that an accepted level is one of the five and
// that its name parses back to it.
func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{"evil", "5", " Easy ", "0", "6", "extremely-easy", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := grade.ParseLevel(s)
		if err != nil {
			return
		}
		if l < grade.ExtremelyEasy || l > grade.Evil {
			t.Fatalf("ParseLevel(%q) = %d, not a level", s, l)
		}
		if back, err := grade.ParseLevel(l.String()); err != nil || back != l {
			t.Fatalf("ParseLevel(%q) = %v; its name parses to %v, %v", s, l, back, err)
		}
	})
}

// FuzzParsePath checks that an accepted path encodes back to a text
// that parses to the same steps.
func FuzzParsePath(f *testing.F) {
	f.Add("pointing 2.6 3,4 5 - 6:5,7:5;naked-single 2.3 40 7 40=7 -")
	f.Add("")
	f.Add(";")
	f.Fuzz(func(t *testing.T, s string) {
		path, err := grade.ParsePath(s)
		if err != nil {
			return
		}
		text := grade.FormatPath(path)
		back, err := grade.ParsePath(text)
		if err != nil {
			t.Fatalf("ParsePath(%q): its encoding %q does not parse: %v", s, text, err)
		}
		if got := grade.FormatPath(back); got != text {
			t.Fatalf("round trip of %q: %q, then %q", s, text, got)
		}
	})
}
