package server_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sudokubank/server"
)

// made is when the families of madeBank were made.
var made = time.Date(2020, 1, 1, 12, 0, 0, 0, time.UTC)

// madeBank returns the path of a bank of the fixture families, made at
// made.
func madeBank(tb testing.TB) string {
	fams := MustFixture(tb)
	for i := range fams {
		fams[i].CreatedAt = made
	}
	return MustBank(tb, fams)
}

// A day's puzzle is cached as long as it stands: until the day starts
// for a day to come (a family added until then may become its pick), a
// day once started (it is fixed), and not at all (no-cache, with its
// ETag) for a day before the bank held any puzzle, whose pick changes as
// the bank grows.
func TestDailyCache(t *testing.T) {
	ts := MustServer(t, madeBank(t), server.Options{})
	today := time.Now().UTC().Truncate(24 * time.Hour)
	future := today.AddDate(0, 0, 3)
	for _, tt := range []struct {
		date time.Time
		want string // Cache-Control; "" for a day to come
	}{
		{today, "public, max-age=86400"},
		{time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), "public, max-age=86400"},
		{time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC), "public, max-age=86400"},
		{time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), "no-cache"},
		{time.Date(2019, 6, 1, 0, 0, 0, 0, time.UTC), "no-cache"},
		{future, ""},
	} {
		date := tt.date.Format(time.DateOnly)
		before := time.Now()
		r := MustGet(t, ts.URL+"/api/v1/daily/"+date, nil)
		after := time.Now()
		got := r.header.Get("Cache-Control")
		if r.header.Get("ETag") == "" {
			t.Errorf("%s: no ETag", date)
		}
		if tt.want != "" {
			if got != tt.want {
				t.Errorf("%s: Cache-Control %q, want %q", date, got, tt.want)
			}
			continue
		}
		// Until the day starts, to the second.
		age, ok := strings.CutPrefix(got, "public, max-age=")
		n, err := strconv.ParseInt(age, 10, 64)
		lo, hi := int64(tt.date.Sub(after)/time.Second)-1, int64(tt.date.Sub(before)/time.Second)
		if !ok || err != nil || n < lo || n > hi {
			t.Errorf("%s: Cache-Control %q, want public, max-age= from %d to %d, the seconds until the day starts", date, got, lo, hi)
		}
	}
}

// A puzzle asked for by ID, and the day's, have no place in a list: no
// key number. A page's and a random pick's puzzles keep theirs.
func TestSinglePuzzleUnnumbered(t *testing.T) {
	ts := MustServer(t, madeBank(t), server.Options{})
	var pg page
	MustGet(t, ts.URL+"/api/v1/puzzles?limit=2", &pg)
	id := strconv.FormatInt(pg.Puzzles[1].ID, 10)
	single := slices.DeleteFunc(slices.Clone(puzzleKeys), func(k string) bool { return k == "number" })
	withSolution := slices.Sorted(slices.Values(append(slices.Clone(single), "solution", "solution_cells")))
	for _, tt := range []struct {
		url  string
		want []string
	}{
		{"/api/v1/puzzles/" + id, single},
		{"/api/v1/puzzles/" + id + "?solution=1", withSolution},
		{"/api/v1/daily/2024-06-01", single},
		{"/api/v1/daily/2024-06-01?solution=1&level=evil", withSolution},
	} {
		r := MustGet(t, ts.URL+tt.url, nil)
		var obj map[string]any
		if err := json.Unmarshal(r.body, &obj); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(tt.url, "daily") {
			obj = obj["puzzle"].(map[string]any)
		}
		if got := slices.Sorted(maps.Keys(obj)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: keys %v, want %v", tt.url, got, tt.want)
		}
	}
	// The same puzzle in a page is numbered; apart from that it is the
	// same object.
	var one map[string]any
	MustGet(t, ts.URL+"/api/v1/puzzles/"+id, &one)
	var list struct{ Puzzles []map[string]any }
	MustGet(t, ts.URL+"/api/v1/puzzles?limit=2", &list)
	in := list.Puzzles[1]
	if in["number"] != 2.0 {
		t.Errorf("page: puzzle %s numbered %v, want 2", id, in["number"])
	}
	delete(in, "number")
	if !maps.EqualFunc(in, one, func(a, b any) bool { x, _ := json.Marshal(a); y, _ := json.Marshal(b); return string(x) == string(y) }) {
		t.Errorf("puzzle %s: %v by ID, %v in a page", id, one, in)
	}
	var rnd struct{ Puzzles []map[string]any }
	MustGet(t, ts.URL+"/api/v1/puzzles/random?n=2", &rnd)
	for i, p := range rnd.Puzzles {
		if p["number"] != float64(i+1) {
			t.Errorf("random pick: puzzle %d numbered %v", i+1, p["number"])
		}
	}
}
