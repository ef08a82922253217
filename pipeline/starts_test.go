package pipeline_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/solve"
	"sudokubank/store"
)

// hardPuzzles are dug puzzles rated 8.5 to 9.0 by skfr
// (../shared/data/rated/dev_se.txt, source gen): start points above a
// target of 8.5 that fresh digs reach in about one dig of a hundred.
var hardPuzzles = []string{
	".8.2....73....6...4...5.8.........2.....6.1...5...9.73....4......6.95..214...89..",
	"2....4....1..2.98....1.....89...5..7.....7...1..28.4...7...1.3....74.8.96...3..5.",
	"..2..467..6.1..9...87.......2..3...1..........518.....5..6.87.........9..16.5..2.",
}

// symPuzzles are puzzles with rot180 givens that the grader rates 7.6,
// 8.3, 9.0 and 8.5 (../shared/data/rated/dev_se.txt, sources qq and mt):
// the start points of a symmetric search.
var symPuzzles = []string{
	"6...8..4..4.3..1...371.48..8..94.................12..4..47.368...9..8.2..8..9...7",
	"25..........1.2.....15.84......9328.3..8.6..9.9427......53.41.....9.5..........52",
	"34..5..7...2....65.....93....17......9.8.5.3......26....85.....16....5...5..7..12",
	"39.6.......6.......4..8.52......5....2..1..9....4......18.6..4.......9.......7.32",
}

// MustBank returns a writable bank in a temporary directory holding the
// families of puzzles, imported as given.
func MustBank(tb testing.TB, puzzles []string) *store.DB {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "b.db"), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	imp := pipeline.NewImporter("test", nil)
	var batch []store.NewFamily
	for _, p := range puzzles {
		r := imp.Import(ctx, pipeline.Line{No: 1, Text: p})
		if r.Reason != pipeline.Kept {
			tb.Fatalf("import %s: %v %v", p, r.Reason, r.Err)
		}
		batch = append(batch, r.Value)
	}
	if _, err := db.WriteBatch(ctx, batch); err != nil {
		tb.Fatal(err)
	}
	return db
}

// MustStarts returns the start points a run with options o loads from db.
func MustStarts(tb testing.TB, db *store.DB, o pipeline.BuildOptions) []pipeline.Start {
	tb.Helper()
	starts, err := pipeline.LoadStarts(context.Background(), db, &o)
	if err != nil {
		tb.Fatal(err)
	}
	return starts
}

func TestLoadStarts(t *testing.T) {
	db := MustBank(t, slices.Concat([]string{
		// Rated below 7.5: too far under a target of 8.5 to start from.
		"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
	}, hardPuzzles, symPuzzles))
	tests := []struct {
		name    string
		o       pipeline.BuildOptions
		wantERs []grade.Rating
		wantSym gen.Symmetry // of every start
	}{
		{"Floor", pipeline.BuildOptions{RatingMin: 85}, []grade.Rating{91, 90, 89, 85, 85, 83, 76}, gen.NoSymmetry},
		{"Band", pipeline.BuildOptions{RatingMin: 85, RatingMax: 89}, []grade.Rating{89, 85, 85, 83, 76}, gen.NoSymmetry},
		{"Above", pipeline.BuildOptions{RatingMin: 110}, nil, gen.NoSymmetry},
		{"NoSearch", pipeline.BuildOptions{RatingMin: 85, NoSearch: true}, nil, gen.NoSymmetry},
		// Of the families rated 7.5 or more, two use an x-wing, four an
		// xyz-wing.
		{"Uses", pipeline.BuildOptions{RatingMin: 85, Uses: []grade.Technique{grade.XWing}}, []grade.Rating{91, 89}, gen.NoSymmetry},
		{"UsesAny", pipeline.BuildOptions{RatingMin: 85, Uses: []grade.Technique{grade.XWing, grade.XYZWing}}, []grade.Rating{91, 90, 89, 85, 83, 76}, gen.NoSymmetry},
		{"Rot180", pipeline.BuildOptions{RatingMin: 85, Symmetry: gen.Rot180}, []grade.Rating{90, 85, 83, 76}, gen.Rot180},
		{"Rot180Uses", pipeline.BuildOptions{RatingMin: 80, Symmetry: gen.Rot180, Uses: []grade.Technique{grade.XYWing}}, []grade.Rating{90, 83}, gen.Rot180},
		{"RandomSymmetry", pipeline.BuildOptions{RatingMin: 85, RandomSymmetry: true}, []grade.Rating{90, 85, 83, 76}, gen.Rot180},
		{"Mirror", pipeline.BuildOptions{RatingMin: 85, Symmetry: gen.Mirror}, nil, gen.Mirror},
		// The bank holds no 4x4 families.
		{"Size", pipeline.BuildOptions{RatingMin: 85, Shape: grid.Shape{N: 4, BoxRows: 2, BoxCols: 2}}, nil, gen.NoSymmetry},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			starts := MustStarts(t, db, tt.o)
			var ers []grade.Rating
			for _, s := range starts {
				ers = append(ers, s.ER)
				if sol, ok := solve.Solve(s.Puzzle.Grid); !ok || sol != s.Puzzle.Solution {
					t.Errorf("start %s: solution %s, want %s", s.Puzzle.Grid, s.Puzzle.Solution, sol)
				}
				if s.Puzzle.Symmetry != tt.wantSym || !tt.wantSym.Holds(s.Puzzle.Grid) {
					t.Errorf("start %s: symmetry %s, holds %s: %v; want %s", s.Puzzle.Grid, s.Puzzle.Symmetry, tt.wantSym, tt.wantSym.Holds(s.Puzzle.Grid), tt.wantSym)
				}
			}
			if len(ers) != len(tt.wantERs) {
				t.Fatalf("start ERs %v, want %v", ers, tt.wantERs)
			}
			for i := range ers {
				if ers[i] != tt.wantERs[i] {
					t.Fatalf("start ERs %v, want %v", ers, tt.wantERs)
				}
			}
		})
	}
}

