package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"sudokubank/pipeline"
	"sudokubank/store"
)

// TestSummaryCounts checks the nouns of a generating run's summary: one
// family, variant or duplicate is singular ("1 family and 1 variant"), as
// merge's summary says it, where it once read "1 families".
func TestSummaryCounts(t *testing.T) {
	o, err := parseGenerate([]string{"-db", "b.db", "-count", "1", "-variants", "2", "-seed", "1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		families, puzzles, dups int64
		want                    []string
	}{
		{1, 2, 1, []string{"done: 1 family and 1 variant written to b.db", "1 variant fewer than -variants 2", "skipped: 1 duplicate, "}},
		{2, 6, 0, []string{"done: 2 families and 4 variants written to b.db", "skipped: 0 duplicates, "}},
		{0, 0, 3, []string{"done: 0 families and 0 variants written to b.db", "skipped: 3 duplicates, "}},
	} {
		var sum pipeline.Summary
		sum.Families, sum.Puzzles, sum.Duplicates, sum.Elapsed = tt.families, tt.puzzles, tt.dups, time.Second
		var b bytes.Buffer
		printSummary(&b, o, 1, sum, nil)
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("summary of %d families, %d puzzles, %d duplicates:\n%s\nwant %q in it", tt.families, tt.puzzles, tt.dups, b.String(), w)
			}
		}
	}
}

// TestUnfinishedMergeAdvice checks what a failed merge's summary asks of
// the shard it stopped at: one refused because a run still writes it (an
// older bankgen's, which the shard's migration waits for, or a current
// one's) needs that run's end, not mending.
func TestUnfinishedMergeAdvice(t *testing.T) {
	o := mergeOptions{db: "out.db", shards: []string{"a.db", "b.db"}}
	for _, tt := range []struct {
		name      string
		failure   error
		want, not string
	}{
		{"OlderRun", fmt.Errorf("shard b.db: %w", store.ErrLiveOlderRun), "the merge stopped at b.db: let that run finish or stop it, and run the merge again", "mend it"},
		{"Busy", fmt.Errorf("shard b.db: %w", store.ErrShardBusy), "the merge stopped at b.db: let that run finish or stop it, and run the merge again", "mend it"},
		{"Damaged", fmt.Errorf("shard b.db: %w", store.ErrDamaged), "the merge stopped at b.db: mend it or leave it out, and run the merge again", "let that run"},
	} {
		var b bytes.Buffer
		printUnfinished(&b, tt.failure, o, 1, true, store.MergeResult{}, time.Second)
		if !strings.Contains(b.String(), tt.want) || strings.Contains(b.String(), tt.not) {
			t.Errorf("%s: summary\n%s\nwant %q in it and not %q", tt.name, b.String(), tt.want, tt.not)
		}
	}
}
