package export_test

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokubank/export"
)

// FuzzParseFormat checks that -format and an -out extension read as one
// of Formats, whose name reads back as itself, or fail with
// ErrUnknownFormat quoting the text.
func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{"sdm", ".PDF", " csv ", "json.", "..sdk", "", "open sudoku"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := export.ParseFormat(s)
		if err != nil {
			if !errors.Is(err, export.ErrUnknownFormat) || !strings.Contains(err.Error(), strconv.Quote(s)) {
				t.Fatalf("ParseFormat(%q): %v does not wrap ErrUnknownFormat and quote the text", s, err)
			}
			return
		}
		if !slices.Contains(export.Formats, got) {
			t.Fatalf("ParseFormat(%q) = %q, none of Formats", s, got)
		}
		if back, err := export.ParseFormat(string(got)); err != nil || back != got {
			t.Fatalf("ParseFormat(%q) = %q, which reads back as %q, %v", s, got, back, err)
		}
	})
}

// FuzzCheckURL checks that a pack's -url that CheckURL takes is an
// absolute http(s) address with a host, short and on one line, as it is
// printed into every format.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://example.com/packs/1", "http://a", "https://", "ftp://a", "https://a b", "https://a\nb", "//a", "https://%zz",
		"https://" + strings.Repeat("a", export.MaxURLLen)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := export.CheckURL(s); err != nil {
			return
		}
		if len(s) > export.MaxURLLen || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			t.Fatalf("CheckURL takes %q: too long, or a space or control character", s)
		}
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			t.Fatalf("CheckURL takes %q, which is no http(s) address with a host: %+v, %v", s, u, err)
		}
	})
}
