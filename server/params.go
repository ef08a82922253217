package server

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"sudokubank/internal/filters"
	"sudokubank/store"
)

// filterParams are the query parameters that filter puzzles, read by
// the parser bankquery's flags use.
var filterParams = []string{"level", "rating", "givens", "score", "technique", "hardest", "symmetry", "minimal", "source", "size"}

// paramError is a bad query parameter; its message names the parameter
// and the value, and it answers 400.
type paramError struct {
	name, value string
	err         error
}

func (e *paramError) Error() string {
	return fmt.Sprintf("parameter %s=%q: %v", e.name, e.value, e.err)
}

func badParam(name, value string, format string, args ...any) error {
	return &paramError{name: name, value: value, err: fmt.Errorf(format, args...)}
}

// query returns the request's parameters, refusing any the endpoint
// does not take (a misspelt filter must not widen the selection
// silently) and any given twice.
func query(u *url.URL, allowed ...[]string) (url.Values, error) {
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, &paramError{name: "query", value: u.RawQuery, err: errors.New("not a valid query string")}
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if k == "" {
			return nil, badParam("query", u.RawQuery, "a parameter has no name")
		}
		known := false
		for _, a := range allowed {
			known = known || slices.Contains(a, k)
		}
		if !known {
			var names []string
			for _, a := range allowed {
				names = append(names, a...)
			}
			if len(names) == 0 {
				return nil, badParam(k, q.Get(k), "unknown parameter; this endpoint takes none")
			}
			return nil, badParam(k, q.Get(k), "unknown parameter; this endpoint takes %s", strings.Join(names, ", "))
		}
		if len(q[k]) > 1 {
			return nil, badParam(k, strings.Join(q[k], ","), "given %d times; give it once (a list of levels is comma-separated)", len(q[k]))
		}
	}
	return q, nil
}

// params reads one request's parameters and keeps the first mistake, so
// that a handler reads all it takes in order and answers once.
type params struct {
	q   url.Values
	err error
}

// newParams returns the request's parameters, refusing those the
// endpoint does not take (see query).
func newParams(r *http.Request, allowed ...[]string) *params {
	q, err := query(r.URL, allowed...)
	return &params{q: q, err: err}
}

// keep records err if it is the request's first mistake and returns v.
func keep[T any](p *params, v T, err error) T {
	if p.err == nil {
		p.err = err
	}
	return v
}

func (p *params) filter() store.Filter {
	if p.err != nil {
		return store.Filter{}
	}
	f, err := filterOf(p.q)
	return keep(p, f, err)
}

func (p *params) int(name string, def, lo, hi int) int {
	if p.err != nil {
		return 0
	}
	n, err := intParam(p.q, name, def, lo, hi)
	return keep(p, n, err)
}

func (p *params) bool(name string) bool {
	if p.err != nil {
		return false
	}
	b, err := boolParam(p.q, name)
	return keep(p, b, err)
}

func (p *params) seed() uint64 {
	if p.err != nil {
		return 0
	}
	n, err := seedParam(p.q)
	return keep(p, n, err)
}

func (p *params) cursor() cursor {
	if p.err != nil {
		return cursor{}
	}
	c, err := decodeCursor(p.q.Get("cursor"))
	return keep(p, c, err)
}

// filterOf reads the filter parameters into a store filter.
func filterOf(q url.Values) (store.Filter, error) {
	v := filters.Values{
		Level: q.Get("level"), Rating: q.Get("rating"), Givens: q.Get("givens"), Score: q.Get("score"),
		Technique: q.Get("technique"), Hardest: q.Get("hardest"), Symmetry: q.Get("symmetry"), Source: q.Get("source"),
		Size: q.Get("size"),
	}
	if s := q.Get("minimal"); s != "" {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return store.Filter{}, badParam("minimal", s, "want true or false")
		}
		v.Minimal = b
	}
	f, err := v.Filter()
	if fe := (*filters.Error)(nil); errors.As(err, &fe) {
		return f, &paramError{name: fe.Name, value: fe.Value, err: fe.Err}
	}
	return f, err
}

// intParam reads the parameter name as a number from lo to hi, or def
// when it is absent.
func intParam(q url.Values, name string, def, lo, hi int) (int, error) {
	s := q.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, badParam(name, s, "want a whole number from %d to %d", lo, hi)
	}
	return n, nil
}

