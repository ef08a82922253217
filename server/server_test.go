package server_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sudokubank/grade"
	"sudokubank/server"
	"sudokubank/store"
)

// The keys of a puzzle object: those of bankquery list -format json and
// hardest_name.
// Without solution=1 the object has no solution key at all.
var puzzleKeys = []string{"cells", "diamond", "family", "givens", "hardest", "hardest_name", "id", "level", "level_name", "minimal",
	"number", "pearl", "puzzle", "rating", "score", "size", "source", "symmetry"}

func TestStatsAndHealth(t *testing.T) {
	fams := MustFixture(t)
	ts := MustServer(t, MustBank(t, fams), server.Options{})
	var h map[string]string
	MustGet(t, ts.URL+"/healthz", &h)
	if h["status"] != "ok" {
		t.Errorf("healthz: %v", h)
	}
	var st struct {
		Families int64 `json:"families"`
		Puzzles  int64 `json:"puzzles"`
		Levels   []struct {
			Level    int    `json:"level"`
			Name     string `json:"name"`
			Families int64  `json:"families"`
		} `json:"levels"`
	}
	MustGet(t, ts.URL+"/api/v1/stats", &st)
	if st.Families != int64(len(fams)) || len(st.Levels) != 5 || st.Levels[4].Name != "evil" || st.Levels[4].Families == 0 {
		t.Errorf("stats: %+v, want %d families in 5 levels", st, len(fams))
	}
	// Each technique has its display name beside its slug, for the page.
	var tech struct {
		Techniques []struct {
			Technique string `json:"technique"`
			Name      string `json:"name"`
		} `json:"techniques"`
	}
	MustGet(t, ts.URL+"/api/v1/stats", &tech)
	for _, e := range tech.Techniques {
		if want := mustTechnique(t, e.Technique).String(); e.Name != want {
			t.Errorf("technique %s named %q, want %q", e.Technique, e.Name, want)
		}
	}
	var pg struct {
		Puzzles []struct {
			Hardest     string `json:"hardest"`
			HardestName string `json:"hardest_name"`
		} `json:"puzzles"`
	}
	MustGet(t, ts.URL+"/api/v1/puzzles?limit=1000", &pg)
	for _, p := range pg.Puzzles {
		if want := mustTechnique(t, p.Hardest).String(); p.HardestName != want {
			t.Errorf("hardest %s named %q, want %q", p.Hardest, p.HardestName, want)
		}
	}
	if len(tech.Techniques) == 0 || len(pg.Puzzles) == 0 {
		t.Errorf("%d techniques, %d puzzles: want some of each", len(tech.Techniques), len(pg.Puzzles))
	}
}

// mustTechnique returns the technique of a slug.
func mustTechnique(tb testing.TB, slug string) grade.Technique {
	tb.Helper()
	tech, err := grade.ParseTechniqueSlug(slug)
	if err != nil {
		tb.Fatal(err)
	}
	return tech
}

func TestList(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	r := MustGet(t, ts.URL+"/api/v1/puzzles?level=evil&givens=20-30&limit=3", nil)
	var raw struct {
		Puzzles []map[string]any `json:"puzzles"`
		More    bool             `json:"more"`
	}
	if err := json.Unmarshal(r.body, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Puzzles) != 3 || !raw.More {
		t.Fatalf("got %d puzzles, more %v; want 3 and more", len(raw.Puzzles), raw.More)
	}
	for _, p := range raw.Puzzles {
		if got := slices.Sorted(maps.Keys(p)); !slices.Equal(got, puzzleKeys) {
			t.Errorf("keys %v, want %v", got, puzzleKeys)
		}
		if p["level"] != 5.0 {
			t.Errorf("puzzle %v: want level 5", p)
		}
	}
	// Asked for, the solution comes in both of export's forms.
	r = MustGet(t, ts.URL+"/api/v1/puzzles?level=evil&givens=20-30&limit=3&solution=1", nil)
	if err := json.Unmarshal(r.body, &raw); err != nil {
		t.Fatal(err)
	}
	withSolution := slices.Sorted(slices.Values(append(slices.Clone(puzzleKeys), "solution", "solution_cells")))
	for _, p := range raw.Puzzles {
		if got := slices.Sorted(maps.Keys(p)); !slices.Equal(got, withSolution) {
			t.Errorf("solution=1: keys %v, want %v", got, withSolution)
		}
	}
	var pg page
	MustGet(t, ts.URL+"/api/v1/puzzles?technique=x-wing&minimal=true&solution=1&limit=1000", &pg)
	for _, p := range pg.Puzzles {
		if !p.Minimal || len(p.Solution) != 81 {
			t.Errorf("puzzle %+v: want minimal, with its solution", p)
		}
	}
	if pg.More {
		t.Errorf("last page has more")
	}
}

