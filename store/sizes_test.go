package store_test

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	sg "sudokubank/grid"
	"sudokubank/store"
)

// testSizes are the sizes the tests write besides 9x9: both packings
// (two cells a byte below 16, one a byte from 16 on).
var testSizes = []int{4, 6, 12, 16}

// patternSolution returns a complete grid of shape sh: cell (r, c) holds
// (BoxCols*(r%BoxRows) + r/BoxRows + c) % N + 1. The store never solves,
// so a valid grid is all it needs.
func patternSolution(sh sg.Shape) sg.Grid {
	g := sg.New(sh)
	for r := range sh.N {
		for c := range sh.N {
			g.Cells[sh.Cell(r, c)] = uint8((sh.BoxCols*(r%sh.BoxRows)+r/sh.BoxRows+c)%sh.N + 1)
		}
	}
	return g
}

// sizedFamily returns family k of size n: the pattern solution with a
// cell of most rows blanked at random from (n, k), as its canonical form
// (with one empty cell a row at most it has one solution, which the 9x9
// check asks), and the variants it names: the form itself (the identity)
// and transforms of it.
func sizedFamily(tb testing.TB, n, k, variants int) store.NewFamily {
	tb.Helper()
	sh, err := sg.ShapeOf(n)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(n), uint64(k)))
	sol := patternSolution(sh)
	if err := sol.Check(); err != nil {
		tb.Fatalf("pattern %s: %v", sh, err)
	}
	p := sol.Clone()
	for r := range sh.N {
		if c := rng.IntN(sh.N + 3); c < sh.N {
			p.Cells[sh.Cell(r, c)] = 0
		}
	}
	f := store.NewFamily{Family: store.Family{
		Canon: p.String(), Size: n, ER: 10 + 10*(1+k%5), EP: 12, ED: 11, Level: 1 + k%5,
		Score: float64(k), Givens: p.Givens(), MinRowCol: 0, Hardest: "naked-single",
		Techniques: map[string]int{"naked-single": 3}, Symmetry: "none", Source: "gen", Seed: uint64(k),
	}}
	for j := range variants {
		t := sg.Identity(sh)
		if j > 0 {
			t = sg.RandomTransform(sh, rng)
		}
		f.Puzzles = append(f.Puzzles, store.Puzzle{Puzzle: t.Apply(p).String(), Solution: t.Apply(sol).String(), Transform: t.String()})
	}
	return f
}

// sizedBank writes fams families of 3 variants of each of testSizes and
// of 9x9 into a fresh bank, and returns the families written by size.
func sizedBank(t *testing.T, fams int) (*store.DB, map[int][]store.NewFamily) {
	t.Helper()
	db, _ := MustOpenTemp(t)
	written := map[int][]store.NewFamily{}
	var batch []store.NewFamily
	for _, n := range append(slices.Clone(testSizes), 9) {
		for k := range fams {
			f := sizedFamily(t, n, k, 3)
			written[n] = append(written[n], f)
			batch = append(batch, f)
		}
	}
	res := MustWrite(t, db, batch)
	if want := 5 * fams; res.Families != want || res.Puzzles != 3*want {
		t.Fatalf("write = %+v, want %d families and %d puzzles", res, want, 3*want)
	}
	return db, written
}

type sizedRow struct{ puzzle, solution, transform string }

func TestSizesRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, written := sizedBank(t, 4)
	for n, fams := range written {
		want := map[sizedRow]bool{}
		for _, f := range fams {
			for _, p := range f.Puzzles {
				want[sizedRow{p.Puzzle, p.Solution, p.Transform}] = true
			}
		}
		got := map[sizedRow]bool{}
		err := db.Query(ctx, store.Filter{Size: n}, store.QueryOptions{}, func(r store.Row) error {
			if r.Size != n || len(r.Puzzle) != n*n || len(r.Solution) != n*n {
				t.Errorf("size %d: row %d of size %d with %d and %d characters", n, r.ID, r.Size, len(r.Puzzle), len(r.Solution))
			}
			got[sizedRow{r.Puzzle, r.Solution, r.Transform}] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("size %d: read %d rows %v, wrote %d %v", n, len(got), got, len(want), want)
		}
		for _, f := range fams {
			stored, err := db.FamilyByCanon(ctx, f.Canon)
			if err != nil {
				t.Fatal(err)
			}
			if stored.Size != n || stored.Canon != f.Canon || stored.Givens != f.Givens {
				t.Errorf("family %s read as size %d, form %s, %d givens", f.Canon, stored.Size, stored.Canon, stored.Givens)
			}
			r, err := db.PuzzleByString(ctx, f.Puzzles[2].Puzzle)
			if err != nil || r.Size != n || r.Solution != f.Puzzles[2].Solution || r.FamilyID != stored.ID {
				t.Errorf("PuzzleByString(%s) = size %d, family %d, %v", f.Puzzles[2].Puzzle, r.Size, r.FamilyID, err)
			}
			first, err := db.FirstPuzzleOf(ctx, stored)
			if err != nil || first.Size != n || first.FamilyID != stored.ID || !want[sizedRow{first.Puzzle, first.Solution, first.Transform}] {
				t.Errorf("FirstPuzzleOf(%d) = %s (size %d, family %d), %v; want one of the family's", stored.ID, first.Puzzle, first.Size, first.FamilyID, err)
			}
		}
	}
	// Every family again, and each of its variants: nothing new.
	var again []store.NewFamily
	for _, fams := range written {
		again = append(again, fams...)
	}
	if res := MustWrite(t, db, again); res.Families != 0 || res.DupFamilies != len(again) || res.Puzzles != 0 || res.DupPuzzles != 3*len(again) {
		t.Errorf("the same families again: %+v, want every family and puzzle a duplicate", res)
	}
	if r, err := db.Check(ctx, false); err != nil || !r.OK() {
		t.Errorf("check of a bank of %v sizes: %v, %v", testSizes, r.Problems, err)
	}
	// CheckSized asks a solver about each puzzle of another size: every
	// one of them, and a count other than one is a problem.
	counted := map[int]int{}
	r, err := db.CheckSized(ctx, false, func(p sg.Grid, limit int) int { counted[p.Shape.N]++; return 1 })
	if err != nil || !r.OK() {
		t.Errorf("CheckSized: %v, %v", r.Problems, err)
	}
	if want := map[int]int{4: 12, 6: 12, 12: 12, 16: 12}; !maps.Equal(counted, want) {
		t.Errorf("CheckSized counted %v, want %v", counted, want)
	}
	r, err = db.CheckSized(ctx, false, func(sg.Grid, int) int { return 2 })
	if err != nil || len(r.Problems) != 4*12 || !strings.Contains(r.Problems[0], "has 2 solutions") {
		t.Errorf("CheckSized with two solutions each: %d problems %v, %v; want one a puzzle of another size", len(r.Problems), r.Problems, err)
	}
}

