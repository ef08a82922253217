// Package ranges reads the ranges the commands take on their command
// lines ("22-26", "22-", "-26", "24", and ratings "7.0-7.4", "9.0-"), so
// that bankgen and bankquery accept the same syntax. It is not for ranges in files or the bank.
package ranges

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Split splits "A-B", "A-", "-B" or "A" into its bounds; an empty bound
// is "". A single value is both bounds. Spaces around the bounds are
// ignored.
func Split(s string) (lo, hi string, err error) {
	s = strings.TrimSpace(s)
	switch strings.Count(s, "-") {
	case 0:
		if s == "" {
			return "", "", errors.New("empty range")
		}
		return s, s, nil
	case 1:
		lo, hi, _ = strings.Cut(s, "-")
		lo, hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
		if lo == "" && hi == "" {
			return "", "", errors.New("a range needs at least one bound: A-B, A- or -B")
		}
		return lo, hi, nil
	default:
		return "", "", errors.New("not a range: want A-B, A- or -B")
	}
}

// Ints reads a range of whole numbers within [min, max], where min is 1
// or more; an open end is 0.
func Ints(s string, min, max int) (lo, hi int, err error) {
	a, b, err := Split(s)
	if err != nil {
		return 0, 0, err
	}
	num := func(t string) (int, error) {
		if t == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(t)
		if err != nil {
			return 0, fmt.Errorf("%q is not a whole number", t)
		}
		if n < min || n > max {
			return 0, fmt.Errorf("%d is out of range %d-%d", n, min, max)
		}
		return n, nil
	}
	if lo, err = num(a); err != nil {
		return 0, 0, err
	}
	if hi, err = num(b); err != nil {
		return 0, 0, err
	}
	if hi != 0 && lo > hi {
		return 0, 0, fmt.Errorf("lower bound %d is above upper bound %d", lo, hi)
	}
	return lo, hi, nil
}

// MaxTenths is the highest rating Tenths takes, in tenths: the SE scale
// ends near 12, and unfinished puzzles rate 12.0.
const MaxTenths = 200

// Tenths reads a range of SE ratings with at most one decimal ("7.0-9.9",
// "9.0-", "-7.5", "7") in tenths; an open end is 0.
func Tenths(s string) (lo, hi int, err error) {
	a, b, err := Split(s)
	if err != nil {
		return 0, 0, err
	}
	if a != "" {
		if lo, err = tenths(a); err != nil {
			return 0, 0, err
		}
	}
	if b != "" {
		if hi, err = tenths(b); err != nil {
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

// tenths reads a rating with at most one decimal ("7", "7.0", "7.5") as
// tenths.
func tenths(s string) (int, error) {
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
		return 0, fmt.Errorf("%s is above the scale's top of %.1f", s, float64(MaxTenths)/10)
	}
	n := 0
	if whole != "" {
		n, _ = strconv.Atoi(whole)
	}
	n *= 10
	if frac != "" {
		n += int(frac[0] - '0')
	}
	if n > MaxTenths {
		return 0, fmt.Errorf("%s is above the scale's top of %.1f", s, float64(MaxTenths)/10)
	}
	return n, nil
}
