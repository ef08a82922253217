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
	"sudokubank/grid"
	"sudokubank/internal/ranges"
	"sudokubank/store"
)

// Values are the filters as the user wrote them; an empty field sets no
// filter.
type Values struct {
	Level, Rating, Givens, Score         string
	Technique, Hardest, Symmetry, Source string
	Size                                 string // "16" or "16x16": one of grid.Shapes
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
	maxGivens := 81
	if v.Size != "" {
		s, err := grid.ParseShape(v.Size)
		if err != nil {
			return out, bad("size", v.Size, fmt.Errorf("want one of %s", grid.SizeList()))
		}
		out.Size, maxGivens = s.N, s.Cells()
	}
	if v.Level != "" {
		if out.Levels, err = ParseLevels(v.Level); err != nil {
			return out, bad("level", v.Level, err)
		}
	}
	if v.Rating != "" {
		if out.RatingMin, out.RatingMax, err = ranges.Tenths(v.Rating); err != nil {
			return out, bad("rating", v.Rating, err)
		}
	}
	if v.Givens != "" {
		if out.GivensMin, out.GivensMax, err = ranges.Ints(v.Givens, 1, maxGivens); err != nil {
			if _, _, big := ranges.Ints(v.Givens, 1, grid.MaxN*grid.MaxN); big == nil && out.Size == 0 {
				// A larger grid's givens: the size says how many it has.
				err = fmt.Errorf("%w (a 9x9 grid's; with size N, up to N*N)", err)
			}
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
// Unlike bankgen's -level, a filter's levels are a set: order and
// repeats do not matter to the query, so neither is kept.
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

// The composite score's range: each of its four measures maps onto 1..5
// and the score is their weighted average (grade.Metrics.Score), so a
// bound outside it is a mistake, refused as -givens 0 is.
const scoreMin, scoreMax = 1.0, 5.0

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
		if x < scoreMin || x > scoreMax {
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
