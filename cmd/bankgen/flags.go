package main

import (
	"fmt"
	"strconv"
	"strings"

	"sudokubank/grade"
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
	want pipeline.Levels
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
func parseQuota(s string) (pipeline.Levels, error) {
	var q pipeline.Levels
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
		named[l], q[l] = true, n
	}
	return q, nil
}

func formatQuota(q pipeline.Levels) string {
	var parts []string
	for l := grade.ExtremelyEasy; l <= grade.Evil; l++ {
		if q[l] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", l, q[l]))
		}
	}
	return strings.Join(parts, ",")
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
