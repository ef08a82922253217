package pipeline_test

import (
	"context"
	"path/filepath"
	"testing"

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
	db := MustBank(t, append([]string{
		// Rated below 7.5: too far under a target of 8.5 to start from.
		"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
	}, hardPuzzles...))
	tests := []struct {
		name    string
		o       pipeline.BuildOptions
		wantERs []grade.Rating
	}{
		{"Floor", pipeline.BuildOptions{RatingMin: 85}, []grade.Rating{91, 89, 85}},
		{"Band", pipeline.BuildOptions{RatingMin: 85, RatingMax: 89}, []grade.Rating{89, 85}},
		{"Above", pipeline.BuildOptions{RatingMin: 110}, nil},
		{"NoSearch", pipeline.BuildOptions{RatingMin: 85, NoSearch: true}, nil},
		{"Uses", pipeline.BuildOptions{RatingMin: 85, Uses: []grade.Technique{grade.XWing}}, nil},
		{"Symmetry", pipeline.BuildOptions{RatingMin: 85, RandomSymmetry: true}, nil},
		{"Size", pipeline.BuildOptions{RatingMin: 85, Shape: grid.Shape{N: 4, BoxRows: 2, BoxCols: 2}}, nil},
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
