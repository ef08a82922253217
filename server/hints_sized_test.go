package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/banktest"
	"sudokubank/server"
	"sudokubank/store"
)

// The hints of 6x6 and 12x12 puzzles have the shape of 9x9 hints: cells
// on the grid of their size, placements that agree with the solution and
// fill every empty cell, and sentences that name cells in the grid's
// shape and values as its symbols (B for 11).
func TestHintsSized(t *testing.T) {
	fams := append(banktest.MustSizedBuilt(t, 6, []grade.Level{grade.Medium, grade.Difficult}, 2),
		banktest.MustSizedBuilt(t, 12, []grade.Level{grade.ExtremelyEasy}, 1)...)
	ts := MustServer(t, MustBank(t, append(MustFixture(t)[:3], fams...)), server.Options{})
	named := false
	for _, n := range []int{6, 12} {
		var pg page
		MustGet(t, fmt.Sprintf("%s/api/v1/puzzles?size=%d&solution=1&limit=10", ts.URL, n), &pg)
		if len(pg.Puzzles) == 0 {
			t.Fatalf("no %dx%d puzzles", n, n)
		}
		sh, _ := grid.ShapeOf(n)
		for _, p := range pg.Puzzles {
			var h struct {
				ID         int64   `json:"id"`
				Puzzle     string  `json:"puzzle"`
				Rating     float64 `json:"rating"`
				Unfinished bool    `json:"unfinished"`
				Steps      []struct {
					Technique    string `json:"technique"`
					Name         string `json:"name"`
					Cells        []struct{ Row, Col int }
					Digits       []int
					Placements   []struct{ Row, Col, Digit int }
					Eliminations []struct{ Row, Col, Digit int }
					Text         string `json:"text"`
				} `json:"steps"`
			}
			MustGet(t, fmt.Sprintf("%s/api/v1/puzzles/%d/hints", ts.URL, p.ID), &h)
			if h.ID != p.ID || h.Puzzle != p.Puzzle || len(h.Steps) == 0 || h.Unfinished || h.Rating == 0 {
				t.Fatalf("hints of %d: %+v", p.ID, h)
			}
			on := func(r, c int) bool { return r >= 1 && r <= n && c >= 1 && c <= n }
			placed := 0
			for i, st := range h.Steps {
				if _, ok := grade.ParseTechnique(st.Technique); !ok || !strings.HasPrefix(st.Text, st.Name) || !strings.HasSuffix(st.Text, ".") {
					t.Errorf("puzzle %d step %d: %+v", p.ID, i+1, st)
				}
				for _, c := range st.Cells {
					if !on(c.Row, c.Col) {
						t.Errorf("puzzle %d step %d: cell %+v off the board", p.ID, i+1, c)
					}
					named = named || strings.Contains(st.Text, sh.CellName(sh.Cell(c.Row-1, c.Col-1)))
				}
				for _, d := range st.Digits {
					if d < 1 || d > n {
						t.Errorf("puzzle %d step %d: digit %d", p.ID, i+1, d)
					}
				}
				for _, pl := range st.Placements {
					c := sh.Cell(pl.Row-1, pl.Col-1)
					if !on(pl.Row, pl.Col) || p.Solution[c] != grid.Symbol(uint8(pl.Digit)) || p.Puzzle[c] != '.' {
						t.Fatalf("puzzle %d step %d places %d at r%dc%d; puzzle %s, solution %s", p.ID, i+1, pl.Digit, pl.Row, pl.Col, p.Puzzle, p.Solution)
					}
					if want := fmt.Sprintf("places %c in %s", grid.Symbol(uint8(pl.Digit)), sh.CellName(c)); !strings.Contains(st.Text, want) {
						t.Errorf("puzzle %d step %d: %q does not say %q", p.ID, i+1, st.Text, want)
					}
					placed++
				}
				for _, e := range st.Eliminations {
					c := sh.Cell(e.Row-1, e.Col-1)
					if !on(e.Row, e.Col) || p.Solution[c] == grid.Symbol(uint8(e.Digit)) {
						t.Errorf("puzzle %d step %d removes the solution's %d from r%dc%d", p.ID, i+1, e.Digit, e.Row, e.Col)
					}
				}
			}
			if want := strings.Count(p.Puzzle, "."); placed != want {
				t.Errorf("puzzle %d: hints place %d digits, want %d", p.ID, placed, want)
			}
		}
	}
	if !named {
		t.Error("no sentence names the cells of its pattern")
	}
}

// An app of one grid size gets the day's puzzle of its size from a bank
// of several: size narrows the pick, and the same request gives the same
// puzzle.
func TestDailySize(t *testing.T) {
	fams := banktest.MustSizedBuilt(t, 6, []grade.Level{grade.ExtremelyEasy}, 2)
	ts := MustServer(t, MustBank(t, append(MustFixture(t), fams...)), server.Options{})
	for _, tt := range []struct {
		query string
		size  int
	}{{"size=6", 6}, {"size=6x6", 6}, {"size=9", 9}, {"level=extremely-easy&size=6", 6}, {"level=evil&size=9", 9}} {
		for day := 1; day <= 10; day++ {
			url := fmt.Sprintf("%s/api/v1/daily/2026-12-%02d?%s", ts.URL, day, tt.query)
			var a, b struct {
				Puzzle struct {
					ID   int64 `json:"id"`
					Size int   `json:"size"`
				} `json:"puzzle"`
			}
			MustGet(t, url, &a)
			MustGet(t, url, &b)
			if a.Puzzle.Size != tt.size || a != b {
				t.Errorf("%s: puzzle %+v, then %+v; want the same puzzle, of size %d", url, a.Puzzle, b.Puzzle, tt.size)
			}
		}
	}
}