func TestSizesFilter(t *testing.T) {
	ctx := context.Background()
	db, written := sizedBank(t, 10)
	all, err := db.Count(ctx, store.Filter{})
	if err != nil || all != 5*10*3 {
		t.Fatalf("count of every size = %d, %v; want %d", all, err, 5*10*3)
	}
	for _, n := range append(slices.Clone(testSizes), 9) {
		only := func(what string, rows []store.Row, want int) {
			t.Helper()
			if len(rows) != want {
				t.Errorf("size %d, %s: %d rows, want %d", n, what, len(rows), want)
			}
			for _, r := range rows {
				if r.Size != n {
					t.Errorf("size %d, %s: row %d of size %d", n, what, r.ID, r.Size)
				}
			}
		}
		collect := func(f store.Filter, o store.QueryOptions) []store.Row {
			t.Helper()
			var rows []store.Row
			if err := db.Query(ctx, f, o, func(r store.Row) error { rows = append(rows, r); return nil }); err != nil {
				t.Fatalf("size %d: query %+v %+v: %v", n, f, o, err)
			}
			return rows
		}
		f := store.Filter{Size: n}
		only("list", collect(f, store.QueryOptions{}), 30)
		only("by rating", collect(f, store.QueryOptions{Order: store.OrderRating}), 30)
		only("random", collect(f, store.QueryOptions{Order: store.OrderRandom, Seed: 7, Limit: 12}), 12)
		only("random, one a family", collect(f, store.QueryOptions{Order: store.OrderRandom, Seed: 7, Limit: 100, OnePerFamily: true}), 10)
		// One bucket: the level and givens of the first family.
		fm := written[n][0].Family
		bucket := store.Filter{Size: n, Levels: []int{fm.Level}, GivensMin: fm.Givens, GivensMax: fm.Givens}
		rows := collect(bucket, store.QueryOptions{})
		if len(rows) < 3 {
			t.Errorf("size %d: bucket (level %d, %d givens) has %d rows, want the family's 3 at least", n, fm.Level, fm.Givens, len(rows))
		}
		only("bucket", rows, len(rows))
		levels := store.Filter{Size: n, Levels: []int{1, 2}, GivensMin: 1}
		only("levels and givens", collect(levels, store.QueryOptions{}), 12)
		only("technique", collect(store.Filter{Size: n, Technique: "naked-single", Levels: []int{3}}, store.QueryOptions{}), 6)
		if c, err := db.Count(ctx, f); err != nil || c != 30 {
			t.Errorf("size %d: count %d, %v; want 30", n, c, err)
		}
		if c, err := db.CountFamilies(ctx, store.Filter{Size: n, Minimal: false, RatingMin: 1}); err != nil || c != 10 {
			t.Errorf("size %d: families %d, %v; want 10", n, c, err)
		}
		if c, err := db.Count(ctx, levels); err != nil || c != 12 {
			t.Errorf("size %d: count of levels 1-2 %d, %v; want 12", n, c, err)
		}
		if fams, puzzles, err := db.SizeTechniqueTotals(ctx, "naked-single", nil, n); err != nil || fams != 10 || puzzles != 30 {
			t.Errorf("size %d: technique totals %d/%d, %v; want 10/30", n, fams, puzzles, err)
		}
		pack, items, err := db.CreatePack(ctx, store.PackSpec{Name: "pack" + sg.Shape{N: n}.String()}, f, store.QueryOptions{Order: store.OrderRandom, Seed: 3}, 5)
		if err != nil {
			t.Fatalf("size %d: pack: %v", n, err)
		}
		only("pack", items, 5)
		reread, err := db.PackRows(ctx, pack.ID)
		if err != nil {
			t.Fatal(err)
		}
		only("pack read again", reread, 5)
		for i := range reread {
			if reread[i].Puzzle != items[i].Puzzle || reread[i].Solution != items[i].Solution {
				t.Errorf("size %d: pack item %d read again as %s, was %s", n, i, reread[i].Puzzle, items[i].Puzzle)
			}
		}
		var canons []string
		if err := db.EachCanon(ctx, n, func(c string) error { canons = append(canons, c); return nil }); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range written[n] {
			want = append(want, f.Canon)
		}
		if !slices.Equal(canons, want) {
			t.Errorf("EachCanon(%d) = %v, want %v", n, canons, want)
		}
	}
	if _, err := db.Count(ctx, store.Filter{Size: 7}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("count of size 7: %v, want ErrInvalid", err)
	}
	if err := db.Query(ctx, store.Filter{Size: 10}, store.QueryOptions{}, func(store.Row) error { return nil }); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("query of size 10: %v, want ErrInvalid", err)
	}
}

