// Package filters reads the puzzle filters the commands take, as text by
// name, into a store.Filter: one parser behind bankquery's flags and
// bankserve's query parameters, so that both accept and refuse the same
// values with the same messages. It builds no SQL; the store binds every
// value.
package filters

import (
	"errors"
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

// Values are the filters as the user wrote them; an empty field sets no
// filter.
type Values struct {
	Level, Rating, Givens, Score         string
	Technique, Hardest, Symmetry, Source string
	Minimal, Fresh                       bool
}

// Error is a bad filter value: the filter's name, the value and why.
type Error struct {
	Name, Value string
	Err         error
}

// Error returns the message: the name, the value quoted, and why.
func (e *Error) Error() string { return fmt.Sprintf("%s %q: %v", e.Name, e.Value, e.Err) }

// Unwrap returns why the value is bad.
func (e *Error) Unwrap() error { return e.Err }

func bad(name, value string, err error) error { return &Error{Name: name, Value: value, Err: err} }

// Filter returns the store filter the values ask for, or an *Error
// naming the first bad one.
func (v Values) Filter() (store.Filter, error) {
	var out store.Filter
	var err error
	if v.Level != "" {
		if out.Levels, err = ParseLevels(v.Level); err != nil {
			return out, bad("level", v.Level, err)
		}
	}
	if v.Rating != "" {
		if out.RatingMin, out.RatingMax, err = parseRatingRange(v.Rating); err != nil {
			return out, bad("rating", v.Rating, err)
		}
	}
	if v.Givens != "" {
		if out.GivensMin, out.GivensMax, err = ranges.Ints(v.Givens, 1, 81); err != nil {
			return out, bad("givens", v.Givens, err)
		}
	}
	if v.Score != "" {
		if out.ScoreMin, out.ScoreMax, err = parseScoreRange(v.Score); err != nil {
			return out, bad("score", v.Score, err)
		}
	}
	if v.Technique != "" {
		if out.Technique, err = parseTechnique(v.Technique); err != nil {
			return out, bad("technique", v.Technique, err)
		}
	}
	if v.Hardest != "" {
		if out.Hardest, err = parseTechnique(v.Hardest); err != nil {
			return out, bad("hardest", v.Hardest, err)
		}
	}
	if v.Symmetry != "" {
		s, err := gen.ParseSymmetry(strings.ToLower(strings.TrimSpace(v.Symmetry)))
		if err != nil {
			return out, bad("symmetry", v.Symmetry, errors.New("want none, rot180, rot90, mirror, flip, diagonal or antidiagonal"))
		}
		out.Symmetry = s.String()
	}
	out.Source = v.Source
	out.Minimal = v.Minimal
	out.Fresh = v.Fresh
	return out, nil
}

// ParseLevels reads a comma-separated list of levels, by name or number,
// and returns them in rising order without repeats.
func ParseLevels(s string) ([]int, error) {
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

// maxRating is the highest rating a filter takes, in tenths: the SE scale
// ends near 12, and unfinished puzzles rate 12.0.
const maxRating = 200

// parseTenths reads a rating with at most one decimal ("7", "7.0", "7.5")
// as tenths.
func parseTenths(s string) (int, error) {
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" && frac == "" || dot && frac == "" || len(frac) > 1 {
		return 0, fmt.Errorf("%q is not a rating with at most one decimal, like 7.5", s)
	}
	for _, c := range whole + frac {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a rating with at most one decimal, like 7.5", s)
		}
	}
	if len(whole) > 3 {
		return 0, fmt.Errorf("%s is above the scale's top of %.1f", s, float64(maxRating)/10)
	}
	n := 0
	if whole != "" {
		n, _ = strconv.Atoi(whole)
	}
	n *= 10
	if frac != "" {
		n += int(frac[0] - '0')
	}
	if n > maxRating {
		return 0, fmt.Errorf("%s is above the scale's top of %.1f", s, float64(maxRating)/10)
	}
	return n, nil
}

// parseRatingRange reads a rating range in tenths; an open end is 0.
func parseRatingRange(s string) (lo, hi int, err error) {
	a, b, err := ranges.Split(s)
	if err != nil {
		return 0, 0, err
	}
	if a != "" {
		if lo, err = parseTenths(a); err != nil {
			return 0, 0, err
		}
	}
	if b != "" {
		if hi, err = parseTenths(b); err != nil {
			return 0, 0, err
		}
		if hi == 0 {
			return 0, 0, errors.New("upper bound 0.0: no puzzle rates that low")
		}
	}
	if hi != 0 && lo > hi {
		return 0, 0, fmt.Errorf("lower bound %s is above upper bound %s", a, b)
	}
	return lo, hi, nil
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
	slug := strings.ToLower(strings.TrimSpace(s))
	if _, ok := grade.ParseTechnique(slug); ok {
		return slug, nil
	}
	var names []string
	for _, t := range grade.Techniques() {
		names = append(names, t.Slug())
	}
	return "", fmt.Errorf("unknown technique; the techniques are %s", strings.Join(names, ", "))
}
