package pipeline_test

import (
	"slices"
	"testing"

	"sudokubank/grade"
	"sudokubank/pipeline"
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
		{"Quota", pipeline.Quota(pipeline.Levels{0, 2, 0, 0, 0, 1}, pipeline.Levels{0, 1, 0, 0, 0, 0}),
			[]grade.Level{1, 1, 5, 5, 3}, []grade.Level{1, 5}},
		{"QuotaMet", pipeline.Quota(pipeline.Levels{0, 2}, pipeline.Levels{0, 3}), []grade.Level{1}, nil},
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
	q := pipeline.Quota(pipeline.Levels{0, 1, 0, 0, 0, 1}, pipeline.Levels{})
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