// An sdm export (9x9 only) of a selection that holds another size is a
// 400 naming the puzzle and the way out, never a 200 with an empty file;
// with size=9 it writes the 9x9 puzzles.
func TestExportNineOnlyMixedSizes(t *testing.T) {
	fams := banktest.MustSizedBuilt(t, 6, []grade.Level{grade.ExtremelyEasy}, 2)
	ts := MustServer(t, MustBank(t, append(MustFixture(t)[:3], fams...)), server.Options{})
	var six, nine page
	MustGet(t, ts.URL+"/api/v1/puzzles?size=6", &six)
	MustGet(t, ts.URL+"/api/v1/puzzles?size=9", &nine)
	if len(six.Puzzles) == 0 || len(nine.Puzzles) == 0 {
		t.Fatalf("%d 6x6 and %d 9x9 puzzles, want some of each", len(six.Puzzles), len(nine.Puzzles))
	}
	picked := fmt.Sprintf("format=sdm&ids=%d,%d", nine.Puzzles[0].ID, six.Puzzles[0].ID)
	for _, q := range []string{"format=sdm", "format=sdm&count=1000", picked} {
		r := MustDo(t, http.MethodGet, ts.URL+"/api/v1/export?"+q, nil, nil)
		if r.status != http.StatusBadRequest || !hasError(r.body, "6x6") || !hasError(r.body, "size=9") {
			t.Errorf("%s: %d %q; want 400 naming the 6x6 puzzle and size=9", q, r.status, r.body)
		}
		if ct, cd := r.header.Get("Content-Type"), r.header.Get("Content-Disposition"); ct != "application/json" || cd != "" {
			t.Errorf("%s: Content-Type %q, Content-Disposition %q; want a JSON error, no attachment", q, ct, cd)
		}
	}
	r := MustGet(t, ts.URL+"/api/v1/export?format=sdm&size=9", nil)
	if lines := strings.Count(string(r.body), "\n"); lines != len(nine.Puzzles) {
		t.Errorf("sdm of size 9: %d lines, want the %d 9x9 puzzles:\n%s", lines, len(nine.Puzzles), r.body)
	}
}

// An app of one grid size reads the counts of its size alone with
// size=N: the levels and buckets hold no puzzle of another size. Without
// size the top-level counts are every size's, and "sizes" has each.
func TestStatsSize(t *testing.T) {
	nine := MustFixture(t)
	six := banktest.MustSizedBuilt(t, 6, []grade.Level{grade.Evil, grade.ExtremelyEasy}, 2)
	ts := MustServer(t, MustBank(t, append(nine, six...)), server.Options{})
	type counts struct {
		Size     int   `json:"size"`
		Families int64 `json:"families"`
		Puzzles  int64 `json:"puzzles"`
		Levels   []struct {
			Level    int   `json:"level"`
			Families int64 `json:"families"`
			Puzzles  int64 `json:"puzzles"`
		} `json:"levels"`
		Buckets []struct {
			Level, Givens int
			Families      int64
		} `json:"buckets"`
		Sizes []counts `json:"sizes"`
	}
	// want returns the families of fams at each level, and in all.
	want := func(fams []store.NewFamily) (levels [5]int64, all int64) {
		for _, f := range fams {
			levels[f.Level-1]++
		}
		return levels, int64(len(fams))
	}
	check := func(name string, c counts, fams []store.NewFamily) {
		t.Helper()
		levels, all := want(fams)
		if c.Families != all || len(c.Levels) != 5 {
			t.Fatalf("%s: %d families in %d levels, want %d in 5", name, c.Families, len(c.Levels), all)
		}
		for i, l := range c.Levels {
			if l.Level != i+1 || l.Families != levels[i] {
				t.Errorf("%s: level %d has %d families, want %d", name, l.Level, l.Families, levels[i])
			}
		}
		var inBuckets int64
		for _, b := range c.Buckets {
			inBuckets += b.Families
		}
		if inBuckets != all {
			t.Errorf("%s: buckets hold %d families, want %d", name, inBuckets, all)
		}
	}
	var all, s9, s6, s16 counts
	MustGet(t, ts.URL+"/api/v1/stats", &all)
	check("every size", all, append(nine, six...))
	if len(all.Sizes) != 2 || all.Sizes[0].Size != 6 || all.Sizes[1].Size != 9 {
		t.Fatalf("sizes %+v, want 6 then 9", all.Sizes)
	}
	check("sizes[6]", all.Sizes[0], six)
	MustGet(t, ts.URL+"/api/v1/stats?size=9", &s9)
	check("size=9", s9, nine)
	MustGet(t, ts.URL+"/api/v1/stats?size=6x6", &s6)
	check("size=6x6", s6, six)
	if s9.Size != 9 || s6.Size != 6 || len(s9.Sizes) != 0 {
		t.Errorf("size=9 says size %d with sizes %v, size=6x6 size %d; want 9 without sizes, 6", s9.Size, s9.Sizes, s6.Size)
	}
	// A size the bank lacks has every level, each empty.
	MustGet(t, ts.URL+"/api/v1/stats?size=16", &s16)
	check("size=16", s16, nil)
	for _, q := range []string{"size=7", "size=9&size=6", "level=1"} {
		if r := MustDo(t, http.MethodGet, ts.URL+"/api/v1/stats?"+q, nil, nil); r.status != http.StatusBadRequest {
			t.Errorf("stats?%s: status %d, want 400: %s", q, r.status, r.body)
		}
	}
}
