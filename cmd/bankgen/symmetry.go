package main

import (
	"fmt"
	"strings"

	"sudokubank/gen"
)

// symmetryFlag is -symmetry: a symmetry of the givens, or random for one
// of the six true symmetries drawn per item.
type symmetryFlag struct {
	sym    gen.Symmetry
	random bool
}

func (f *symmetryFlag) String() string {
	if f == nil {
		return gen.NoSymmetry.String()
	}
	if f.random {
		return "random"
	}
	return f.sym.String()
}

func (f *symmetryFlag) Set(s string) error {
	v, err := parseSymmetry(s)
	if err != nil {
		return err
	}
	*f = v
	return nil
}

// parseSymmetry reads a symmetry name, as gen names them, or "random".
func parseSymmetry(s string) (symmetryFlag, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "random" {
		return symmetryFlag{random: true}, nil
	}
	sym, err := gen.ParseSymmetry(t)
	if err != nil {
		return symmetryFlag{}, fmt.Errorf("unknown symmetry %q (want none, rot180, rot90, mirror, flip, diagonal, antidiagonal or random)", s)
	}
	return symmetryFlag{sym: sym}, nil
}