func TestSizesStats(t *testing.T) {
	ctx := context.Background()
	db, _ := sizedBank(t, 3)
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.Sizes(), []int{4, 6, 9, 12, 16}; !slices.Equal(got, want) {
		t.Errorf("sizes %v, want %v", got, want)
	}
	if st.Families != 15 || st.Puzzles != 45 {
		t.Errorf("totals %d/%d, want 15/45", st.Families, st.Puzzles)
	}
	for _, n := range st.Sizes() {
		s := st.OfSize(n)
		if s.Families != 3 || s.Puzzles != 9 || s.Sizes()[0] != n || len(s.Sizes()) != 1 {
			t.Errorf("size %d: %d/%d in %v, want 3/9", n, s.Families, s.Puzzles, s.Sizes())
		}
		var techs int64
		for _, c := range s.Techniques {
			techs += c.Families
		}
		if techs != 3 {
			t.Errorf("size %d: technique counts %+v, want 3 families of naked-single", n, s.Techniques)
		}
		counts, err := db.SizeLevelCounts(ctx, n)
		if err != nil || counts[1]+counts[2]+counts[3] != 3 {
			t.Errorf("size %d: level counts %v, %v", n, counts, err)
		}
	}
	all, err := db.LevelCounts(ctx)
	if err != nil || all[1] != 5 || all[2] != 5 || all[3] != 5 {
		t.Errorf("level counts of every size %v, %v; want 5 of levels 1-3", all, err)
	}
}

// The caps of a quota run count the families of their own size.
func TestSizesCaps(t *testing.T) {
	ctx := context.Background()
	db, _ := MustOpenTemp(t)
	caps := store.NoCaps()
	caps[1] = 1
	nine := sizedFamily(t, 9, 0, 1)
	if res, err := db.WriteBatchCapped(ctx, []store.NewFamily{nine}, caps); err != nil || res.Families != 1 {
		t.Fatalf("9x9 family under a cap of 1: %+v, %v", res, err)
	}
	a, b := sizedFamily(t, 16, 0, 1), sizedFamily(t, 16, 5, 1) // both level 1
	res, err := db.WriteBatchCapped(ctx, []store.NewFamily{a, b}, caps)
	if err != nil || res.Families != 1 || res.OverCap != 1 {
		t.Errorf("two 16x16 families of level 1 under a cap of 1: %+v, %v; want one written, one over the cap", res, err)
	}
}

func TestSizesInvalid(t *testing.T) {
	good := func() store.NewFamily { return sizedFamily(t, 12, 1, 2) }
	lower := good()
	lower.Puzzles[0].Puzzle = strings.Replace(lower.Puzzles[0].Puzzle, "A", "a", 1)
	past := good()
	past.Puzzles[1].Solution = strings.Replace(past.Puzzles[1].Solution, "C", "G", 1) // 16 in a 12x12 grid
	canonLower := good()
	canonLower.Canon = strings.Replace(canonLower.Canon, "B", "b", 1)
	for _, tt := range []struct {
		name string
		f    func() store.NewFamily
	}{
		{"SizeOfNoShape", func() store.NewFamily { f := good(); f.Size = 10; return f }},
		{"SizeNotTheForm's", func() store.NewFamily { f := good(); f.Size = 16; return f }},
		{"ZeroIsNine", func() store.NewFamily { f := good(); f.Size = 0; return f }},
		{"NineOfAnotherForm", func() store.NewFamily { f := sizedFamily(t, 9, 1, 1); f.Size = 12; return f }},
		{"GivensPastCells", func() store.NewFamily { f := sizedFamily(t, 4, 1, 1); f.Givens = 17; return f }},
		{"LowerCaseValue", func() store.NewFamily { return lower }},
		{"LowerCaseForm", func() store.NewFamily { return canonLower }},
		{"ValuePastN", func() store.NewFamily { return past }},
		{"PuzzleOfAnotherSize", func() store.NewFamily { f := good(); f.Puzzles[0].Puzzle = sizedFamily(t, 16, 1, 1).Canon; return f }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := MustOpenTemp(t)
			f := tt.f()
			if err := store.Prepare(&f); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("Prepare: %v, want ErrInvalid", err)
			}
			if _, err := db.WriteBatch(context.Background(), []store.NewFamily{f}); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("WriteBatch: %v, want ErrInvalid", err)
			}
		})
	}
	// A family prepared for one size and then given another is checked
	// and packed again, never stored from the stale preparation.
	db, _ := MustOpenTemp(t)
	f := good()
	if err := store.Prepare(&f); err != nil {
		t.Fatal(err)
	}
	f.Size = 9
	if _, err := db.WriteBatch(context.Background(), []store.NewFamily{f}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("WriteBatch of a 12x12 family prepared, then called 9x9: %v, want ErrInvalid", err)
	}
}
