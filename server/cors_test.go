package server_test

import (
	"net/http"
	"testing"

	"sudokubank/server"
)

// With a CORS origin, a web app of that origin reads the API from a
// browser: every /api/ response allows it, a preflight is answered, and
// the web page's own paths are as before. Without one, nothing changes:
// no response allows another origin, and OPTIONS is a 405.
func TestCORS(t *testing.T) {
	path := MustBank(t, MustFixture(t))
	const origin = "https://app.example.com"
	ts := MustServer(t, path, server.Options{CORSOrigin: origin})
	asked := http.Header{"Origin": {origin}}
	for _, p := range []string{"/api/v1/stats", "/api/v1/puzzles?limit=1", "/api/v1/puzzles/1", "/api/v1/nope"} {
		r := MustDo(t, http.MethodGet, ts.URL+p, asked, nil)
		if got := r.header.Get("Access-Control-Allow-Origin"); got != origin {
			t.Errorf("GET %s: Access-Control-Allow-Origin %q, want %q", p, got, origin)
		}
	}
	pre := MustDo(t, http.MethodOptions, ts.URL+"/api/v1/puzzles/1", http.Header{
		"Origin": {origin}, "Access-Control-Request-Method": {"GET"}, "Access-Control-Request-Headers": {"if-none-match"}}, nil)
	if pre.status != http.StatusNoContent || pre.header.Get("Access-Control-Allow-Origin") != origin ||
		pre.header.Get("Access-Control-Allow-Methods") != "GET, HEAD" || pre.header.Get("Access-Control-Allow-Headers") != "If-None-Match" {
		t.Errorf("preflight: status %d, header %v", pre.status, pre.header)
	}
	if r := MustDo(t, http.MethodGet, ts.URL+"/", asked, nil); r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("the web page allows another origin: %v", r.header)
	}

	plain := MustServer(t, path, server.Options{})
	if r := MustDo(t, http.MethodGet, plain.URL+"/api/v1/stats", asked, nil); r.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("without an origin: Access-Control-Allow-Origin %q", r.header.Get("Access-Control-Allow-Origin"))
	}
	if r := MustDo(t, http.MethodOptions, plain.URL+"/api/v1/stats", http.Header{"Origin": {origin}, "Access-Control-Request-Method": {"GET"}}, nil); r.status != http.StatusMethodNotAllowed {
		t.Errorf("without an origin: preflight status %d, want 405", r.status)
	}
}

// ParseOrigin takes "*" and a scheme with a host, and refuses the rest
// with a message that names the origin.
func TestParseOrigin(t *testing.T) {
	for _, s := range []string{"*", "https://app.example.com", "http://localhost:3000"} {
		if got, err := server.ParseOrigin(s); err != nil || got != s {
			t.Errorf("ParseOrigin(%q) = %q, %v", s, got, err)
		}
	}
	// The lone trailing slash an address bar shows is dropped: a
	// browser's Origin has none.
	for _, tt := range []struct{ in, want string }{
		{"https://app.example.com/", "https://app.example.com"},
		{"http://localhost:3000/", "http://localhost:3000"},
	} {
		if got, err := server.ParseOrigin(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, s := range []string{"", "app.example.com", "https://", "https:///", "https://app.example.com//", "https://app.example.com/?", "https://app.example.com/x", "ftp://x", "https://u@x", "https://x?a", "https://x#"} {
		if _, err := server.ParseOrigin(s); err == nil {
			t.Errorf("ParseOrigin(%q) accepted", s)
		}
	}
	// The origin is named once, with the reason: not url.Parse's own
	// 'parse "..."' after it, nor "without a path" for a list.
	for _, tt := range []struct{ in, want string }{
		{"https://x y", `origin "https://x y": invalid character " " in host name`},
		{"https://a.example.com,https://b.example.com", `origin "https://a.example.com,https://b.example.com": want one origin, such as https://app.example.com, or *`},
	} {
		if _, err := server.ParseOrigin(tt.in); err == nil || err.Error() != tt.want {
			t.Errorf("ParseOrigin(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}
