// Package server serves a puzzle bank over HTTP, as JSON for apps:
// statistics, filtered pages of puzzles, random picks, a puzzle with its
// hints, a puzzle of the day and exports; and, for people, a web page
// that browses the bank, plays a puzzle and prints. It only reads the bank, and
// builds no SQL from a request: the filters go through the same parser
// as bankquery's flags (internal/filters) into a store.Filter, whose
// values the store binds. It is not the command: cmd/bankserve opens the
// bank, listens and stops on a signal.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"sudokubank/store"
)

// Caps on what one request may ask for, so that a request's cost is
// bounded whatever the bank holds.
const (
	DefaultLimit = 100  // puzzles a page when limit is not given
	MaxLimit     = 1000 // the most puzzles a page (limit)
	MaxRandom    = 100  // the most puzzles a random pick (n)
	MaxCount     = 1000 // the most puzzles an export (count)
)

// DefaultScanWindow is the most puzzle IDs one page reads past its
// cursor unless told otherwise: a filter checked row by row that few
// puzzles match then gives a short page (even an empty one) with more
// set, rather than reading the whole bank for one request.
const DefaultScanWindow = 1 << 15

// DefaultMaxInFlight is how many requests New's handler serves at once
// unless told otherwise; the next one gets 503.
const DefaultMaxInFlight = 64

// Options configure a Server; the zero value is ready to use.
type Options struct {
	Log         *slog.Logger // the access log and errors; nil discards them
	MaxInFlight int          // requests served at once; 0 is DefaultMaxInFlight
	ScanWindow  int64        // puzzle IDs a page reads past its cursor; 0 is DefaultScanWindow
	// CORSOrigin is the origin (ParseOrigin) whose web pages may read
	// the API from a browser, "*" for any; "" lets none but the server's
	// own page.
	CORSOrigin string
}

// Server is the HTTP handler of a bank; it is safe for concurrent use.
type Server struct {
	db     *store.DB
	log    *slog.Logger
	window int64 // Options.ScanWindow
	h      http.Handler
}

// New returns the handler that serves db, which it only reads; the
// caller keeps db open while the handler serves.
func New(db *store.DB, opt Options) *Server {
	s := &Server{db: db, log: opt.Log, window: opt.ScanWindow}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.window <= 0 {
		s.window = DefaultScanWindow
	}
	n := opt.MaxInFlight
	if n <= 0 {
		n = DefaultMaxInFlight
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.health)
	mux.HandleFunc("GET /api/v1/stats", s.stats)
	mux.HandleFunc("GET /api/v1/puzzles", s.list)
	mux.HandleFunc("GET /api/v1/puzzles/random", s.random)
	mux.HandleFunc("GET /api/v1/puzzles/{id}", s.puzzle)
	mux.HandleFunc("GET /api/v1/puzzles/{id}/hints", s.hints)
	mux.HandleFunc("GET /api/v1/daily/{date}", s.daily)
	mux.HandleFunc("GET /api/v1/export", s.export)
	mux.HandleFunc("GET /{$}", s.home)
	mux.HandleFunc("GET /puzzles/{id}", s.puzzlePage)
	mux.HandleFunc("GET /static/{file}", s.static)
	s.h = AccessLog(s.log, cors(opt.CORSOrigin, Limit(n, noBody(jsonNotFound(mux)))))
	return s
}

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.h.ServeHTTP(w, r) }

// The timeouts of Serve's http.Server: a client that is slow to send its
// headers or to read a response cannot hold a connection for ever.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	WriteTimeout      = 2 * time.Minute // a PDF of MaxCount puzzles takes a while
	IdleTimeout       = 2 * time.Minute
	MaxHeaderBytes    = 16 << 10
	// ShutdownGrace is how long Serve waits, once ctx is done, for the
	// requests in flight to finish before it closes their connections.
	ShutdownGrace = 30 * time.Second
)

// Serve serves h on ln until ctx is done, then stops taking requests,
// lets those in flight finish (up to ShutdownGrace) and returns nil; it
// returns the error of a listener that fails first.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Requests in flight run on their own contexts, not ctx, so that
	// they finish rather than fail.
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}

