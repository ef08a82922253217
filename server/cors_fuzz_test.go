package server_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"sudokubank/server"
)

// FuzzParseOrigin checks that what -cors takes is "*" or an http(s)
// scheme and a host alone (less a lone trailing slash), safe to send as
// a header as it was given and
// spelt as a browser sends it (lower case, no port of the scheme's own),
// and that a refusal quotes the text.
func FuzzParseOrigin(f *testing.F) {
	for _, s := range []string{"*", "https://app.example.com", "http://localhost:8080", "https://a.b/", "https://a.b?", "ftp://x",
		"https://u@a.b", "https://a.b#x", "https://a.b\r\nX: y", "", "https://[::1]:1", "https:a.b", "HTTPS://A.B", "https://a.b:443",
		"http://a.b:0080", "https://a.b:", "http://[0:0::1]", "https://b\u00fccher.de"} {
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
		// A lone trailing slash, as an address bar shows, is dropped.
		if want := strings.TrimSuffix(s, "/"); got != want {
			t.Fatalf("ParseOrigin(%q) = %q, want %q", s, got, want)
		}
		s = got
		if s == "*" {
			return
		}
		if strings.ContainsAny(s, "\r\n\x00 ") {
			t.Fatalf("ParseOrigin(%q) takes what no header may hold", s)
		}
		if s != strings.ToLower(s) || strings.HasPrefix(s, "http:") && strings.HasSuffix(s, ":80") || strings.HasPrefix(s, "https:") && strings.HasSuffix(s, ":443") {
			t.Fatalf("ParseOrigin(%q) takes what no browser sends", s)
		}
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" {
			t.Fatalf("ParseOrigin(%q) takes what is not a scheme and a host: %+v, %v", s, u, err)
		}
	})
}

// TestParseOriginAsBrowsersSend refuses an origin spelt otherwise than
// a browser sends it, which would match no request, and says the
// spelling to give.
func TestParseOriginAsBrowsersSend(t *testing.T) {
	for _, s := range []string{"http://[::1]:8080", "https://a.b:8443", "http://a.b:443", "https://xn--bcher-kva.de"} {
		if got, err := server.ParseOrigin(s); err != nil || got != s {
			t.Errorf("ParseOrigin(%q) = %q, %v", s, got, err)
		}
	}
	for s, want := range map[string]string{
		"HTTPS://app.example.com":     "sends it as https://app.example.com",
		"https://App.Example.com":     "sends it as https://app.example.com",
		"https://app.example.com:443": "sends it as https://app.example.com",
		"http://localhost:80":         "sends it as http://localhost",
		"http://localhost:03000":      "sends it as http://localhost:3000",
		"http://[0:0::1]:8080":        "sends it as http://[::1]:8080",
		"https://a.b:":                "a colon without a port",
		"https://a.b:70000":           "port 70000",
		"https://b\u00fccher.de":      "xn--",
	} {
		_, err := server.ParseOrigin(s)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), strconv.Quote(s)) {
			t.Errorf("ParseOrigin(%q) = %v, want an error quoting it and saying %q", s, err, want)
		}
	}
}
