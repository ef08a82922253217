package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/internal/ranges"
	"sudokubank/store"
)

// filterFlags are the filters every selecting subcommand takes, as the
// user typed them; filter turns them into a store.Filter.
type filterFlags struct {
	fs                                   *flag.FlagSet
	level, rating, givens, score         string
	technique, hardest, symmetry, source string
	minimal, fresh                       bool
}

// filterUsage is the part of a usage text that explains the filters.
const filterUsage = `Filters (all must hold; ranges are A-B, A- or -B, or one value):
  -level easy,evil     levels by name or number: extremely-easy (1), easy (2),
                       medium (3), difficult (4), evil (5)
  -rating 7.0-9.9      Sudoku Explainer rating of the hardest step
  -givens 22-26        number of givens
  -score 3-5           the dig-hole paper's composite score (1.0-5.0)
  -technique x-wing    the solve uses this technique
  -hardest x-wing      the hardest step uses this technique
  -symmetry rot180     the givens' pattern: none, rot180, rot90, mirror, flip,
                       diagonal, antidiagonal
  -minimal             only minimal puzzles
  -source NAME         only families from this source ("gen" or an import)
  -fresh               only families that have never been in any pack
`

// addFilterFlags registers the filter flags on fs.
func addFilterFlags(fs *flag.FlagSet) *filterFlags {
	f := &filterFlags{fs: fs}
	fs.StringVar(&f.level, "level", "", "levels, by `name or number`, comma-separated")
	fs.StringVar(&f.rating, "rating", "", "SE rating `range`, e.g. 7.0-9.9")
	fs.StringVar(&f.givens, "givens", "", "givens `range`, e.g. 22-26")
	fs.StringVar(&f.score, "score", "", "composite score `range`, e.g. 3-5")
	fs.StringVar(&f.technique, "technique", "", "the solve uses this technique (`slug`, e.g. x-wing)")
	fs.StringVar(&f.hardest, "hardest", "", "the hardest step uses this technique (`slug`)")
	fs.StringVar(&f.symmetry, "symmetry", "", "symmetry of the givens (`name`: none, rot180, rot90, mirror, flip, diagonal, antidiagonal)")
	fs.StringVar(&f.source, "source", "", "only families from this `source` (gen or an import's name)")
	fs.BoolVar(&f.minimal, "minimal", false, "only minimal puzzles")
	fs.BoolVar(&f.fresh, "fresh", false, "only families that have never been in any pack")
	return f
}

// filterNames lists the filter flags, for the pack's record.
var filterNames = []string{"level", "rating", "givens", "score", "technique", "hardest", "symmetry", "minimal", "source", "fresh"}

// flagError is a bad flag value: it names the flag and the value.
func flagError(name, value string, err error) error {
	return usageError{Err: fmt.Errorf("-%s %q: %w", name, value, err)}
}

// filter returns the store filter the flags ask for, or a usage error
// naming the first bad flag and its value.
func (f *filterFlags) filter() (store.Filter, error) {
	var out store.Filter
	var err error
	if f.level != "" {
		if out.Levels, err = parseLevels(f.level); err != nil {
			return out, flagError("level", f.level, err)
		}
	}
	if f.rating != "" {
		if out.RatingMin, out.RatingMax, err = ranges.Tenths(f.rating); err != nil {
			return out, flagError("rating", f.rating, err)
		}
	}
	if f.givens != "" {
		if out.GivensMin, out.GivensMax, err = ranges.Ints(f.givens, 1, 81); err != nil {
			return out, flagError("givens", f.givens, err)
		}
	}
	if f.score != "" {
		if out.ScoreMin, out.ScoreMax, err = parseScoreRange(f.score); err != nil {
			return out, flagError("score", f.score, err)
		}
	}
	if f.technique != "" {
		if out.Technique, err = parseTechnique(f.technique); err != nil {
			return out, flagError("technique", f.technique, err)
		}
	}
	if f.hardest != "" {
		if out.Hardest, err = parseTechnique(f.hardest); err != nil {
			return out, flagError("hardest", f.hardest, err)
		}
	}
	if f.symmetry != "" {
		s, err := gen.ParseSymmetry(strings.ToLower(strings.TrimSpace(f.symmetry)))
		if err != nil {
			return out, flagError("symmetry", f.symmetry, errors.New("want none, rot180, rot90, mirror, flip, diagonal or antidiagonal"))
		}
		out.Symmetry = s.String()
	}
	if f.source != "" {
		out.Source = f.source
	}
	out.Minimal = f.minimal
	out.Fresh = f.fresh
	return out, nil
}

// text returns the filters the user set, as flags in a fixed order, for
// the pack's record: "-level=evil -rating=7.0-9.9".
func (f *filterFlags) text() string {
	set := map[string]string{}
	f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = fl.Value.String() })
	var parts []string
	for _, name := range filterNames {
		v, ok := set[name]
		if !ok {
			continue
		}
		if v == "true" && (name == "minimal" || name == "fresh") {
			parts = append(parts, "-"+name)
			continue
		}
		parts = append(parts, "-"+name+"="+strconv.Quote(v))
	}
	return strings.Join(parts, " ")
}

// parseLevels reads a comma-separated list of levels, by name or number,
// and returns them in rising order without repeats.
func parseLevels(s string) ([]int, error) {
	var out []int
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, errors.New("empty level in list")
		}
		l, err := grade.ParseLevel(strings.ToLower(part))
		if err != nil {
			return nil, fmt.Errorf("unknown level %q: want extremely-easy, easy, medium, difficult, evil or 1-5", part)
		}
		if !slices.Contains(out, int(l)) {
			out = append(out, int(l))
		}
	}
	slices.Sort(out)
	return out, nil
}

// parseScoreRange reads a score range; an open end is nil.
func parseScoreRange(s string) (lo, hi *float64, err error) {
	a, b, err := ranges.Split(s)
	if err != nil {
		return nil, nil, err
	}
	num := func(t string) (*float64, error) {
		if t == "" {
			return nil, nil
		}
		x, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q is not a number", t)
		}
		if x < 0 || x > 5 {
			return nil, fmt.Errorf("%s is out of the score's range 1.0-5.0", t)
		}
		return &x, nil
	}
	if lo, err = num(a); err != nil {
		return nil, nil, err
	}
	if hi, err = num(b); err != nil {
		return nil, nil, err
	}
	if lo != nil && hi != nil && *lo > *hi {
		return nil, nil, fmt.Errorf("lower bound %s is above upper bound %s", a, b)
	}
	return lo, hi, nil
}

// parseTechnique checks a technique slug against the grader's.
func parseTechnique(s string) (string, error) {
	t, err := grade.ParseTechniqueSlug(s)
	if err != nil {
		return "", err
	}
	return t.Slug(), nil
}
