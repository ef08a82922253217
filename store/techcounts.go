package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
)

// TechniqueCount counts the families of one level whose solve uses one
// technique, and their puzzles (variants).
type TechniqueCount struct {
	Level     int    `db:"level"`
	Technique string `db:"technique"`
	Families  int64  `db:"families"`
	Puzzles   int64  `db:"puzzles"`
}

// techniqueCounts returns the per-level technique counts the bank keeps,
// by level then technique; a technique no family of a level uses has no
// entry for that level. It reads counters, not the families.
func techniqueCounts(ctx context.Context, q sqlx.QueryerContext) ([]TechniqueCount, error) {
	var out []TechniqueCount
	if err := sqlx.SelectContext(ctx, q, &out, `SELECT level, technique, families, puzzles
		FROM technique_counts WHERE families > 0 ORDER BY level, technique`); err != nil {
		return nil, fmt.Errorf("technique counts: %w", err)
	}
	return out, nil
}

// TechniqueTotals returns how many families of the levels (any level
// when levels is empty) use the technique, and how many puzzles those
// families have, from the counts the bank keeps: no puzzle is read. A
// filter with this technique and these levels selects at most that many.
// A technique that is not a slug is ErrInvalid, as in a filter.
func (db *DB) TechniqueTotals(ctx context.Context, technique string, levels []int) (families, puzzles int64, err error) {
	return techniqueTotals(ctx, db.db, technique, levels)
}

func techniqueTotals(ctx context.Context, q sqlx.QueryerContext, technique string, levels []int) (families, puzzles int64, err error) {
	counts, err := techniqueLevels(ctx, q, technique, levels)
	for _, c := range counts {
		families += c.Families
		puzzles += c.Puzzles
	}
	return families, puzzles, err
}

// techniqueLevels returns the counts of a technique at each of the levels
// (any level when levels is empty) where some family uses it, by level.
func techniqueLevels(ctx context.Context, q sqlx.QueryerContext, technique string, levels []int) ([]TechniqueCount, error) {
	if err := checkSlug(technique); err != nil {
		return nil, err
	}
	s, args := "SELECT level, technique, families, puzzles FROM technique_counts WHERE technique = ? AND families > 0", []any{technique}
	if len(levels) > 0 {
		in, largs, err := levelsIn(levels)
		if err != nil {
			return nil, err
		}
		s += " AND level" + in
		args = append(args, largs...)
	}
	var out []TechniqueCount
	if err := sqlx.SelectContext(ctx, q, &out, s+" ORDER BY level", args...); err != nil {
		return nil, fmt.Errorf("technique counts: %w", err)
	}
	return out, nil
}

// techniqueOnly reports whether the filter uses nothing but levels and a
// technique, so that the technique counts count it.
func (f Filter) techniqueOnly() bool {
	g := f
	g.Technique = ""
	return f.Technique != "" && g.bucketsOnly() && g.GivensMin == 0 && g.GivensMax == 0
}

// pathTechniques calls fn once with each technique of a runs-form path's
// list (pathDict). The filter matches ",slug," anywhere in the path, and
// the steps after the last comma hold none, so this is exactly what it
// matches. A list that names a technique twice (not EncodePath's) yields
// it once.
func pathTechniques(path string, fn func(technique string)) {
	dict := pathDict(path)
	for i, t := range dict {
		if t != "" && !slices.Contains(dict[:i], t) {
			fn(t)
		}
	}
}

// techniquePlans lets queries and counts with a technique use the
// technique counts; a test turns it off to get the plain plans' answers.
var techniquePlans = true

// techKey is a technique at a level.
type techKey struct {
	level     int
	technique string
}

