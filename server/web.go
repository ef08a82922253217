package server

import (
	"bytes"
	"embed"
	"errors"
	"hash/fnv"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"time"

	"sudokubank/store"
)

// web holds the page: one HTML shell for every page, its stylesheet and
// its script, plain files with no build step.
//
//go:embed web
var web embed.FS

// asset is an embedded file with the ETag of its bytes.
type asset struct {
	name string
	data []byte
	etag string
}

// assets are the files under web/, by name, read once.
var assets = func() map[string]asset {
	out := map[string]asset{}
	err := fs.WalkDir(web, "web", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := web.ReadFile(p)
		if err != nil {
			return err
		}
		h := fnv.New64a()
		h.Write(b)
		name := path.Base(p)
		out[name] = asset{name: name, data: b, etag: `"` + strconv.FormatUint(h.Sum64(), 36) + `"`}
		return nil
	})
	if err != nil {
		panic("server: read the embedded page: " + err.Error())
	}
	return out
}()

// contentSecurityPolicy lets the page load only its own files and talk
// only to its own server: no inline script, nothing from elsewhere.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// serveAsset writes the embedded file name with status, revalidated by
// its ETag (the files change with the binary, not with the bank).
func serveAsset(w http.ResponseWriter, r *http.Request, name string, status int) {
	a, ok := assets[name]
	if !ok {
		writeError(w, http.StatusNotFound, "no such path "+strconv.Quote(r.URL.Path))
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	if path.Ext(name) == ".html" {
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("Referrer-Policy", "same-origin")
	}
	if status != http.StatusOK {
		// ServeContent would answer 200 or 304; a missing puzzle's page
		// is the same shell, sent whole with its own status.
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(a.data)))
		w.WriteHeader(status)
		w.Write(a.data)
		return
	}
	h.Set("ETag", a.etag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(a.data))
}

// home serves the page that browses the bank and prints from it.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	serveAsset(w, r, "index.html", http.StatusOK)
}

// puzzlePage serves the page that plays a puzzle: the same shell, whose
// script reads the ID from the path. A puzzle the bank lacks gets the
// shell with 404, and one that does not read (a damaged bank) the shell
// with 500: the script says why, as the API tells it.
func (s *Server) puzzlePage(w http.ResponseWriter, r *http.Request) {
	_, err := s.row(r)
	var pe *paramError
	switch {
	case err == nil:
		serveAsset(w, r, "index.html", http.StatusOK)
	case errors.As(err, &pe), errors.Is(err, store.ErrNotFound):
		serveAsset(w, r, "index.html", http.StatusNotFound)
	case r.Context().Err() != nil:
		// the client has gone
	default:
		s.logFailure(r, "request failed", err)
		serveAsset(w, r, "index.html", http.StatusInternalServerError)
	}
}

// static serves the page's stylesheet and script.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if path.Ext(name) == ".html" {
		name = "" // the shell is served at its pages' paths only
	}
	serveAsset(w, r, name, http.StatusOK)
}
