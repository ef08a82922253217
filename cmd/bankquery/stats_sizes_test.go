package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokubank/grid"
	"sudokubank/store"
)

// sizedFamilies returns count families of size n: the grid whose cell (r,
// c) holds (BoxCols*(r%BoxRows) + r/BoxRows + c) % N + 1, with cell k of
// row 0 and of row 1 empty in family k, one variant each, at the levels
// 1, 2, 3... in turn.
func sizedFamilies(tb testing.TB, n, count int) []store.NewFamily {
	tb.Helper()
	sh, err := grid.ShapeOf(n)
	if err != nil {
		tb.Fatal(err)
	}
	sol := grid.New(sh)
	for r := range n {
		for c := range n {
			sol.Cells[sh.Cell(r, c)] = uint8((sh.BoxCols*(r%sh.BoxRows)+r/sh.BoxRows+c)%n + 1)
		}
	}
	var out []store.NewFamily
	for k := range count {
		p := sol.Clone()
		p.Cells[sh.Cell(0, k)], p.Cells[sh.Cell(1, k)] = 0, 0
		out = append(out, store.NewFamily{
			Family: store.Family{Canon: p.String(), Size: n, ER: 15, EP: 12, ED: 11, Level: 1 + k%3,
				Givens: p.Givens(), Path: ",full-house,a", Hardest: "full-house", Source: "gen"},
			Puzzles: []store.Puzzle{{Puzzle: p.String(), Solution: sol.String(), Transform: grid.Identity(sh).String()}},
		})
	}
	return out
}

