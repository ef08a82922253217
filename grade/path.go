package grade

import (
	"fmt"
	"strconv"
	"strings"
)

// The text form of a step, as the bank stores hint paths: six fields
// separated by single spaces,
//
//	slug rating cells digits placements eliminations
//
// for example "pointing 2.6 3,4 5 - 6:5,7:5" or "naked-single 2.3 40 7 40=7 -".
// cells is a comma-separated list of cell numbers (0-80, row-major);
// digits the pattern's digits written in increasing order ("27");
// placements "cell=digit" and eliminations "cell:digit", comma-separated,
// in the order of the step. An empty field is "-". A path is its steps
// joined by ";".

// String returns the step's text form.
func (s Step) String() string {
	var b strings.Builder
	b.WriteString(s.Technique.Slug())
	b.WriteByte(' ')
	b.WriteString(s.Rating.String())
	b.WriteByte(' ')
	if len(s.Cells) == 0 {
		b.WriteByte('-')
	}
	for i, c := range s.Cells {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(c)))
	}
	b.WriteByte(' ')
	if s.Digits&allDigits == 0 {
		b.WriteByte('-')
	}
	for d := 1; d <= 9; d++ {
		if s.Digits&bit(d) != 0 {
			b.WriteByte(byte('0' + d))
		}
	}
	b.WriteByte(' ')
	if len(s.Placements) == 0 {
		b.WriteByte('-')
	}
	for i, p := range s.Placements {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d=%d", p.Cell, p.Digit)
	}
	b.WriteByte(' ')
	if len(s.Eliminations) == 0 {
		b.WriteByte('-')
	}
	for i, e := range s.Eliminations {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d:%d", e.Cell, e.Digit)
	}
	return b.String()
}

// ParseStep reads a step from its text form (see Step.String).
func ParseStep(s string) (Step, error) {
	var st Step
	fs := strings.Split(s, " ")
	if len(fs) != 6 {
		return st, fmt.Errorf("step %q: want 6 space-separated fields, got %d", s, len(fs))
	}
	t, ok := ParseTechnique(fs[0])
	if !ok {
		return st, fmt.Errorf("step %q: unknown technique %q", s, fs[0])
	}
	st.Technique = t
	r, err := ParseRating(fs[1])
	if err != nil {
		return st, fmt.Errorf("step %q: %w", s, err)
	}
	st.Rating = r
	if fs[2] != "-" {
		for _, x := range strings.Split(fs[2], ",") {
			c, err := parseCell(x)
			if err != nil {
				return st, fmt.Errorf("step %q: %w", s, err)
			}
			st.Cells = append(st.Cells, c)
		}
	}
	if fs[3] != "-" {
		for _, ch := range fs[3] {
			if ch < '1' || ch > '9' {
				return st, fmt.Errorf("step %q: %q is not a digit", s, ch)
			}
			st.Digits |= bit(int(ch - '0'))
		}
	}
	if fs[4] != "-" {
		for _, x := range strings.Split(fs[4], ",") {
			c, d, err := parsePair(x, "=")
			if err != nil {
				return st, fmt.Errorf("step %q: placement: %w", s, err)
			}
			st.Placements = append(st.Placements, Placement{c, d})
		}
	}
	if fs[5] != "-" {
		for _, x := range strings.Split(fs[5], ",") {
			c, d, err := parsePair(x, ":")
			if err != nil {
				return st, fmt.Errorf("step %q: elimination: %w", s, err)
			}
			st.Eliminations = append(st.Eliminations, Elimination{c, d})
		}
	}
	return st, nil
}

// maxRating bounds what ParseRating accepts: the SE scale ends near 12,
// and a bound keeps huge numbers from overflowing the tenths.
const maxRating = 99

// ParseRating reads a rating written with one decimal, "6.2", or as a
// whole number, "6", from 0 to 99.9.
func ParseRating(s string) (Rating, error) {
	whole, frac, dot := strings.Cut(s, ".")
	w, err := strconv.Atoi(whole)
	if err != nil || w < 0 || w > maxRating || (dot && len(frac) != 1) {
		return 0, fmt.Errorf("rating %q: want a number from 0 to 99.9 with at most one decimal", s)
	}
	f := 0
	if dot {
		if frac[0] < '0' || frac[0] > '9' {
			return 0, fmt.Errorf("rating %q: want a number from 0 to 99.9 with at most one decimal", s)
		}
		f = int(frac[0] - '0')
	}
	return Rating(w*10 + f), nil
}

func parseCell(s string) (uint8, error) {
	c, err := strconv.Atoi(s)
	if err != nil || c < 0 || c > 80 {
		return 0, fmt.Errorf("cell %q: want 0-80", s)
	}
	return uint8(c), nil
}

func parsePair(s, sep string) (uint8, uint8, error) {
	a, b, ok := strings.Cut(s, sep)
	if !ok {
		return 0, 0, fmt.Errorf("%q: want cell%sdigit", s, sep)
	}
	c, err := parseCell(a)
	if err != nil {
		return 0, 0, err
	}
	if len(b) != 1 || b[0] < '1' || b[0] > '9' {
		return 0, 0, fmt.Errorf("%q: %q is not a digit", s, b)
	}
	return c, b[0] - '0', nil
}

// Slugs returns a hint path as one technique slug per step, separated by
// spaces: the list form banks stored before the runs form
// (store.EncodePath), which tests use to write such banks. Neither form
// keeps the full steps; grading again recomputes them.
func Slugs(path []Step) string {
	var b strings.Builder
	for i, s := range path {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.Technique.Slug())
	}
	return b.String()
}

// UseCounts returns how many steps used each technique, by slug, for
// the techniques the solve used.
func (g Grade) UseCounts() map[string]int {
	m := make(map[string]int)
	for t, n := range g.Uses {
		if n > 0 {
			m[Technique(t).Slug()] = int(n)
		}
	}
	return m
}

// FormatPath returns the text form of a hint path, its steps joined by
// ";", which ParsePath reads back. (store.EncodePath is the compact form
// a bank stores, which keeps only the techniques.)
func FormatPath(path []Step) string {
	parts := make([]string, len(path))
	for i, s := range path {
		parts[i] = s.String()
	}
	return strings.Join(parts, ";")
}

// ParsePath reads a hint path written by FormatPath.
func ParsePath(s string) ([]Step, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ";")
	path := make([]Step, len(parts))
	for i, p := range parts {
		st, err := ParseStep(p)
		if err != nil {
			return nil, fmt.Errorf("path step %d: %w", i+1, err)
		}
		path[i] = st
	}
	return path, nil
}