// TestSearchFromStarts checks that a searching run walks from the bank's
// hardest families: with them it finds families of a target its fresh
// digs miss in the same items, and each meets the target when graded
// afresh and is none of the start points.
func TestSearchFromStarts(t *testing.T) {
	db := MustBank(t, hardPuzzles)
	o := pipeline.BuildOptions{RatingMin: 85, SearchStall: 32, SearchFamilies: 2}
	o.Starts = MustStarts(t, db, o)
	if len(o.Starts) != len(hardPuzzles) {
		t.Fatalf("%d start points, want %d", len(o.Starts), len(hardPuzzles))
	}
	starts := map[uint64]bool{}
	for _, s := range o.Starts {
		starts[pipeline.Hash(s.Puzzle.Grid)] = true
	}
	fresh := o
	fresh.Starts = nil
	const items = 4
	count := func(o pipeline.BuildOptions) int {
		b := pipeline.NewBuilder(o)
		var g grade.Grader
		n := 0
		for i := range uint64(items) {
			r := b.Build(context.Background(), pipeline.Item{Seed: 3, Index: i})
			if r.Reason == pipeline.Failed {
				t.Fatal(r.Err)
			}
			for _, f := range families(r) {
				n++
				canon := solve.GridOf(f.Value.Canon)
				if starts[f.Hash] {
					t.Errorf("item %d: kept the start point %s", i, canon)
				}
				gr, err := g.Grade(canon)
				if err != nil {
					t.Fatal(err)
				}
				if !o.Meets(&gr) || int(gr.ER) != f.Value.ER {
					t.Errorf("item %d: kept %s rated %s (stored %d): misses the target", i, canon, gr.ER, f.Value.ER)
				}
			}
		}
		return n
	}
	got, gotFresh := count(o), count(fresh)
	if got == 0 || gotFresh >= got {
		t.Errorf("%d families from %d items walking from the bank's, %d from fresh digs alone; want more from the bank's", got, items, gotFresh)
	}
	t.Logf("%d families from the bank's, %d from fresh digs", got, gotFresh)
}

// TestGenerateFromStartsSameFamilies checks that a run searching from
// the bank's families makes the same families with one worker as with
// two, from the same bank and seed, each meeting its target, and that a
// run on an empty bank still makes them by fresh digs.
func TestGenerateFromStartsSameFamilies(t *testing.T) {
	ctx := context.Background()
	o := pipeline.BuildOptions{RatingMin: 85, SearchStall: 32}
	run := func(puzzles []string, workers int) []string {
		db := MustBank(t, puzzles)
		seen, _, err := pipeline.LoadBank(ctx, db, grid.Nine)
		if err != nil {
			t.Fatal(err)
		}
		bo := o
		bo.Seen = seen
		bo.Starts = MustStarts(t, db, bo)
		if len(bo.Starts) != len(puzzles) {
			t.Fatalf("%d start points, want %d", len(bo.Starts), len(puzzles))
		}
		sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
			BuildOptions: bo, Seed: 11, Target: pipeline.Count(4, nil), Workers: workers, Log: quiet(),
		})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Families != 4 {
			t.Fatalf("%d families, want 4", sum.Families)
		}
		var g grade.Grader
		var canons []string
		err = db.ForEachCanon(ctx, func(canon string) error {
			canons = append(canons, canon)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range canons[len(puzzles):] {
			gr, err := g.Grade(solve.GridOf(c))
			if err != nil {
				t.Fatal(err)
			}
			if !o.Meets(&gr) {
				t.Errorf("kept %s rated %s: misses the target", c, gr.ER)
			}
		}
		return canons
	}
	one, two := run(hardPuzzles, 1), run(hardPuzzles, 2)
	if len(one) != len(two) {
		t.Fatalf("%d families with one worker, %d with two", len(one), len(two))
	}
	for i := range one {
		if one[i] != two[i] {
			t.Errorf("family %d: %s with one worker, %s with two", i, one[i], two[i])
		}
	}
	if fresh := run(nil, 2); len(fresh) != 4 {
		t.Errorf("%d families on an empty bank, want 4", len(fresh))
	}
}