// Limit serves at most n requests of h at once and answers any more at
// once with 503 and Retry-After, rather than queueing them without end.
func Limit(n int, h http.Handler) http.Handler {
	sem := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
			h.ServeHTTP(w, r)
		default:
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, "too many requests at once; retry shortly")
		}
	})
}

// ParseOrigin checks an origin for Options.CORSOrigin: "*", or a scheme
// (http or https) and a host with an optional port, such as
// https://app.example.com, as a browser sends it in Origin. It returns
// the origin as a browser sends it: a lone trailing slash, as an origin
// copied from an address bar has, is dropped, since an origin that does
// not match the browser's exactly is never allowed.
func ParseOrigin(s string) (string, error) {
	if s == "*" {
		return s, nil
	}
	// Errors quote the origin as given, slash and all.
	given := s
	if u, err := url.Parse(s); err == nil && u.Host != "" && u.Path == "/" && u.RawQuery == "" && u.Fragment == "" && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "#") {
		s = strings.TrimSuffix(s, "/")
	}
	u, err := url.Parse(s)
	var ue *url.Error
	switch {
	case strings.Contains(s, ","):
		return "", fmt.Errorf("origin %q: want one origin, such as https://app.example.com, or *", given)
	case errors.As(err, &ue):
		// Without url.Error's own "parse" and the origin a second time.
		return "", fmt.Errorf("origin %q: %w", given, ue.Err)
	case err != nil:
		return "", fmt.Errorf("origin %q: %w", given, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("origin %q: want http:// or https:// and a host, or *", given)
	case u.Host == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "#"):
		return "", fmt.Errorf("origin %q: want a scheme and a host only, such as https://app.example.com, without a path", given)
	}
	// A browser compares Access-Control-Allow-Origin with the origin it
	// sends byte for byte, so an origin in any other spelling would let
	// no page in, silently.
	sent, err := browserOrigin(u)
	if err != nil {
		return "", fmt.Errorf("origin %q: %w", given, err)
	}
	if sent != s {
		return "", fmt.Errorf("origin %q: a browser sends it as %s; give that", given, sent)
	}
	return s, nil
}

// browserOrigin returns the origin of u, a scheme and a host, as a
// browser writes it in Origin: lower case, an IPv6 address in its short
// form, no port where it is the scheme's own.
func browserOrigin(u *url.URL) (string, error) {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return "", errors.New("write the host in ASCII (its xn-- form), as a browser sends it")
		}
	}
	if strings.Contains(host, ":") {
		a, err := netip.ParseAddr(host)
		if err != nil || a.Zone() != "" {
			return "", errors.New("not an IPv6 address a browser sends")
		}
		host = "[" + a.String() + "]"
	}
	switch n, err := strconv.Atoi(port); {
	case strings.HasSuffix(u.Host, ":") && port == "":
		return "", errors.New("a colon without a port")
	case port == "":
	case err != nil || n > 65535:
		return "", fmt.Errorf("port %s: want 0 to 65535", port)
	case u.Scheme == "http" && n == 80, u.Scheme == "https" && n == 443:
	default:
		host += ":" + strconv.Itoa(n)
	}
	return u.Scheme + "://" + host, nil
}

// cors lets web pages of origin read the API (the paths under /api/)
// from a browser: it marks their responses readable by that origin and
// answers a browser's preflight, which asks before a request with a
// header such as If-None-Match. With origin "" it is h.
func cors(origin string, h http.Handler) http.Handler {
	if origin == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Access-Control-Allow-Origin", origin)
		// Scripts read these beside the CORS-safelisted ones.
		w.Header().Set("Access-Control-Expose-Headers", "ETag, Retry-After, Content-Disposition")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			w.Header().Set("Access-Control-Allow-Methods", "GET, HEAD")
			w.Header().Set("Access-Control-Allow-Headers", "If-None-Match")
			w.Header().Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// AccessLog logs a line for each request h serves: method, path,
// status, bytes written and duration.
func AccessLog(log *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		log.Info("request", "method", r.Method, "path", r.URL.Path, "query", r.URL.RawQuery,
			"status", sw.status, "bytes", sw.bytes, "duration", time.Since(start), "remote", r.RemoteAddr)
	})
}