// Random picks go on while a writer adds families, and soon take from
// the new ones: a reader's kept counts follow the writer's commits.
func TestRandomWhileBankGrows(t *testing.T) {
	fams := MustVariantFamilies(t, MustFixture(t), 4, 2)
	path := MustBank(t, fams[:60])
	ts := MustServer(t, path, server.Options{})
	writer := MustWriter(t, path)
	pick := func(seed string) []int64 {
		t.Helper()
		var v struct {
			Puzzles []puzzle `json:"puzzles"`
		}
		MustGet(t, ts.URL+"/api/v1/puzzles/random?n=100"+seed, &v)
		ids := make([]int64, len(v.Puzzles))
		for i, p := range v.Puzzles {
			ids[i] = p.ID
		}
		return ids
	}
	done := make(chan error)
	go func() {
		for i := 60; i < len(fams); i += 10 {
			if _, err := writer.WriteBatch(context.Background(), fams[i:i+10]); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for range 20 {
		pick("") // each must answer 200
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Every puzzle is written: 100 picks of them, from a fixed seed,
	// take some of those written since the server started.
	var top int64
	for _, id := range pick("&seed=1") {
		top = max(top, id)
	}
	if first := int64(60 * 5); top <= first {
		t.Errorf("picks from IDs up to %d, none from the families written after the first %d puzzles", top, first)
	}
}

// Pages continue where the last ended, without repeats or gaps, while
// a writer adds families to the bank between and during the reads.
func TestPaginationWhileBankGrows(t *testing.T) {
	fams := MustFixture(t)
	path := MustBank(t, fams[:100])
	ts := MustServer(t, path, server.Options{})
	writer := MustWriter(t, path)

	var seen []int64
	next := ""
	read := func() bool {
		var pg page
		MustGet(t, ts.URL+"/api/v1/puzzles?limit=17&cursor="+next, &pg)
		for _, p := range pg.Puzzles {
			seen = append(seen, p.ID)
		}
		if len(seen) > 10*len(fams)*4 {
			t.Fatalf("%d puzzles paged, more than the bank holds: pages repeat", len(seen))
		}
		if pg.Next == "" && len(seen) > 0 {
			t.Fatalf("page after %q has no next cursor", next)
		}
		next = pg.Next
		return pg.More
	}
	read()
	done := make(chan error, 1)
	go func() {
		for i := 100; i < len(fams); i += 5 {
			if _, err := writer.WriteBatch(context.Background(), fams[i:min(i+5, len(fams))]); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for read() {
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The last page's cursor picks up what was written since.
	for read() {
	}
	if want := allIDs(t, path); !slices.Equal(seen, want) {
		t.Errorf("pages gave %d IDs %v\nwant %d %v", len(seen), seen, len(want), want)
	}
}

func TestRandom(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	var a, b, c struct {
		Seed    uint64   `json:"seed"`
		Puzzles []puzzle `json:"puzzles"`
	}
	MustGet(t, ts.URL+"/api/v1/puzzles/random?level=easy&n=4&seed=42", &a)
	MustGet(t, ts.URL+"/api/v1/puzzles/random?level=2&n=4&seed=42", &b)
	if len(a.Puzzles) != 4 || a.Seed != 42 || !slices.Equal(a.Puzzles, b.Puzzles) {
		t.Errorf("seed 42: %+v and %+v, want the same 4 puzzles", a, b)
	}
	for _, p := range a.Puzzles {
		if p.Level != 2 {
			t.Errorf("puzzle %d of level %d, want 2", p.ID, p.Level)
		}
	}
	MustGet(t, ts.URL+"/api/v1/puzzles/random", &c)
	if len(c.Puzzles) != 1 {
		t.Errorf("no n: %d puzzles, want 1", len(c.Puzzles))
	}
}

func TestPuzzleAndETag(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	var p, ps puzzle
	r := MustGet(t, ts.URL+"/api/v1/puzzles/7", &p)
	MustGet(t, ts.URL+"/api/v1/puzzles/7?solution=1", &ps)
	if p.ID != 7 || p.Solution != "" || len(ps.Solution) != 81 || ps.Puzzle != p.Puzzle {
		t.Errorf("puzzle 7: %+v and with solution %+v", p, ps)
	}
	etag := r.header.Get("ETag")
	if etag == "" || !strings.Contains(r.header.Get("Cache-Control"), "immutable") {
		t.Fatalf("headers %v: want an ETag and an immutable Cache-Control", r.header)
	}
	again := MustDo(t, http.MethodGet, ts.URL+"/api/v1/puzzles/7", http.Header{"If-None-Match": {etag}}, nil)
	if again.status != http.StatusNotModified || len(again.body) != 0 {
		t.Errorf("If-None-Match %s: status %d, body %q; want 304 and none", etag, again.status, again.body)
	}
	other := MustDo(t, http.MethodGet, ts.URL+"/api/v1/puzzles/7?solution=1", http.Header{"If-None-Match": {etag}}, nil)
	if other.status != http.StatusOK {
		t.Errorf("another representation with the same If-None-Match: status %d, want 200", other.status)
	}
}

// Every hint step's placements agree with the solution, and its cells
// are on the board.
func TestHints(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	var pg page
	MustGet(t, ts.URL+"/api/v1/puzzles?level=difficult,evil&solution=1&limit=5", &pg)
	for _, p := range pg.Puzzles {
		var h struct {
			ID    int64 `json:"id"`
			Steps []struct {
				Technique  string `json:"technique"`
				Name       string `json:"name"`
				Rating     float64
				Cells      []struct{ Row, Col int }
				Placements []struct{ Row, Col, Digit int }
				Text       string `json:"text"`
			} `json:"steps"`
		}
		MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", ts.URL, p.ID), &h)
		if h.ID != p.ID || len(h.Steps) == 0 {
			t.Fatalf("hints of %d: %+v", p.ID, h)
		}
		placed := 0
		for i, st := range h.Steps {
			if _, ok := grade.ParseTechnique(st.Technique); !ok || st.Name == "" || !strings.HasPrefix(st.Text, st.Name+" ") && !strings.HasPrefix(st.Text, st.Name+":") {
				t.Errorf("puzzle %d step %d: %+v", p.ID, i+1, st)
			}
			for _, c := range st.Cells {
				if c.Row < 1 || c.Row > 9 || c.Col < 1 || c.Col > 9 {
					t.Errorf("puzzle %d step %d: cell %+v off the board", p.ID, i+1, c)
				}
			}
			for _, pl := range st.Placements {
				if got := int(p.Solution[(pl.Row-1)*9+pl.Col-1] - '0'); got != pl.Digit {
					t.Errorf("puzzle %d step %d places %d at r%dc%d, the solution has %d", p.ID, i+1, pl.Digit, pl.Row, pl.Col, got)
				}
				placed++
			}
		}
		if placed != 81-p.Givens {
			t.Errorf("puzzle %d: hints place %d digits, want %d", p.ID, placed, 81-p.Givens)
		}
	}
}

// A hint path writes its ratings as a puzzle object (and bankquery list
// -format json) does, with one decimal: 2.0, not 2. The path's rating is
// the puzzle's, in the same text.
func TestHintRatingsWrittenAsPuzzles(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	rating := regexp.MustCompile(`"rating":([^,}]*)`)
	oneDecimal := regexp.MustCompile(`^[0-9]+\.[0-9]$`)
	whole := 0
	for _, id := range []int{1, 2, 3, 4, 5, 6, 7, 8} {
		obj := MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d", ts.URL, id), nil).body
		hints := MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", ts.URL, id), nil).body
		want := rating.FindSubmatch(obj)
		all := rating.FindAllSubmatch(hints, -1)
		if want == nil || len(all) < 2 {
			t.Fatalf("puzzle %d: ratings %q in %s and %q in its hints", id, want, obj, all)
		}
		if !bytes.Equal(all[0][1], want[1]) {
			t.Errorf("puzzle %d: hints say rating %s, the puzzle %s", id, all[0][1], want[1])
		}
		for _, m := range all {
			if !oneDecimal.Match(m[1]) {
				t.Errorf("puzzle %d: hints write rating %s, want one decimal", id, m[1])
			}
			if bytes.HasSuffix(m[1], []byte(".0")) {
				whole++
			}
		}
	}
	if whole == 0 {
		t.Error("no whole rating among the hints: the test shows nothing")
	}
}

// The day's puzzle is the same from two servers on the same bank, for a
// level by name or number, and never of a family reserved to a client.
func TestDaily(t *testing.T) {
	path := MustBank(t, MustFixture(t))
	var evil int
	{
		w := MustWriter(t, path)
		n, err := w.CountFamilies(context.Background(), store.Filter{Levels: []int{5}})
		if err != nil {
			t.Fatal(err)
		}
		evil = int(n)
		// Reserve every evil family but one to a client.
		if _, _, err := w.CreatePack(context.Background(), store.PackSpec{Name: "acme-1", Client: "acme", Format: "sdm"},
			store.Filter{Levels: []int{5}}, store.QueryOptions{}, evil-1); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	a := MustServer(t, path, server.Options{})
	b := MustServer(t, path, server.Options{})
	var free int64
	for day := 1; day <= 20; day++ {
		date := fmt.Sprintf("2026-12-%02d", day)
		var pa, pb, pc struct {
			Date   string `json:"date"`
			Puzzle puzzle `json:"puzzle"`
		}
		MustGet(t, a.URL+"/api/v1/daily/"+date+"?level=evil", &pa)
		MustGet(t, b.URL+"/api/v1/daily/"+date+"?level=5", &pb)
		if pa != pb || pa.Date != date || pa.Puzzle.ID == 0 {
			t.Errorf("%s: %+v and %+v, want the same puzzle", date, pa, pb)
		}
		if free == 0 {
			free = pa.Puzzle.Family
		}
		if pa.Puzzle.Family != free {
			t.Errorf("%s: family %d, but only family %d of %d evil ones is not reserved", date, pa.Puzzle.Family, free, evil)
		}
		MustGet(t, a.URL+"/api/v1/daily/"+date, &pc)
		if pc.Puzzle.ID == 0 {
			t.Errorf("%s, any level: no puzzle", date)
		}
	}
}

func TestExport(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	tests := []struct {
		query, ctype, prefix string
		lines                int
	}{
		{"format=csv&level=easy&count=5", "text/csv", "number,", 6},
		{"format=json&count=3", "application/x-ndjson", "{", 3},
		{"format=sdm&count=4&seed=9", "text/plain", "", 4},
		{"format=pdf&count=2", "application/pdf", "%PDF", -1},
		{"count=2", "application/x-ndjson", "{", 2},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := MustGet(t, ts.URL+"/api/v1/export?"+tt.query, nil)
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, tt.ctype) {
				t.Errorf("Content-Type %q, want %q", ct, tt.ctype)
			}
			if !bytes.HasPrefix(r.body, []byte(tt.prefix)) {
				t.Errorf("body starts %q, want %q", r.body[:min(20, len(r.body))], tt.prefix)
			}
			if n := bytes.Count(r.body, []byte("\n")); tt.lines >= 0 && n != tt.lines {
				t.Errorf("%d lines, want %d", n, tt.lines)
			}
		})
	}
}

// size= selects grids of one size, as bankquery -size does: the bank
// holds 9x9 grids, which size=9 keeps and other sizes leave out.
func TestSize(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	count := func(path string) int {
		t.Helper()
		var v struct {
			Puzzles []struct {
				ID    int64 `json:"id"`
				Size  int   `json:"size"`
				Cells []int `json:"cells"`
			} `json:"puzzles"`
		}
		MustGet(t, ts.URL+path, &v)
		for _, p := range v.Puzzles {
			if p.Size != 9 || len(p.Cells) != 81 {
				t.Errorf("%s: puzzle %d of size %d with %d cells, want 9 and 81", path, p.ID, p.Size, len(p.Cells))
			}
		}
		return len(v.Puzzles)
	}
	all := count("/api/v1/puzzles?level=evil")
	for _, tt := range []struct {
		path string
		want int
	}{
		{"/api/v1/puzzles?level=evil&size=9", all},
		{"/api/v1/puzzles?level=evil&size=9x9", all},
		{"/api/v1/puzzles?level=evil&size=16", 0},
		{"/api/v1/puzzles/random?n=5&size=9", 5},
		{"/api/v1/puzzles/random?n=5&size=4x4", 0},
	} {
		if got := count(tt.path); got != tt.want {
			t.Errorf("%s: %d puzzles, want %d", tt.path, got, tt.want)
		}
	}
	if r := MustGet(t, ts.URL+"/api/v1/export?format=json&size=16", nil); len(r.body) != 0 {
		t.Errorf("export of size 16: %q, want nothing", r.body)
	}
	if r := MustDo(t, http.MethodGet, ts.URL+"/api/v1/export?format=pdf&size=16", nil, nil); r.status != http.StatusNotFound {
		t.Errorf("pdf of size 16: status %d, want 404: no puzzle matches", r.status)
	}
}

func TestErrors(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)), server.Options{})
	tests := []struct {
		method, path string
		status       int
		word         string // the error names it
	}{
		{"GET", "/api/v1/puzzles?level=nightmare", 400, "level"},
		{"GET", "/api/v1/puzzles?rating=7-x", 400, "rating"},
		{"GET", "/api/v1/puzzles?givens=30-20", 400, "givens"},
		{"GET", "/api/v1/puzzles?score=x", 400, "score"},
		{"GET", "/api/v1/puzzles?technique=x-wingz", 400, "technique"},
		{"GET", "/api/v1/puzzles?symmetry=rot45", 400, "symmetry"},
		{"GET", "/api/v1/puzzles?minimal=maybe", 400, "minimal"},
		{"GET", "/api/v1/puzzles?limit=0", 400, "limit"},
		{"GET", "/api/v1/puzzles?limit=1001", 400, "limit"},
		{"GET", "/api/v1/puzzles?cursor=bm9wZQ", 400, "cursor"},
		{"GET", "/api/v1/puzzles?cursor=!!", 400, "cursor"},
		{"GET", "/api/v1/puzzles?solution=maybe", 400, "solution"},
		{"GET", "/api/v1/puzzles?levle=evil", 400, "levle"},
		{"GET", "/api/v1/puzzles?level=evil&level=easy", 400, "level"},
		{"GET", "/api/v1/puzzles/random?n=101", 400, "n="},
		{"GET", "/api/v1/puzzles/random?seed=-1", 400, "seed"},
		{"GET", "/api/v1/puzzles/random?limit=3", 400, "limit"},
		{"GET", "/api/v1/puzzles/abc", 400, "id"},
		{"GET", "/api/v1/puzzles/0", 400, "id"},
		{"GET", "/api/v1/puzzles/1?solution=2", 400, "solution"},
		{"GET", "/api/v1/puzzles/999999", 404, "999999"},
		{"GET", "/api/v1/puzzles/999999/hints", 404, "999999"},
		{"GET", "/api/v1/puzzles/x/hints", 400, "id"},
		{"GET", "/api/v1/daily/2026-13-01", 400, "date"},
		{"GET", "/api/v1/daily/today", 400, "date"},
		{"GET", "/api/v1/daily/2026-12-01?level=hard", 400, "level"},
		{"GET", "/api/v1/daily/2026-12-01?rating=3", 400, "rating"},
		{"GET", "/api/v1/daily/2026-12-01?size=7", 400, "size"},
		{"GET", "/api/v1/export?format=sdk", 400, "format"},
		{"GET", "/api/v1/export?format=pdf&count=0", 400, "count"},
		{"GET", "/api/v1/export?count=1001", 400, "count"},
		{"GET", "/api/v1/export?format=pdf&level=evil&givens=80", 404, "no puzzle"},
		{"GET", "/api/v1/puzzles?size=10", 400, "size"},
		{"GET", "/api/v1/puzzles/random?size=9x8", 400, "size"},
		{"GET", "/api/v1/export?size=0", 400, "size"},
		{"GET", "/api/v1/export?format=sdm&size=16", 400, "size"},
		{"GET", "/api/v1/export?ids=1&size=9", 400, "size"},
		{"GET", "/api/v1/stats?x=1", 400, "x="},
		{"GET", "/nope", 404, "/nope"},
		{"GET", "/api/v1/puzzles/1/solution", 404, "solution"},
		{"GET", "/api/v2/stats", 404, "v2"},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.path, "/", "_"), func(t *testing.T) {
			r := MustDo(t, tt.method, ts.URL+tt.path, nil, nil)
			if r.status != tt.status || !hasError(r.body, tt.word) {
				t.Errorf("%s %s: %d %s; want %d and an error naming %q", tt.method, tt.path, r.status, r.body, tt.status, tt.word)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
		})
	}
	// Another method is a JSON 405 naming the method, with Allow, body
	// or not: the method is the mistake.
	methods := []struct {
		method, path string
		body         io.Reader
	}{
		{http.MethodPost, "/api/v1/stats", nil},
		{http.MethodPost, "/api/v1/puzzles/1", nil},
		{http.MethodDelete, "/api/v1/puzzles/1", nil},
		{http.MethodPut, "/api/v1/puzzles/1/hints", strings.NewReader(`{"x":1}`)},
		{http.MethodPost, "/api/v1/stats", strings.NewReader("a=1")},
		{http.MethodOptions, "/api/v1/daily/2026-12-01", nil},
		{http.MethodPost, "/", nil},
	}
	for _, tt := range methods {
		r := MustDo(t, tt.method, ts.URL+tt.path, nil, tt.body)
		if r.status != http.StatusMethodNotAllowed || !strings.Contains(r.header.Get("Allow"), "GET") || !hasError(r.body, tt.method) {
			t.Errorf("%s %s: %d, Allow %q, %s; want 405 allowing GET, a JSON error naming %s", tt.method, tt.path, r.status, r.header.Get("Allow"), r.body, tt.method)
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q, want application/json", tt.method, tt.path, ct)
		}
	}
	r := MustDo(t, http.MethodGet, ts.URL+"/api/v1/stats", nil, strings.NewReader("a body"))
	if r.status != http.StatusRequestEntityTooLarge || !hasError(r.body, "body") {
		t.Errorf("GET with a body: %d %s, want 413", r.status, r.body)
	}
}