// TestGenerateFromStartsOptions checks a run that searches from the
// bank's families with each option that picks its start points: every
// family it stores meets the target when graded afresh, and with a
// symmetry every puzzle it stores has it; one worker makes the same
// families as two; and the run starts from the bank's families.
func TestGenerateFromStartsOptions(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		o       pipeline.BuildOptions
		puzzles []string
		sym     func(solve.Grid) bool // of every stored puzzle
	}{
		{"Rot180", pipeline.BuildOptions{RatingMin: 85, Symmetry: gen.Rot180}, symPuzzles, gen.Rot180.Holds},
		{"RandomSymmetry", pipeline.BuildOptions{RatingMin: 85, RandomSymmetry: true}, symPuzzles,
			func(g solve.Grid) bool { return gen.DetectSymmetry(g) != gen.NoSymmetry }},
		{"TechniqueAny", pipeline.BuildOptions{RatingMin: 85, Uses: []grade.Technique{grade.XWing}}, hardPuzzles,
			func(solve.Grid) bool { return true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.SearchStall = 32
			if n := len(MustStarts(t, MustBank(t, tt.puzzles), tt.o)); n == 0 {
				t.Fatal("no start points in the bank")
			}
			run := func(workers int) []string {
				db := MustBank(t, tt.puzzles)
				seen, _, err := pipeline.LoadBank(ctx, db, grid.Nine)
				if err != nil {
					t.Fatal(err)
				}
				bo := tt.o
				bo.Seen = seen
				var log strings.Builder
				sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
					BuildOptions: bo, Seed: 5, Target: pipeline.Count(3, nil), Workers: workers,
					Log: slog.New(slog.NewTextHandler(&log, nil)), FromBank: true,
				})
				if err != nil {
					t.Fatal(err)
				}
				if sum.Families != 3 {
					t.Fatalf("%d families, want 3", sum.Families)
				}
				if !strings.Contains(log.String(), "searching from the bank's hardest families too") {
					t.Errorf("the log does not say the run starts from the bank's families:\n%s", log.String())
				}
				return checkGenerated(t, db, &tt.o, tt.sym)
			}
			if one, two := run(1), run(2); !slices.Equal(one, two) {
				t.Errorf("one worker made\n%q\ntwo made\n%q", one, two)
			}
		})
	}
}

