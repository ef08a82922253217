package main_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"sudokubank/grid"
)

// cellRange matches a usage text's range of puzzle lengths, such as
// "16 for 4x4 up to 625 for 25x25".
var cellRange = regexp.MustCompile(`(\d+) for (\d+)x(\d+) up to\s+(\d+) for (\d+)x(\d+)`)

// TestUsageCellRanges checks the range of puzzle lengths that show's and
// grade's -h texts give: both take a puzzle of every size by its cells,
// so the range runs from the smallest grid to the largest (show's once
// stopped at 256 for 16x16, though it shows a 25x25 puzzle).
func TestUsageCellRanges(t *testing.T) {
	small, large := grid.Shapes[0], grid.Shapes[len(grid.Shapes)-1]
	want := fmt.Sprintf("%d for %s up to %d for %s", small.Cells(), small, large.Cells(), large)
	for _, cmd := range []string{"show", "grade"} {
		out := mustRun(t, cmd, "-h")
		m := cellRange.FindStringSubmatch(out)
		if m == nil {
			t.Errorf("bankquery %s -h gives no range of puzzle lengths (want %q):\n%s", cmd, want, out)
			continue
		}
		got := fmt.Sprintf("%s for %sx%s up to %s for %sx%s", m[1], m[2], m[3], m[4], m[5], m[6])
		if got != want {
			t.Errorf("bankquery %s -h: puzzle lengths %q, want %q", cmd, got, want)
		}
	}
}

// bareType matches a flag line of a -h text whose value is named only by
// its Go type, as the flag package prints a flag whose usage names no
// `placeholder`: "  -size string".
var bareType = regexp.MustCompile(`(?m)^  -[a-z-]+ (string|int|int64|uint|uint64|float64|value)$`)

// TestUsageFlagNames checks that every flag of every command names what
// its value is (-size N, -db file), as the usage lines above it do, not
// the Go type it is read into (stats once printed "-size string").
func TestUsageFlagNames(t *testing.T) {
	for _, cmd := range [][]string{{"stats"}, {"list"}, {"show"}, {"grade"}, {"export"}, {"packs"},
		{"packs", "show"}, {"packs", "export"}, {"packs", "release"}, {"runs"}, {"check"}} {
		out := mustRun(t, append(cmd, "-h")...)
		for _, m := range bareType.FindAllString(out, -1) {
			t.Errorf("bankquery %s -h: flag %q names its value by type only", strings.Join(cmd, " "), strings.TrimSpace(m))
		}
	}
}

// TestUsageRunKinds checks that bankquery -h's line for runs names every
// kind of run that runs lists (it once left out merges).
func TestUsageRunKinds(t *testing.T) {
	r := run(t, "-h")
	line := ""
	for l := range strings.Lines(r.stdout) {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "runs" {
			line = l
		}
	}
	for _, kind := range []string{"generations", "imports", "merges"} {
		if !strings.Contains(line, kind) {
			t.Errorf("bankquery -h lists runs as %q, which does not name %s", strings.TrimSpace(line), kind)
		}
	}
}