// addTechniqueCounts adds a written batch to the technique counts: each
// new family to those of its level and techniques, and each stored puzzle
// to those of its family. fams and stored are writeFamilies' and
// writePuzzles' results. A puzzle stored as a further variant of a family
// written before the batch (an import's, or a repeat's) counts under
// that family's stored techniques, which one statement per such family
// reads; a run of new families costs none.
func addTechniqueCounts(ctx context.Context, tx *sqlx.Tx, batch []NewFamily, fams []famRow, stored []pending) error {
	// Count each family's stored puzzles first, so that each family's
	// techniques are gone through once. The batch's new families take
	// theirs out; those left are families stored before the batch.
	perFamily := map[int64]famPuzzles{}
	for i := range stored {
		c := perFamily[stored[i].fam]
		c.level = stored[i].level
		c.n++
		perFamily[stored[i].fam] = c
	}
	counts := batchTechniqueCounts(batch, fams, func(id int64) int64 {
		n := perFamily[id].n
		delete(perFamily, id)
		return n
	})
	if len(perFamily) > 0 {
		if err := storedTechniques(ctx, tx, perFamily, counts); err != nil {
			return err
		}
	}
	if len(counts) == 0 {
		return nil
	}
	// Keys in order keep the batch's writes to the table's pages in order.
	keys := make([]techKey, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b techKey) int {
		if a.level != b.level {
			return a.level - b.level
		}
		return strings.Compare(a.technique, b.technique)
	})
	st, err := tx.PreparexContext(ctx, `INSERT INTO technique_counts (level, technique, families, puzzles)
		VALUES (?, ?, ?, ?)
		ON CONFLICT (level, technique) DO UPDATE SET
			families = families + excluded.families,
			puzzles = puzzles + excluded.puzzles`)
	if err != nil {
		return fmt.Errorf("technique counts: %w", err)
	}
	defer st.Close()
	for _, k := range keys {
		c := counts[k]
		if _, err := st.ExecContext(ctx, k.level, k.technique, c[0], c[1]); err != nil {
			return fmt.Errorf("technique counts: %w", err)
		}
	}
	return nil
}

// batchTechniqueCounts returns the counts of a batch's new families,
// given the number of puzzles stored for each by its ID.
//
// Families share technique lists (one runs-form list for 7 families on
// a 5M bank): the families and puzzles of each (level, list) are summed
// first, and each list is split once.
func batchTechniqueCounts(batch []NewFamily, fams []famRow, puzzles func(id int64) int64) map[techKey][2]int64 {
	type techList struct {
		level int
		list  string // a runs-form path up to its last comma
	}
	lists := map[techList]*[2]int64{}
	counts := map[techKey][2]int64{}
	add := func(k techKey, families, puzzles int64) {
		c := counts[k]
		counts[k] = [2]int64{c[0] + families, c[1] + puzzles}
	}
	for i := range batch {
		fm := &fams[i]
		if !fm.isNew {
			continue
		}
		n := puzzles(fm.id)
		f := &batch[i].Family
		if !pathHasCounts(f.Path) {
			for t := range f.Techniques {
				add(techKey{fm.level, t}, 1, n)
			}
			continue
		}
		// One lookup a family: a pointer is updated in place.
		k := techList{fm.level, f.Path[:strings.LastIndexByte(f.Path, ',')+1]}
		c := lists[k]
		if c == nil {
			c = new([2]int64)
			lists[k] = c
		}
		c[0]++
		c[1] += n
	}
	for k, c := range lists {
		pathTechniques(k.list, func(t string) { add(techKey{k.level, t}, c[0], c[1]) })
	}
	return counts
}

// famPuzzles counts the puzzles a batch stored for one family.
type famPuzzles struct {
	level int
	n     int64
}

// storedTechniques adds the puzzles a batch stored for families written
// before it to counts, under the techniques those families have stored.
func storedTechniques(ctx context.Context, tx *sqlx.Tx, fams map[int64]famPuzzles, counts map[techKey][2]int64) error {
	st, err := tx.PreparexContext(ctx, `SELECT path,
		(SELECT COALESCE(group_concat(technique, ' '), '') FROM family_techniques WHERE family_id = ?1)
		FROM families WHERE id = ?1`)
	if err != nil {
		return fmt.Errorf("technique counts: stored families: %w", err)
	}
	defer st.Close()
	for id, c := range fams {
		var path, techs string
		if err := st.QueryRowxContext(ctx, id).Scan(&path, &techs); err != nil {
			return fmt.Errorf("technique counts: family %d: %w", id, err)
		}
		add := func(t string) {
			k := techKey{c.level, t}
			v := counts[k]
			v[1] += c.n
			counts[k] = v
		}
		if pathHasCounts(path) {
			pathTechniques(path, add)
		} else {
			// Slugs hold no spaces.
			for _, t := range strings.Fields(techs) {
				add(t)
			}
		}
	}
	return nil
}
