package main

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"sudokubank/grade"
	"sudokubank/internal/ranges"
	"sudokubank/pipeline"
)

// levelsFlag is -level: a comma-separated list of level names or numbers.
type levelsFlag []grade.Level

func (f *levelsFlag) String() string { return formatLevels(*f) }

func (f *levelsFlag) Set(s string) error {
	ls, err := parseLevels(s)
	if err != nil {
		return err
	}
	*f = ls
	return nil
}

// parseLevels reads "easy,5" into levels in the order given, each once.
func parseLevels(s string) ([]grade.Level, error) {
	var ls []grade.Level
	for _, part := range strings.Split(s, ",") {
		l, err := grade.ParseLevel(part)
		if err != nil {
			return nil, err
		}
		for _, m := range ls {
			if m == l {
				return nil, fmt.Errorf("level %s given twice", l)
			}
		}
		ls = append(ls, l)
	}
	return ls, nil
}

func formatLevels(ls []grade.Level) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, l.String())
	}
	return strings.Join(parts, ",")
}

// quotaFlag is -quota: comma-separated LEVEL=N targets for the bank's
// totals per level.
type quotaFlag struct {
	set  bool
	want pipeline.LevelCounts
}

func (f *quotaFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return formatQuota(f.want)
}

func (f *quotaFlag) Set(s string) error {
	q, err := parseQuota(s)
	if err != nil {
		return err
	}
	f.set, f.want = true, q
	return nil
}

// parseQuota reads "easy=1000,evil=200"; levels not named get no quota.
func parseQuota(s string) (pipeline.LevelCounts, error) {
	var q pipeline.LevelCounts
	var named [grade.Evil + 1]bool
	for _, part := range strings.Split(s, ",") {
		name, num, ok := strings.Cut(part, "=")
		if !ok {
			return q, fmt.Errorf("%q is not LEVEL=N", part)
		}
		l, err := grade.ParseLevel(name)
		if err != nil {
			return q, err
		}
		if named[l] {
			return q, fmt.Errorf("level %s given twice", l)
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil || n < 0 {
			return q, fmt.Errorf("%s=%s: the quota must be a whole number, 0 or more", name, num)
		}
		if n > maxFamilies {
			return q, fmt.Errorf("%s=%s: the quota must be %d or fewer", name, num, maxFamilies)
		}
		named[l], q[l] = true, n
	}
	return q, nil
}

func formatQuota(q pipeline.LevelCounts) string {
	var parts []string
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		if q[l] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", l, q[l]))
		}
	}
	return strings.Join(parts, ",")
}

// maxFamilies is the most families -count asks a run for, and -quota a
// level of the bank: 10^8 families take a day or more to make on a
// desktop machine, at some thousands a second, and fill a bank of tens
// of gigabytes, so a larger number is a slip of the keyboard, not a plan.
// It is refused rather than clamped so that the user sees it.
const maxFamilies = 100_000_000

// maxWorkers is the most -workers bankgen takes.
func maxWorkers() int { return 8 * runtime.NumCPU() }

// defaultWorkers is -workers when it is not given: one per CPU the
// runtime uses (GOMAXPROCS), within maxWorkers.
func defaultWorkers() int { return min(runtime.GOMAXPROCS(0), maxWorkers()) }

// checkWorkers refuses a -workers value below 1 or above 8 per CPU: more
// goroutines than that only cost memory (each holds a grader's scratch
// and its results in flight) and give no speed.
func checkWorkers(w int) error {
	if limit := maxWorkers(); w < 1 || w > limit {
		return usageError{Err: fmt.Errorf("invalid value %d for flag -workers: want 1 to %d (8 per CPU)", w, limit)}
	}
	return nil
}

// The givens a -givens range may ask for: no Sudoku has a unique
// solution with fewer than 17, and one with 81 has nothing to solve.
const minGivens, maxGivens = 17, 80

// givensFlag is -givens: a range of givens, as bankquery's -givens filter
// reads it; an open end is the bound of minGivens-maxGivens.
type givensFlag struct{ lo, hi int }

func (f *givensFlag) String() string {
	if f == nil || f.lo == 0 {
		return ""
	}
	return fmt.Sprintf("%d-%d", f.lo, f.hi)
}

func (f *givensFlag) Set(s string) error {
	lo, hi, err := parseGivens(s)
	if err != nil {
		return err
	}
	f.lo, f.hi = lo, hi
	return nil
}

// parseGivens reads "30-38", "30-", "-38" or "30" into a range within
// minGivens-maxGivens.
func parseGivens(s string) (lo, hi int, err error) {
	lo, hi, err = ranges.Ints(s, minGivens, maxGivens)
	if err != nil {
		return 0, 0, err
	}
	if lo == 0 {
		lo = minGivens
	}
	if hi == 0 {
		hi = maxGivens
	}
	return lo, hi, nil
}

// techniquesFlag is -technique or -technique-any: a comma-separated list
// of technique slugs, as bankquery's -technique and -hardest take them.
type techniquesFlag []grade.Technique

func (f *techniquesFlag) String() string {
	var parts []string
	for _, t := range *f {
		parts = append(parts, t.Slug())
	}
	return strings.Join(parts, ",")
}

func (f *techniquesFlag) Set(s string) error {
	var ts []grade.Technique
	for part := range strings.SplitSeq(s, ",") {
		t, err := grade.ParseTechniqueSlug(part)
		if err != nil {
			return fmt.Errorf("%q: %w", strings.TrimSpace(part), err)
		}
		if slices.Contains(ts, t) {
			return fmt.Errorf("technique %s given twice", t.Slug())
		}
		ts = append(ts, t)
	}
	*f = ts
	return nil
}

// ratingFlag is -rating: a range of SE ratings in tenths, as bankquery's
// -rating filter reads it; an open end is 0.
type ratingFlag struct{ lo, hi grade.Rating }

func (f *ratingFlag) String() string {
	if f == nil || f.lo == 0 && f.hi == 0 {
		return ""
	}
	var lo, hi string
	if f.lo > 0 {
		lo = f.lo.String()
	}
	if f.hi > 0 {
		hi = f.hi.String()
	}
	return lo + "-" + hi
}

func (f *ratingFlag) Set(s string) error {
	lo, hi, err := ranges.Tenths(s)
	if err != nil {
		return err
	}
	f.lo, f.hi = grade.Rating(lo), grade.Rating(hi)
	return nil
}

// syncFlag is -sync: normal or full, whether each commit waits for the
// disk (store.Options.SyncFull).
type syncFlag struct{ full bool }

func (f *syncFlag) String() string {
	if f.full {
		return "full"
	}
	return "normal"
}

func (f *syncFlag) Set(s string) error {
	switch s {
	case "normal":
		f.full = false
	case "full":
		f.full = true
	default:
		return fmt.Errorf("want normal or full")
	}
	return nil
}
