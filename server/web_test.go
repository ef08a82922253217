package server_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"sudokubank/server"
)

// The page is served at / and at a puzzle's path, with its files under
// /static/, and the unknown paths stay JSON 404s.
func TestWebRoutes(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)[:10]), server.Options{})
	tests := []struct {
		path   string
		status int
		ctype  string
		has    string // the body holds it
	}{
		{"/", 200, "text/html", `<script src="/static/app.js"`},
		{"/puzzles/3", 200, "text/html", `id="grid"`},
		{"/puzzles/999999", 404, "text/html", `id="grid"`},
		{"/puzzles/abc", 404, "text/html", `id="grid"`},
		{"/static/app.js", 200, "text/javascript", "dataset.cell"},
		{"/static/style.css", 200, "text/css", "#grid"},
		{"/static/index.html", 404, "application/json", "index.html"},
		{"/static/nope.js", 404, "application/json", "nope.js"},
		{"/puzzles", 404, "application/json", "/puzzles"},
		{"/index.html", 404, "application/json", "index.html"},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.path, "/", "_"), func(t *testing.T) {
			r := MustDo(t, http.MethodGet, ts.URL+tt.path, nil, nil)
			if r.status != tt.status || !strings.HasPrefix(r.header.Get("Content-Type"), tt.ctype) || !bytes.Contains(r.body, []byte(tt.has)) {
				t.Errorf("GET %s: %d %q, body has %q: %v; want %d %q", tt.path, r.status, r.header.Get("Content-Type"),
					tt.has, bytes.Contains(r.body, []byte(tt.has)), tt.status, tt.ctype)
			}
			if strings.HasPrefix(tt.ctype, "text/html") && !strings.Contains(r.header.Get("Content-Security-Policy"), "script-src 'self'") {
				t.Errorf("GET %s: Content-Security-Policy %q, want scripts from the server only", tt.path, r.header.Get("Content-Security-Policy"))
			}
		})
	}
	// The page's files revalidate by ETag.
	r := MustDo(t, http.MethodGet, ts.URL+"/static/app.js", nil, nil)
	etag := r.header.Get("ETag")
	again := MustDo(t, http.MethodGet, ts.URL+"/static/app.js", http.Header{"If-None-Match": {etag}}, nil)
	if etag == "" || again.status != http.StatusNotModified {
		t.Errorf("ETag %q, then status %d; want 304", etag, again.status)
	}
	if r := MustDo(t, http.MethodPost, ts.URL+"/", nil, nil); r.status != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d, want 405", r.status)
	}
}