// A request past the limit is answered 503 at once; the ones in flight
// go on.
func TestLimit(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	h := server.Limit(1, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		io.WriteString(w, "done")
	}))
	ts := httptestServer(t, h)
	first := make(chan response, 1)
	go func() { first <- MustDo(t, http.MethodGet, ts, nil, nil) }()
	<-entered
	r := MustDo(t, http.MethodGet, ts, nil, nil)
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || !hasError(r.body, "too many") {
		t.Errorf("second request: %d %v %s, want 503 with Retry-After", r.status, r.header, r.body)
	}
	close(release)
	if r := <-first; r.status != http.StatusOK || string(r.body) != "done" {
		t.Errorf("first request: %d %q", r.status, r.body)
	}
}

// After ctx is done Serve takes no new request, lets the one in flight
// finish, and returns nil.
func TestServeShutdown(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		io.WriteString(w, "finished")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.Serve(ctx, ln, h, nil) }()
	got := make(chan response, 1)
	go func() { got <- MustDo(t, http.MethodGet, "http://"+ln.Addr().String()+"/", nil, nil) }()
	<-entered
	cancel()
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(release)
	if r := <-got; r.status != http.StatusOK || string(r.body) != "finished" {
		t.Errorf("in-flight request: %d %q, want 200 finished", r.status, r.body)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Error("a request after shutdown was served")
	}
}

