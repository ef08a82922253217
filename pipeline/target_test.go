package pipeline_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/grade"
	"sudokubank/pipeline"
	"sudokubank/store"
)

func TestTarget(t *testing.T) {
	tests := []struct {
		name   string
		target *pipeline.Target
		offer  []grade.Level
		want   []grade.Level // the offers taken
	}{
		{"CountAll", pipeline.Count(3, nil), []grade.Level{1, 5, 2, 3}, []grade.Level{1, 5, 2}},
		{"CountSome", pipeline.Count(2, []grade.Level{grade.Evil}), []grade.Level{1, 5, 2, 5, 5}, []grade.Level{5, 5}},
		{"CountZero", pipeline.Count(0, nil), []grade.Level{1}, nil},
		{"Quota", pipeline.Quota(pipeline.LevelCounts{0, 2, 0, 0, 0, 1}, pipeline.LevelCounts{0, 1, 0, 0, 0, 0}),
			[]grade.Level{1, 1, 5, 5, 3}, []grade.Level{1, 5}},
		{"QuotaMet", pipeline.Quota(pipeline.LevelCounts{0, 2}, pipeline.LevelCounts{0, 3}), []grade.Level{1}, nil},
		{"Unlimited", pipeline.Unlimited(), []grade.Level{1, 2, 0, 3}, []grade.Level{1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []grade.Level
			for _, l := range tt.offer {
				if tt.target.Wants(l) {
					tt.target.Take(l)
					got = append(got, l)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("took %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTargetDone(t *testing.T) {
	q := pipeline.Quota(pipeline.LevelCounts{0, 1, 0, 0, 0, 1}, pipeline.LevelCounts{})
	if q.Done() {
		t.Fatal("Done before anything was taken")
	}
	if got, want := q.Wanted(), []grade.Level{1, 5}; !slices.Equal(got, want) {
		t.Errorf("Wanted = %v, want %v", got, want)
	}
	q.Take(1)
	q.Take(5)
	if !q.Done() {
		t.Error("not Done after both quotas were met")
	}
}

func TestTargetGivesUp(t *testing.T) {
	tests := []struct {
		name    string
		target  *pipeline.Target
		yields  []grade.Level // one per item; 0 for no graded family
		wantErr string        // "" for none
	}{
		{"NamedLevelNeverMade", pipeline.Count(5, []grade.Level{grade.Easy, grade.Evil}), []grade.Level{2, 1, 0, 2}, "no evil family"},
		{"NamedLevelsMade", pipeline.Count(5, []grade.Level{grade.Easy, grade.Evil}), []grade.Level{2, 1, 5, 2}, ""},
		{"AllLevelsOneMade", pipeline.Count(5, nil), []grade.Level{0, 0, 1, 0}, ""},
		{"AllLevelsNoneMade", pipeline.Count(5, nil), []grade.Level{0, 0, 0, 0}, "no family in 4 tries"},
		{"QuotaMetLevel", pipeline.Quota(pipeline.LevelCounts{0, 2, 0, 0, 0, 3}, pipeline.LevelCounts{0, 0, 0, 0, 0, 3}), []grade.Level{1, 1, 1, 1}, ""},
		{"QuotaOpenLevel", pipeline.Quota(pipeline.LevelCounts{0, 2, 0, 0, 0, 3}, pipeline.LevelCounts{0, 0, 0, 0, 0, 2}), []grade.Level{1, 0, 0, 0}, "no evil family"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.target.GiveUpAfter(len(tt.yields))
			for i, l := range tt.yields {
				if err := tt.target.Unreachable(); err != nil {
					t.Fatalf("gave up after %d of %d items: %v", i, len(tt.yields), err)
				}
				tt.target.Yielded(l)
			}
			err := tt.target.Unreachable()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("gave up: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want one saying %q", err, tt.wantErr)
			}
		})
	}
	// Without a budget a target never gives up.
	target := pipeline.Count(1, []grade.Level{grade.Evil})
	for range 100 {
		target.Yielded(0)
	}
	if err := target.Unreachable(); err != nil {
		t.Errorf("no budget: %v", err)
	}
}

// TestUnreachableErrorNamesTarget checks that a run that gave up on its
// rating or technique target says which, and what to change.
func TestUnreachableErrorNamesTarget(t *testing.T) {
	err := &pipeline.UnreachableError{Level: grade.Evil, Items: 7, MinGivens: 40, MaxGivens: 45, Target: "rated 9.0 or more"}
	want := "no evil family rated 9.0 or more with 40-45 givens in 7 tries: gave up, as it is impossible or too rare; try a wider target or givens range, or another level"
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestTargetExhausted(t *testing.T) {
	tg := pipeline.Count(10, nil)
	tg.ExhaustAfter(3)
	for i := range 5 {
		tg.Yielded(0)
		tg.Duplicate()
		if i == 1 {
			tg.Yielded(grade.Easy)
			tg.Take(grade.Easy) // a new family starts the count again
		}
	}
	err := tg.Unreachable()
	ee, ok := errors.AsType[*pipeline.ExhaustedError](err)
	if !ok || ee.Items != 3 {
		t.Fatalf("Unreachable() = %v, want exhausted after 3 duplicates", err)
	}
	// A run that gives up on a level whose items were mostly duplicates
	// says the space is exhausted, not that the level is out of reach.
	tg = pipeline.Count(10, []grade.Level{grade.Easy})
	tg.ExhaustAfter(100)
	tg.GiveUpAfter(4)
	for range 4 {
		tg.Yielded(0)
		tg.Duplicate()
	}
	if _, ok := errors.AsType[*pipeline.ExhaustedError](tg.Unreachable()); !ok {
		t.Errorf("Unreachable() = %v, want exhausted", tg.Unreachable())
	}
	tg = pipeline.Count(10, []grade.Level{grade.Easy})
	tg.GiveUpAfter(4)
	for range 4 {
		tg.Yielded(0)
	}
	if _, ok := errors.AsType[*pipeline.UnreachableError](tg.Unreachable()); !ok {
		t.Errorf("Unreachable() = %v, want unreachable", tg.Unreachable())
	}
}

func TestHashText(t *testing.T) {
	a, b := strings.Repeat(".", 36), strings.Repeat(".", 35)+"1"
	if pipeline.HashText(a) == pipeline.HashText(b) || pipeline.HashText(a) != pipeline.HashText(strings.Clone(a)) {
		t.Error("HashText does not tell two grids apart, or differs for one")
	}
	if pipeline.HashText(strings.Repeat(".", 16)) == pipeline.HashText(strings.Repeat(".", 17)) {
		t.Error("HashText ignores the length")
	}
}

// TestImpossibleTarget checks that a run whose levels and target rule
// each other out fails at once, making no item, with an error that says
// why, rather than after its give-up budget of searches.
func TestImpossibleTarget(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "b.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tt := range []struct {
		name   string
		levels []grade.Level
		o      pipeline.BuildOptions
		want   string
	}{
		{"TechniqueBelowRating", nil, pipeline.BuildOptions{Hardest: []grade.Technique{grade.XWing}, RatingMin: 90},
			"impossible target: families rated 9.0 or more, whose hardest step is x-wing, would rate 9.0 or more and 3.2 or less; try another target or level"},
		{"TechniqueAboveRating", nil, pipeline.BuildOptions{Uses: []grade.Technique{grade.Nishio}, RatingMax: 70},
			"impossible target: families rated 7.0 or less, using nishio, would rate 7.5 or more and 7.0 or less; try another target or level"},
		{"LevelBelowRating", []grade.Level{grade.Easy, grade.Medium}, pipeline.BuildOptions{RatingMin: 80},
			"impossible target: easy or medium families rated 8.0 or more would rate 8.0 or more and 4.0 or less; try another target or level"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stats := new(pipeline.Stats)
			_, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
				BuildOptions: tt.o, Seed: 1, Target: pipeline.Count(5, tt.levels), Workers: 2, Log: quiet(), Stats: stats,
			})
			if _, ok := errors.AsType[*pipeline.ImpossibleError](err); !ok || err.Error() != tt.want {
				t.Errorf("Generate: %v\nwant %s", err, tt.want)
			}
			if n := stats.Items.Load(); n != 0 {
				t.Errorf("made %d items, want none", n)
			}
		})
	}
}
