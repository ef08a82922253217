package main

import (
	"fmt"
	"strings"
)

// symmetryNames stands in for gen.ParseSymmetry until gen is on main.
var symmetryNames = []string{"none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal"}

// symmetryFlag is -symmetry: a symmetry of the givens, or random for one
// drawn per item.
type symmetryFlag struct{ name string }

func (f *symmetryFlag) String() string {
	if f == nil || f.name == "" {
		return "none"
	}
	return f.name
}

func (f *symmetryFlag) Set(s string) error {
	name, err := parseSymmetry(s)
	if err != nil {
		return err
	}
	f.name = name
	return nil
}

// parseSymmetry reads a symmetry name or "random".
func parseSymmetry(s string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "random" {
		return t, nil
	}
	for _, n := range symmetryNames {
		if t == n {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown symmetry %q (want none, rot180, rot90, mirror, flip, diagonal, antidiagonal or random)", s)
}
