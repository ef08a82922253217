package server_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"sudokubank/server"
)

// FuzzParseOrigin checks that what -cors takes is "*" or an http(s)
// scheme and a host alone, safe to send as a header as it was given,
// and that a refusal quotes the text.
func FuzzParseOrigin(f *testing.F) {
	for _, s := range []string{"*", "https://app.example.com", "http://localhost:8080", "https://a.b/", "https://a.b?", "ftp://x",
		"https://u@a.b", "https://a.b#x", "https://a.b\r\nX: y", "", "https://[::1]:1", "https:a.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := server.ParseOrigin(s)
		if err != nil {
			if !strings.Contains(err.Error(), strconv.Quote(s)) {
				t.Fatalf("ParseOrigin(%q): %v does not quote the text", s, err)
			}
			return
		}
		if got != s {
			t.Fatalf("ParseOrigin(%q) = %q", s, got)
		}
		if s == "*" {
			return
		}
		if strings.ContainsAny(s, "\r\n\x00 ") {
			t.Fatalf("ParseOrigin(%q) takes what no header may hold", s)
		}
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" {
			t.Fatalf("ParseOrigin(%q) takes what is not a scheme and a host: %+v, %v", s, u, err)
		}
	})
}
