package cli_test

import (
	"testing"
	"time"

	"sudokubank/internal/cli"
	"sudokubank/pipeline"
)

func TestBar(t *testing.T) {
	s := pipeline.Snapshot{Families: 500, Levels: pipeline.LevelCounts{0, 100, 100, 100, 100, 100}}
	got := cli.Bar(s, 1000, 2*time.Second)
	want := "[============            ]  50% 500/1000 families  250/s  ETA 2s  extremely-easy=100 easy=100 medium=100 difficult=100 evil=100"
	if got != want {
		t.Errorf("Bar =\n%q\nwant\n%q", got, want)
	}
}
