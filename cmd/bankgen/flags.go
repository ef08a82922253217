package main

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"sudokubank/grade"
	"sudokubank/grid"
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
// Unlike filters.ParseLevels (a query's set) it refuses a repeat, a slip
// in a run that writes, and keeps the order the -level flag prints back.
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
// totals per level, or KEY=N targets for its totals of families whose
// hardest step is a technique (x-wing=500) or whose rating is in a band
// (9.0-=100).
type quotaFlag struct {
	set  bool
	want pipeline.LevelCounts
	keys []pipeline.QuotaKey
}

func (f *quotaFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	if len(f.keys) > 0 {
		var parts []string
		for _, k := range f.keys {
			parts = append(parts, fmt.Sprintf("%s=%d", k.Name, k.Want))
		}
		return strings.Join(parts, ",")
	}
	return formatQuota(f.want)
}

func (f *quotaFlag) Set(s string) error {
	q, keys, err := parseQuota(s)
	if err != nil {
		return err
	}
	f.set, f.want, f.keys = true, q, keys
	return nil
}

// parseQuota reads "easy=1000,evil=200", levels not named getting no
// quota, or "x-wing=500,9.0-=100": techniques and rating bands, in the
// order given. One quota does not mix the two kinds.
func parseQuota(s string) (pipeline.LevelCounts, []pipeline.QuotaKey, error) {
	var q pipeline.LevelCounts
	var keys []pipeline.QuotaKey
	var named [grade.Evil + 1]bool
	levels := false
	for _, part := range strings.Split(s, ",") {
		name, num, ok := strings.Cut(part, "=")
		if !ok {
			return q, nil, fmt.Errorf("%q is not LEVEL=N", part)
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil || n < 0 {
			return q, nil, fmt.Errorf("%s=%s: the quota must be a whole number, 0 or more", name, num)
		}
		if n > maxFamilies {
			return q, nil, fmt.Errorf("%s=%s: the quota must be %d or fewer", name, num, maxFamilies)
		}
		if l, err := grade.ParseLevel(name); err == nil {
			if named[l] {
				return q, nil, fmt.Errorf("level %s given twice", l)
			}
			named[l], q[l], levels = true, n, true
			continue
		}
		k, err := parseQuotaKey(name)
		if err != nil {
			return q, nil, err
		}
		for _, o := range keys {
			if o.Name == k.Name {
				return q, nil, fmt.Errorf("%s given twice", k.Name)
			}
		}
		k.Want = n
		keys = append(keys, k)
	}
	if levels && len(keys) > 0 {
		return q, nil, errors.New("levels cannot be mixed with techniques or rating bands in one quota")
	}
	return q, keys, nil
}

// parseQuotaKey reads a -quota key that is not a level: a technique's
// slug or a rating band.
func parseQuotaKey(name string) (pipeline.QuotaKey, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if t, err := grade.ParseTechniqueSlug(name); err == nil {
		return pipeline.QuotaKey{Name: name, Hardest: t}, nil
	}
	lo, hi, err := ranges.Tenths(name)
	if err != nil || lo == 0 && hi == 0 {
		return pipeline.QuotaKey{}, fmt.Errorf("unknown level %q: want a level (1-5 or extremely-easy, easy, medium, difficult, evil), a technique's slug such as x-wing, or a rating band such as 9.0-", name)
	}
	return pipeline.QuotaKey{Name: name, RatingMin: grade.Rating(lo), RatingMax: grade.Rating(hi)}, nil
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
// level of the bank: 10^8 families take a day or more to make and fill
// a bank of tens of gigabytes, so a larger number is a slip of the
// keyboard, not a plan.
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
type givensFlag struct {
	lo, hi int
	text   string // as given, read again for the run's -size (bounds)
}

func (f *givensFlag) String() string {
	if f == nil || f.lo == 0 {
		return ""
	}
	return fmt.Sprintf("%d-%d", f.lo, f.hi)
}

func (f *givensFlag) Set(s string) error {
	lo, hi, err := parseGivens(s, grid.Nine)
	if err != nil {
		// A range outside 9x9's may still fit another -size: only its
		// form is read here, and bounds reads it again once every flag
		// is known, so that a number out of range is reported with the
		// range of the run's -size.
		if _, _, err := ranges.Ints(s, 0, math.MaxInt); err != nil {
			return err
		}
	}
	f.lo, f.hi, f.text = lo, hi, s
	return nil
}

// bounds reads the range again for grids of shape s, whose puzzles have
// 1 to Cells-1 givens (17 to 80 for 9x9).
func (f *givensFlag) bounds(s grid.Shape) error {
	if f.text == "" {
		return nil
	}
	lo, hi, err := parseGivens(f.text, s)
	if err != nil {
		return usageError{Err: fmt.Errorf("invalid value %q for flag -givens: %w", f.text, err)}
	}
	f.lo, f.hi = lo, hi
	return nil
}

// parseGivens reads "30-38", "30-", "-38" or "30" into a range within the
// givens a puzzle of shape s may have; an open end is that bound.
func parseGivens(text string, s grid.Shape) (lo, hi int, err error) {
	least, most := 1, s.Cells()-1
	if s == grid.Nine {
		least, most = minGivens, maxGivens
	}
	lo, hi, err = ranges.Ints(text, least, most)
	if err != nil {
		return 0, 0, err
	}
	if lo == 0 {
		lo = least
	}
	if hi == 0 {
		hi = most
	}
	return lo, hi, nil
}

// sizeFlag is -size: the N of the N x N grids a run makes.
type sizeFlag struct{ shape grid.Shape }

func (f *sizeFlag) String() string {
	if f == nil || f.shape.N == 0 {
		return "9"
	}
	return strconv.Itoa(f.shape.N)
}

func (f *sizeFlag) Set(s string) error {
	shape, err := grid.ParseShape(s)
	if err != nil {
		return fmt.Errorf("want one of %s", grid.SizeList())
	}
	f.shape = shape
	return nil
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