// TestStatsSizes: a bank of 9x9, 4x4 and 16x16 families prints its totals
// and a section per size; -size N prints one size's counts as a bank of
// that size alone would, and -size 9 what the 9x9 bank alone prints.
func TestStatsSizes(t *testing.T) {
	fixture := MustReadFixture(t)
	mixed := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, mixed, append(append(sizedFamilies(t, 4, 3), fixture...), sizedFamilies(t, 16, 4)...))
	nine := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, nine, fixture)

	golden(t, "statssizes.golden", []byte(stable(mustRun(t, "stats", "-db", mixed), filepath.Dir(mixed))))
	golden(t, "statssize16.golden", []byte(stable(mustRun(t, "stats", "-db", mixed, "-size", "16"), filepath.Dir(mixed))))
	if got, want := stable(mustRun(t, "stats", "-db", mixed, "-size", "9x9"), filepath.Dir(mixed)),
		stable(mustRun(t, "stats", "-db", nine), filepath.Dir(nine)); got != want {
		t.Errorf("stats -size 9 of the mixed bank:\n%s\nwant the 9x9 bank's:\n%s", got, want)
	}

	var s struct {
		Families int64 `json:"families"`
		Sizes    []struct {
			Size     int   `json:"size"`
			Families int64 `json:"families"`
			Puzzles  int64 `json:"puzzles"`
			Levels   []struct {
				Families int64 `json:"families"`
			} `json:"levels"`
		} `json:"sizes"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "stats", "-db", mixed, "-json")), &s); err != nil {
		t.Fatal(err)
	}
	if s.Families != int64(len(fixture)+7) || len(s.Sizes) != 3 || s.Sizes[0].Size != 4 || s.Sizes[0].Families != 3 ||
		s.Sizes[1].Size != 9 || s.Sizes[1].Families != int64(len(fixture)) || s.Sizes[2].Size != 16 || s.Sizes[2].Puzzles != 4 ||
		s.Sizes[2].Levels[0].Families != 2 {
		t.Errorf("stats -json of the mixed bank: %+v", s)
	}
	if out := mustRun(t, "stats", "-db", nine, "-json"); strings.Contains(out, `"sizes"`) {
		t.Errorf("stats -json of a 9x9 bank has sizes:\n%s", out)
	}
	if r := run(t, "stats", "-db", mixed, "-size", "7"); r.err == nil || r.code != 2 || !strings.Contains(r.stderr+r.err.Error(), "-size") {
		t.Errorf("stats -size 7: code %d, %v, %s; want a usage error", r.code, r.err, r.stderr)
	}
}

// TestListMixedSizes: list's default sdm holds 9x9 puzzles only, so on a
// bank that holds other sizes too it refuses before printing anything
// when some of those match, rather than stop halfway with an error; it
// lists where none match, with -size 9, or in a format for every size.
func TestListMixedSizes(t *testing.T) {
	fixture := MustReadFixture(t)
	mixed := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, mixed, append(append(sizedFamilies(t, 4, 3), fixture...), sizedFamilies(t, 16, 4)...))

	r := run(t, "list", "-db", mixed, "-limit", "0")
	if want := "-format sdm holds 9x9 puzzles only, and 3 4x4 puzzles match too: add -size 9"; r.code != 2 || r.stdout != "" || r.err == nil || !strings.Contains(r.err.Error(), want) {
		t.Errorf("list of a mixed bank: code %d, error %v, %d bytes out; want 2, %q and nothing printed", r.code, r.err, len(r.stdout), want)
	}
	puzzles := 0
	for _, f := range fixture {
		puzzles += len(f.Puzzles)
	}
	nine := mustRun(t, "list", "-db", mixed, "-limit", "0", "-size", "9")
	if got := strings.Count(nine, "\n"); got != puzzles {
		t.Errorf("list -size 9 printed %d lines, want %d", got, puzzles)
	}
	if got := strings.Count(mustRun(t, "list", "-db", mixed, "-limit", "0", "-format", "lines"), "\n"); got != puzzles+7 {
		t.Errorf("list -format lines printed %d lines, want %d", got, puzzles+7)
	}
	// The sized families are of levels 1 to 3 only.
	if got, want := mustRun(t, "list", "-db", mixed, "-limit", "0", "-level", "evil"), mustRun(t, "list", "-db", mixed, "-limit", "0", "-level", "evil", "-size", "9"); got != want || got == "" {
		t.Errorf("list -level evil of the mixed bank:\n%s\nwant its 9x9 evil puzzles:\n%s", got, want)
	}
}

// TestExportMixedSizesSDM: an sdm export without -size from a bank of
// several sizes that draws a puzzle of another size fails, naming the
// flag that keeps to 9x9 puzzles; with -size 9 it is written.
func TestExportMixedSizesSDM(t *testing.T) {
	fixture := MustReadFixture(t)
	mixed := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, mixed, append(append(sizedFamilies(t, 4, 3), fixture...), sizedFamilies(t, 16, 4)...))
	out := filepath.Join(t.TempDir(), "all.sdm")
	all := strconv.Itoa(len(fixture) + 7) // every family: the sizes' ones too
	// Refused whatever the sample would draw: by every count and seed,
	// before a pack is recorded or a file written.
	for _, rec := range [][]string{{"-no-record"}, {"-pack", "all"}, {"-pack", "one", "-client", "acme"}} {
		for _, count := range []string{all, "1"} {
			for _, seed := range []string{"1", "2", "3"} {
				r := run(t, append([]string{"export", "-db", mixed, "-count", count, "-seed", seed, "-format", "sdm", "-out", out}, rec...)...)
				if want := "-format sdm holds 9x9 puzzles only, and 3 4x4 puzzles match too: add -size 9, or take every size with -format csv, json or pdf"; r.code != 2 || r.err == nil || !strings.Contains(r.err.Error(), want) {
					t.Errorf("export -count %s -seed %s %v: code %d, error %v; want 2 and %q", count, seed, rec, r.code, r.err, want)
				}
			}
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused export left %s (%v)", out, err)
	}
	if packs := mustRun(t, "packs", "-db", mixed); strings.Contains(packs, "all") || strings.Contains(packs, "one") {
		t.Errorf("a refused export recorded a pack:\n%s", packs)
	}
	mustRun(t, "export", "-db", mixed, "-count", strconv.Itoa(len(fixture)), "-size", "9", "-format", "sdm", "-out", out, "-no-record")
}

// TestPacksShowSized: packs show prints a 16x16 pack's puzzles as their
// 256 cells, as its -h says.
func TestPacksShowSized(t *testing.T) {
	mixed := filepath.Join(t.TempDir(), "puzzles.db")
	MustWriteBank(t, mixed, append(MustReadFixture(t), sizedFamilies(t, 16, 4)...))
	mustRun(t, "export", "-db", mixed, "-size", "16", "-count", "2", "-format", "csv", "-out", filepath.Join(t.TempDir(), "g.csv"), "-pack", "giant")
	out := mustRun(t, "packs", "show", "giant", "-db", mixed)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if f := strings.Fields(lines[len(lines)-1]); len(f[len(f)-1]) != 256 {
		t.Errorf("packs show of a 16x16 pack: last line %q, want its 256 cells last", lines[len(lines)-1])
	}
	if st := mustRun(t, "stats", "-db", mixed); !strings.Contains(st, "1 pack holding 2 puzzles; 0 families reserved to 0 clients") {
		t.Errorf("stats of a bank of one pack:\n%s", st)
	}
	if help := run(t, "packs", "show", "-h").stdout; !strings.Contains(help, "N*N characters") {
		t.Errorf("packs show -h does not say a puzzle is N*N characters:\n%s", help)
	}
}

// A bank of one family and one puzzle is counted in the singular, as the
// other summaries count.
func TestStatsOneFamily(t *testing.T) {
	f := MustReadFixture(t)[0]
	f.Puzzles = f.Puzzles[:1]
	db := filepath.Join(t.TempDir(), "one.db")
	MustWriteBank(t, db, []store.NewFamily{f})
	if out := mustRun(t, "stats", "-db", db); !strings.Contains(out, "\n1 family, 1 puzzle (1.0 puzzles a family)\n") {
		t.Errorf("stats said %q, want 1 family, 1 puzzle", out)
	}
}