// Every request leaves one access-log line.
func TestAccessLog(t *testing.T) {
	var mu sync.Mutex
	var b bytes.Buffer
	log := slog.New(slog.NewTextHandler(&lockedWriter{mu: &mu, w: &b}, nil))
	ts := MustServer(t, MustBank(t, MustFixture(t)[:10]), server.Options{Log: log})
	MustGet(t, ts.URL+"/healthz", nil)
	MustDo(t, http.MethodGet, ts.URL+"/api/v1/puzzles?level=x", nil, nil)
	mu.Lock()
	defer mu.Unlock()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "path=/healthz") || !strings.Contains(lines[0], "status=200") || !strings.Contains(lines[1], "status=400") {
		t.Errorf("log:\n%s\nwant a line for each of 2 requests", b.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// ids exports the puzzles picked by hand, in the order given.
func TestExportIDs(t *testing.T) {
	ts := MustServer(t, MustBank(t, MustFixture(t)[:10]), server.Options{})
	r := MustGet(t, ts.URL+"/api/v1/export?format=csv&ids=9,2,5", nil)
	recs, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, rec := range recs[1:] {
		for i, name := range recs[0] {
			if name == "id" {
				got = append(got, rec[i])
			}
		}
	}
	if strings.Join(got, ",") != "9,2,5" {
		t.Errorf("ids=9,2,5 exported IDs %v", got)
	}
	pdf := MustGet(t, ts.URL+"/api/v1/export?format=pdf&ids=4", nil)
	if !bytes.HasPrefix(pdf.body, []byte("%PDF")) || pdf.header.Get("Content-Type") != "application/pdf" {
		t.Errorf("pdf of ids=4: %q, body %q", pdf.header.Get("Content-Type"), pdf.body[:min(8, len(pdf.body))])
	}
	errs := []struct {
		query  string
		status int
		word   string
	}{
		{"ids=", 400, "ids"},
		{"ids=1,x", 400, "ids"},
		{"ids=0", 400, "ids"},
		{"ids=3,3", 400, "twice"},
		{"ids=1&level=evil", 400, "level"},
		{"ids=1&count=3", 400, "count"},
		{"ids=1&seed=3", 400, "seed"},
		{"ids=1,999999", 404, "999999"},
	}
	for _, tt := range errs {
		r := MustDo(t, http.MethodGet, ts.URL+"/api/v1/export?"+tt.query, nil, nil)
		if r.status != tt.status || !hasError(r.body, tt.word) {
			t.Errorf("%s: %d %s; want %d naming %q", tt.query, r.status, r.body, tt.status, tt.word)
		}
	}
	var many []string
	for id := 1; id <= server.MaxCount+1; id++ {
		many = append(many, strconv.Itoa(id))
	}
	if r := MustDo(t, http.MethodGet, ts.URL+"/api/v1/export?ids="+strings.Join(many, ","), nil, nil); r.status != http.StatusBadRequest || !hasError(r.body, "more than") {
		t.Errorf("%d IDs: %d %s, want 400", len(many), r.status, r.body)
	}
}

// The puzzle of a day stays while the bank grows: bankgen's nightly run
// adds families made after the day began, which are no candidates, and
// reserving a family moves no other day's pick. A bank whose families
// are all newer than the day still has a puzzle for it.
func TestDailyStableAsBankGrows(t *testing.T) {
	fams := MustFixture(t)
	old, later := fams[:len(fams)/2], fams[len(fams)/2:]
	for i := range old {
		old[i].CreatedAt = time.Date(2029, 12, 1, 0, 0, 0, 0, time.UTC)
	}
	for i := range later {
		later[i].CreatedAt = time.Date(2030, 1, 20, 12, 0, 0, 0, time.UTC)
	}
	path := MustBank(t, old)
	pick := func(ts *httptest.Server, date, query string) int64 {
		t.Helper()
		var d struct {
			Puzzle puzzle `json:"puzzle"`
		}
		MustGet(t, ts.URL+"/api/v1/daily/"+date+query, &d)
		return d.Puzzle.ID
	}
	dates := make([]string, 15)
	for i := range dates {
		dates[i] = fmt.Sprintf("2030-01-%02d", i+1)
	}
	queries := []string{"", "?level=easy", "?level=evil,difficult"}
	before := map[string]int64{}
	ts := MustServer(t, path, server.Options{})
	ids := map[int64]bool{}
	for _, d := range dates {
		for _, q := range queries {
			before[d+q] = pick(ts, d, q)
			ids[before[d+q]] = true
		}
	}
	if len(ids) < 10 {
		t.Fatalf("%d puzzles over %d days and queries: the days do not pick apart", len(ids), len(before))
	}
	w := MustWriter(t, path)
	if _, err := w.WriteBatch(context.Background(), later); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ts = MustServer(t, path, server.Options{})
	for _, d := range dates {
		for _, q := range queries {
			if got := pick(ts, d, q); got != before[d+q] {
				t.Errorf("%s%s: puzzle %d, then %d once families made later were added", d, q, before[d+q], got)
			}
		}
	}
	if pick(ts, "2000-01-01", "") == 0 {
		t.Error("2000-01-01: no puzzle from a bank all made later")
	}
}

// The stats have an ETag and no-cache: a client that asks again gets
// 304 while the counts are the same, and the new counts once the bank
// has grown.
func TestStatsETag(t *testing.T) {
	fams := MustFixture(t)
	path := MustBank(t, fams[:100])
	ts := MustServer(t, path, server.Options{})
	r := MustGet(t, ts.URL+"/api/v1/stats", nil)
	etag := r.header.Get("ETag")
	if etag == "" || r.header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("headers %v: want an ETag and no-cache", r.header)
	}
	if again := MustDo(t, http.MethodGet, ts.URL+"/api/v1/stats", http.Header{"If-None-Match": {etag}}, nil); again.status != http.StatusNotModified {
		t.Errorf("If-None-Match %s: status %d, want 304", etag, again.status)
	}
	if sized := MustGet(t, ts.URL+"/api/v1/stats?size=9", nil); sized.header.Get("ETag") == etag {
		t.Errorf("size=9 has the ETag of every size's counts, %s", etag)
	}
	if _, err := MustWriter(t, path).WriteBatch(context.Background(), fams[100:]); err != nil {
		t.Fatal(err)
	}
	grown := MustDo(t, http.MethodGet, ts.URL+"/api/v1/stats", http.Header{"If-None-Match": {etag}}, nil)
	var st struct {
		Families int `json:"families"`
	}
	if err := json.Unmarshal(grown.body, &st); grown.status != http.StatusOK || err != nil || st.Families != len(fams) {
		t.Errorf("after the bank grew: status %d, %d families (%v); want 200 and %d", grown.status, st.Families, err, len(fams))
	}
}