// checkGenerated checks that every family db holds from a run with
// options o meets the target when graded afresh, and that each of its
// puzzles satisfies sym; it returns their puzzles and ratings, sorted.
func checkGenerated(tb testing.TB, db *store.DB, o *pipeline.BuildOptions, sym func(solve.Grid) bool) []string {
	tb.Helper()
	var g grade.Grader
	var out []string
	err := db.Query(context.Background(), store.Filter{Source: "gen"}, store.QueryOptions{}, func(r store.Row) error {
		p := solve.GridOf(r.Puzzle)
		canon, _ := gen.Canon(p)
		gr, err := g.Grade(canon)
		if err != nil {
			return err
		}
		if !o.Meets(&gr) || int(gr.ER) != r.ER {
			tb.Errorf("puzzle %s rated %s (stored %d), hardest %s: misses the target", p, gr.ER, r.ER, gr.Hardest.Slug())
		}
		if !sym(p) {
			tb.Errorf("puzzle %s: symmetry %s, misses the run's", p, gen.DetectSymmetry(p))
		}
		out = append(out, fmt.Sprintf("%s %d", r.Puzzle, r.ER))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestGenerateFromSizedStarts checks a search of another size than 9x9
// from the bank's families: a 6x6 run for families whose hardest step is
// an x-chain (about one 6x6 family in 40) walks from those the bank
// holds, every family it stores meets the target when graded afresh,
// and one worker makes the same families as two; on an empty bank it
// digs others afresh.
func TestGenerateFromSizedStarts(t *testing.T) {
	ctx := context.Background()
	six, err := grid.ShapeOf(6)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(t.TempDir(), "base.db")
	db, err := store.Open(ctx, base, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
		BuildOptions: pipeline.BuildOptions{Shape: six, Seen: pipeline.NewSeen(nil)},
		Seed:         1, Target: pipeline.Count(300, nil), Log: quiet(),
	}); err != nil {
		t.Fatal(err)
	}
	o := pipeline.BuildOptions{Shape: six, Hardest: []grade.Technique{grade.XChain}, SearchStall: 32}
	starts := MustStarts(t, db, o)
	if len(starts) < 3 {
		t.Fatalf("%d start points, want 3 or more", len(starts))
	}
	for _, s := range starts {
		if s.Sized.Grid.Shape != six || s.ER != grade.XChain.BaseRating() {
			t.Errorf("start %s rated %s: want a 6x6 x-chain", s.Sized.Grid, s.ER)
		}
	}
	had := map[string]bool{}
	err = db.Query(ctx, store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		had[r.Puzzle] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	// run makes 4 families on a copy of the bank, or an empty bank,
	// and returns their puzzles, checking each against the target.
	run := func(workers int, fromBank bool) []string {
		path := filepath.Join(t.TempDir(), "b.db")
		if fromBank {
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		db, err := store.Open(ctx, path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		seen, _, err := pipeline.LoadBank(ctx, db, six)
		if err != nil {
			t.Fatal(err)
		}
		bo := o
		bo.Seen = seen
		var log strings.Builder
		sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
			BuildOptions: bo, Seed: 3, Target: pipeline.Count(4, nil), Workers: workers,
			Log: slog.New(slog.NewTextHandler(&log, nil)), FromBank: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Families != 4 {
			t.Fatalf("%d families, want 4", sum.Families)
		}
		if said := strings.Contains(log.String(), "searching from the bank's hardest families too"); said != fromBank {
			t.Errorf("the log says it searches from the bank's families: %v, want %v:\n%s", said, fromBank, log.String())
		}
		g := grade.NewSized()
		var out []string
		err = db.Query(ctx, store.Filter{Size: 6, Hardest: "x-chain"}, store.QueryOptions{}, func(r store.Row) error {
			p, err := grid.Parse(r.Puzzle)
			if err != nil {
				return err
			}
			canon, _ := gen.SizedCanon(p)
			gr, err := g.GradeContext(ctx, canon)
			if err != nil {
				return err
			}
			if gr.Hardest != grade.XChain || int(gr.ER) != r.ER {
				t.Errorf("puzzle %s: hardest %s rated %s (stored %d), want an x-chain", p, gr.Hardest.Slug(), gr.ER, r.ER)
			}
			if !had[r.Puzzle] {
				out = append(out, r.Puzzle)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(out)
		return out
	}
	one, two := run(1, true), run(2, true)
	if len(one) != 4 || !slices.Equal(one, two) {
		t.Errorf("one worker made\n%q\ntwo made\n%q", one, two)
	}
	if fresh := run(2, false); slices.Equal(fresh, one) {
		t.Errorf("on an empty bank the run made the families it made from the bank's:\n%q", fresh)
	}
}

// TestLoadStartsLarge checks that a search of 12x12 walks from the
// bank's families only for a target whose ceiling spares the forcing
// chains, whose grades take seconds there: one whose hardest step is a
// technique of a fixed rating, not one using it anywhere.
func TestLoadStartsLarge(t *testing.T) {
	ctx := context.Background()
	twelve, err := grid.ShapeOf(12)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "b.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
		BuildOptions: pipeline.BuildOptions{Shape: twelve, Seen: pipeline.NewSeen(nil)},
		Seed:         1, Target: pipeline.Count(2, []grade.Level{grade.ExtremelyEasy}), Log: quiet(),
	}); err != nil {
		t.Fatal(err)
	}
	fams, err := db.HardestFamilies(ctx, store.HardestQuery{Size: 12, Limit: 1})
	if err != nil || len(fams) != 1 {
		t.Fatalf("%d families, %v; want 1", len(fams), err)
	}
	tech, err := grade.ParseTechniqueSlug(fams[0].Hardest)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(MustStarts(t, db, pipeline.BuildOptions{Shape: twelve, Hardest: []grade.Technique{tech}})); n == 0 {
		t.Errorf("no start points whose hardest step is %s", tech.Slug())
	}
	if n := len(MustStarts(t, db, pipeline.BuildOptions{Shape: twelve, Uses: []grade.Technique{tech}})); n != 0 {
		t.Errorf("%d start points using %s, want none: the target has no ceiling", n, tech.Slug())
	}
}