// boolParam reads the parameter name as 1/0 or true/false; absent is
// false.
func boolParam(q url.Values, name string) (bool, error) {
	s := q.Get(name)
	if s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, badParam(name, s, "want 1 or 0")
	}
	return b, nil
}

// maxSeed bounds the seeds the server draws, so that a JavaScript
// client, whose numbers are doubles, can send one back unchanged.
const maxSeed = 1<<53 - 1

// seedParam reads the parameter seed, or draws one when it is absent.
func seedParam(q url.Values) (uint64, error) {
	s := q.Get("seed")
	if s == "" {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return 0, fmt.Errorf("draw a seed: %w", err)
		}
		return binary.LittleEndian.Uint64(b[:]) & maxSeed, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, badParam("seed", s, "want a whole number from 0 to %d", uint64(1<<64-1))
	}
	return n, nil
}

// cursorPrefix starts every cursor's text, so that a cursor is told
// apart from a bare number and can change form in a later version.
const cursorPrefix = "id:"

// cursor is where a page of puzzles goes on from: after the puzzle ID.
// A cursor also carries the place of that ID among the matches (N, the
// number of matches up to it) and the fingerprint of the filter it was
// given for, so that the next page numbers on without counting; an
// older server's cursor, "id:ID" alone, has neither (counted is false).
type cursor struct {
	ID      int64
	N       int64  // the matches with an ID up to ID, if counted
	Filter  string // filterPrint of the filter N counts, if counted
	counted bool
}

// text returns the cursor's text before base64: "id:ID" or
// "id:ID;n:N;f:FILTER".
func (c cursor) text() string {
	t := cursorPrefix + strconv.FormatInt(c.ID, 10)
	if c.counted {
		t += ";n:" + strconv.FormatInt(c.N, 10) + ";f:" + c.Filter
	}
	return t
}

// encodeCursor returns c as a client sends it back.
func encodeCursor(c cursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(c.text()))
}

// countedCursor returns the cursor after the puzzle id, the nth match
// of the filter with fingerprint filter.
func countedCursor(id, n int64, filter string) cursor {
	return cursor{ID: id, N: n, Filter: filter, counted: true}
}

// decodeCursor returns the cursor s; "" is the start, ID 0.
func decodeCursor(s string) (cursor, error) {
	if s == "" {
		return cursor{}, nil
	}
	bad := badParam("cursor", s, "not a cursor this server gave")
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	rest, ok := strings.CutPrefix(string(b), cursorPrefix)
	if err != nil || !ok {
		return cursor{}, bad
	}
	var c cursor
	idText, more, counted := strings.Cut(rest, ";n:")
	if c.ID, err = strconv.ParseInt(idText, 10, 64); err != nil || c.ID <= 0 {
		return cursor{}, bad
	}
	if counted {
		nText, filter, ok := strings.Cut(more, ";f:")
		n, err := strconv.ParseInt(nText, 10, 64)
		if !ok || err != nil || n < 0 || n > c.ID || !isFilterPrint(filter) {
			return cursor{}, bad
		}
		c = countedCursor(c.ID, n, filter)
	}
	// Only the cursor's one spelling reads back, so that a cursor
	// names one place.
	if encodeCursor(c) != s {
		return cursor{}, bad
	}
	return c, nil
}

// filterPrint returns the fingerprint of the filter parameters of q, as
// given: a cursor's count holds for the filter it was counted for only.
func filterPrint(q url.Values) string {
	h := fnv.New64a()
	for _, k := range filterParams {
		if q.Has(k) {
			fmt.Fprintf(h, "%s=%q;", k, q.Get(k))
		}
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// isFilterPrint reports whether s is a filterPrint: base 36, lower case.
func isFilterPrint(s string) bool {
	if s == "" || len(s) > 13 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// idsParam reads the parameter ids: puzzle IDs, comma-separated, each
// once, at most MaxCount of them.
func idsParam(s string) ([]int64, error) {
	var ids []int64
	for part := range strings.SplitSeq(s, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || id <= 0 {
			return nil, badParam("ids", s, "%q is not a puzzle ID; want IDs from 1, comma-separated", part)
		}
		if slices.Contains(ids, id) {
			return nil, badParam("ids", s, "ID %d given twice", id)
		}
		if len(ids) == MaxCount {
			return nil, badParam("ids", s, "more than %d IDs", MaxCount)
		}
		ids = append(ids, id)
	}
	return ids, nil
}