// statusWriter remembers the status and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// noBody refuses a GET or HEAD with a body: every endpoint is a GET,
// and a body would only cost reading. A request of another method goes
// on, unread, to its 405 (or 404): the method is its mistake, not the
// body.
func noBody(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		getOrHead := r.Method == http.MethodGet || r.Method == http.MethodHead
		if getOrHead && r.ContentLength != 0 {
			writeError(w, http.StatusRequestEntityTooLarge, "a request takes no body")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 0)
		h.ServeHTTP(w, r)
	})
}

// jsonNotFound answers a path no pattern of mux has with a JSON 404,
// and a known path with another method with a JSON 405 that keeps
// net/http's Allow: an app reads every error the same way.
func jsonNotFound(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern == "" {
			mux.ServeHTTP(&notFoundWriter{ResponseWriter: w, method: r.Method, path: r.URL.Path}, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// notFoundWriter turns net/http's plain-text 404 and 405 into JSON ones.
type notFoundWriter struct {
	http.ResponseWriter
	method, path string
	swallow      bool
}

func (w *notFoundWriter) WriteHeader(code int) {
	switch code {
	case http.StatusNotFound:
		w.swallow = true
		writeError(w.ResponseWriter, code, fmt.Sprintf("no such path %q", w.path))
	case http.StatusMethodNotAllowed:
		w.swallow = true
		writeError(w.ResponseWriter, code, fmt.Sprintf("method %s not allowed on %q; use %s", w.method, w.path, w.Header().Get("Allow")))
	default:
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *notFoundWriter) Write(b []byte) (int, error) {
	if w.swallow {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// errorJSON is the body of every error response.
type errorJSON struct {
	Error string `json:"error"`
}

// writeError writes status with {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorJSON{Error: msg})
}

// writeJSON writes v as the JSON body of a response with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`+"\n")
	}
	writeBody(w, status, b)
}

// writeBody writes the JSON b as the body of a response with status.
func writeBody(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// marshal encodes v as one line of JSON, HTML characters as they are.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeTagged writes v as JSON with an ETag of its bytes and the
// Cache-Control cache, and answers a request whose If-None-Match has
// that ETag with 304: a client revalidates without the body.
func writeTagged(w http.ResponseWriter, r *http.Request, v any, cache string) {
	b, err := marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	h := fnv.New64a()
	h.Write(b)
	etag := `"` + strconv.FormatUint(h.Sum64(), 36) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", cache)
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// etagMatches reports whether an If-None-Match header names etag (or is
// "*"); weak tags match too, as RFC 9110 has it for If-None-Match.
func etagMatches(header, etag string) bool {
	for _, t := range bytes.Split([]byte(header), []byte(",")) {
		t = bytes.TrimSpace(t)
		t = bytes.TrimPrefix(t, []byte("W/"))
		if string(t) == etag || string(t) == "*" {
			return true
		}
	}
	return false
}

// damagedMessage is the error a client gets from a damaged bank: the
// file's name and the check to run are for the server's log alone.
const damagedMessage = "the puzzle bank is damaged: the server's operator must check it"

// internalError logs err and answers 500 without its details, which
// may name files: a damaged bank is said as such.
func (s *Server) internalError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the client has gone
	}
	if s.logFailure(r, "request failed", err) {
		writeError(w, http.StatusInternalServerError, damagedMessage)
		return
	}
	writeError(w, http.StatusInternalServerError, "internal error")
}

// logFailure logs err, which failed request r, under msg, and reports
// whether it is damage to the bank: that line is "bank damaged", with
// the file and the command that lists all that is wrong.
func (s *Server) logFailure(r *http.Request, msg string, err error) bool {
	var d *store.DamagedError
	if !errors.As(store.Damaged(s.db.Path(), err), &d) {
		s.log.Error(msg, "path", r.URL.Path, "err", err)
		return false
	}
	s.log.Error("bank damaged", "path", r.URL.Path, "file", d.Path, "check", d.Check(), "err", err)
	return true
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
