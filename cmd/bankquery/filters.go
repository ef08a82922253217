package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"sudokubank/grid"
	"sudokubank/internal/filters"
	"sudokubank/store"
)

// filterFlags are the filters every selecting subcommand takes, as the
// user typed them; filter turns them into a store.Filter.
type filterFlags struct {
	fs                                   *flag.FlagSet
	level, rating, givens, score         string
	technique, hardest, symmetry, source string
	size                                 string
	minimal, fresh                       bool
}

// filterUsage is the part of a usage text that explains the filters.
const filterUsage = `Filters (all must hold; ranges are A-B, A- or -B, or one value):
  -level easy,evil     levels by name or number: extremely-easy (1), easy (2),
                       medium (3), difficult (4), evil (5)
  -rating 7.0-9.9      Sudoku Explainer rating of the hardest step
  -givens 22-26        number of givens (1-81, or with -size N up to N*N)
  -size 16             grids of this size: 4, 6, 8, 9, 12, 16 or 25 (also
                       written 16x16); every size when left out
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
	fs.StringVar(&f.size, "size", "", "only grids of this `size`: "+grid.SizeList())
	fs.BoolVar(&f.minimal, "minimal", false, "only minimal puzzles")
	fs.BoolVar(&f.fresh, "fresh", false, "only families that have never been in any pack")
	return f
}

// filterNames lists the filter flags, for the pack's record.
var filterNames = []string{"size", "level", "rating", "givens", "score", "technique", "hardest", "symmetry", "minimal", "source", "fresh"}

// flagError is a bad flag value: it names the flag and the value.
func flagError(name, value string, err error) error {
	return usageError{Err: fmt.Errorf("-%s %q: %w", name, value, err)}
}

// filter returns the store filter the flags ask for, or a usage error
// naming the first bad flag and its value.
func (f *filterFlags) filter() (store.Filter, error) {
	out, err := filters.Values{
		Level: f.level, Rating: f.rating, Givens: f.givens, Score: f.score,
		Technique: f.technique, Hardest: f.hardest, Symmetry: f.symmetry, Source: f.source,
		Size: f.size, Minimal: f.minimal, Fresh: f.fresh,
	}.Filter()
	if fe := (*filters.Error)(nil); errors.As(err, &fe) {
		return out, flagError(fe.Name, fe.Value, fe.Err)
	}
	return out, err
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
