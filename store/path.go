package store

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sudokubank/grid"
)

// The families table's path column holds a family's technique sequence:
// the technique (slug) of each step of its solve, in order. It has two
// forms, and a reader must take both:
//
//   - runs, the form written now (EncodePath): the techniques
//     the solve uses, in the order of their first use, each after a
//     comma, then a comma and the steps, each a letter naming one of those
//     techniques ('a' the first, 'z' the 26th, 'A' the 27th, up to 'Z'),
//     a letter followed by a number N >= 2 standing for N steps of that
//     technique in a row: ",hidden-single-box,full-house,naked-single,a6b2abc".
//     A solve that logic did not finish ends with one brute-force step.
//     About 100 bytes where the list below takes 750, and it carries the
//     technique counts, so that such a family has no family_techniques
//     rows. SQL finds a technique in it without reading a list-form path
//     through: substr(path, 1, 1) = ',' AND instr(path, ',' || slug || ',')
//     > 0, since the steps after the last comma hold no comma.
//   - list, written before: the slugs of the steps separated by single
//     spaces, with the counts in family_techniques.
//
// An empty path is a solve without steps in either form. Slugs are
// lower-case letters, digits and '-', so the leading comma tells the
// forms apart.

// maxPathTechniques is how many techniques the letters of the runs form
// can name.
const maxPathTechniques = 52

// maxPathSteps bounds the steps of one path: a step places a digit or
// removes at least one candidate, so a solve of the largest grid has at
// most MaxN^3 of them. A longer path is damage, and reading it would
// take memory without end.
const maxPathSteps = grid.MaxN * grid.MaxN * grid.MaxN

// errPath marks a path column that is neither form.
var errPath = errors.New("malformed technique sequence")

// EncodePath returns the runs form of a technique sequence, one slug per
// step, for Family.Path. It fails for a slug that is not lower-case
// letters, digits and '-', and for a sequence of more than 52 techniques.
func EncodePath(steps []string) (string, error) {
	if len(steps) == 0 {
		return "", nil
	}
	var (
		dict  [maxPathTechniques]string
		n     int
		b     strings.Builder
		runs  = make([]byte, 0, 2*len(steps))
		count int
		last  = -1
	)
	b.Grow(16 * 4)
	flush := func() {
		if count >= 2 {
			runs = strconv.AppendInt(runs, int64(count), 10)
		}
	}
	for _, s := range steps {
		i := 0
		for i < n && dict[i] != s {
			i++
		}
		if i == n {
			if !validSlug(s) {
				return "", fmt.Errorf("technique %q: want lower-case letters, digits and '-'", s)
			}
			if n == maxPathTechniques {
				return "", fmt.Errorf("more than %d techniques in one sequence", maxPathTechniques)
			}
			dict[n] = s
			n++
			b.WriteByte(',')
			b.WriteString(s)
		}
		if i == last {
			count++
			continue
		}
		flush()
		runs = append(runs, pathLetter(i))
		last, count = i, 1
	}
	flush()
	b.WriteByte(',')
	b.Write(runs)
	return b.String(), nil
}

// PathSteps returns the technique of each step of a stored path, in
// either form.
func PathSteps(path string) ([]string, error) {
	var steps []string
	err := forPathRuns(path, func(slug string, n int) {
		for range n {
			steps = append(steps, slug)
		}
	})
	return steps, err
}

// pathCounts returns how many steps of a stored path use each technique.
func pathCounts(path string) (map[string]int, error) {
	m := map[string]int{}
	err := forPathRuns(path, func(slug string, n int) { m[slug] += n })
	return m, err
}

// pathHasCounts reports whether a path is in the runs form, which holds
// the family's technique counts.
func pathHasCounts(path string) bool { return strings.HasPrefix(path, ",") }

// forPathRuns calls fn with each run of steps of one technique in path.
func forPathRuns(path string, fn func(slug string, n int)) error {
	if !pathHasCounts(path) {
		if strings.IndexByte(path, ',') >= 0 {
			return fmt.Errorf("path %q: %w", path, errPath)
		}
		// Its words are as the writer left them, and no more than the
		// text: there is nothing to check, or to blow up.
		for _, s := range strings.Fields(path) {
			fn(s, 1)
		}
		return nil
	}
	dict := pathDict(path)
	if dict == nil {
		return fmt.Errorf("path %q: no techniques: %w", path, errPath)
	}
	for _, s := range dict {
		if !validSlug(s) {
			return fmt.Errorf("path %q: technique %q is not a slug: %w", path, s, errPath)
		}
	}
	runs := path[strings.LastIndexByte(path, ',')+1:]
	total := 0
	for i := 0; i < len(runs); {
		t := pathIndex(runs[i])
		if t < 0 || t >= len(dict) {
			return fmt.Errorf("path %q: step %q names no technique: %w", path, runs[i], errPath)
		}
		j := i + 1
		for j < len(runs) && runs[j] >= '0' && runs[j] <= '9' {
			j++
		}
		n := 1
		if j > i+1 {
			var err error
			if n, err = strconv.Atoi(runs[i+1 : j]); err != nil || n < 2 {
				return fmt.Errorf("path %q: run length %q: %w", path, runs[i+1:j], errPath)
			}
		}
		// Checked before fn, so that no caller builds a damaged path's
		// billion steps.
		if total += n; n > maxPathSteps || total > maxPathSteps {
			return fmt.Errorf("path %q: more than %d steps: %w", path, maxPathSteps, errPath)
		}
		fn(dict[t], n)
		i = j
	}
	return nil
}

// pathDict returns the technique list of a runs-form path (the slugs
// between the leading comma and the last one), nil if it has none.
func pathDict(path string) []string {
	cut := strings.LastIndexByte(path, ',')
	if cut <= 0 {
		return nil
	}
	return strings.Split(path[1:cut], ",")
}

// pathLetter names technique i of a runs form's list.
func pathLetter(i int) byte {
	if i < 26 {
		return byte('a' + i)
	}
	return byte('A' + i - 26)
}

// pathIndex is pathLetter's inverse, -1 for a byte that is no letter.
func pathIndex(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}

func validSlug(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
