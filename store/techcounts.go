package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
)

// TechniqueCount counts the families of one size and level whose solve
// uses one technique, and their puzzles (variants).
type TechniqueCount struct {
	Size      int    `db:"size"` // N of the N x N grids
	Level     int    `db:"level"`
	Technique string `db:"technique"`
	Families  int64  `db:"families"`
	Puzzles   int64  `db:"puzzles"`
}

// techniqueCounts returns the per-level technique counts the bank keeps,
// by size, level, then technique; a technique no family of a level uses
// has no entry for that level. It reads counters, not the families.
func techniqueCounts(ctx context.Context, q sqlx.QueryerContext) ([]TechniqueCount, error) {
	var out []TechniqueCount
	if err := sqlx.SelectContext(ctx, q, &out, `SELECT size, level, technique, families, puzzles
		FROM technique_counts WHERE families > 0 ORDER BY size, level, technique`); err != nil {
		return nil, fmt.Errorf("technique counts: %w", err)
	}
	return out, nil
}

// TechniqueTotals returns how many families of the levels (any level
// when levels is empty), of every size, use the technique, and how many
// puzzles those families have, from the counts the bank keeps: no puzzle
// is read. A filter with this technique and these levels selects at most
// that many. A technique that is not a slug is ErrInvalid, as in a
// filter.
func (db *DB) TechniqueTotals(ctx context.Context, technique string, levels []int) (families, puzzles int64, err error) {
	return techniqueTotals(ctx, db.db, technique, levels, 0)
}

// SizeTechniqueTotals is TechniqueTotals for the families of size x size
// grids alone; size 0 is every size.
func (db *DB) SizeTechniqueTotals(ctx context.Context, technique string, levels []int, size int) (families, puzzles int64, err error) {
	return techniqueTotals(ctx, db.db, technique, levels, size)
}

func techniqueTotals(ctx context.Context, q sqlx.QueryerContext, technique string, levels []int, size int) (families, puzzles int64, err error) {
	counts, err := techniqueLevels(ctx, q, technique, levels, size)
	for _, c := range counts {
		families += c.Families
		puzzles += c.Puzzles
	}
	return families, puzzles, err
}

// techniqueLevels returns the counts of a technique at each of the levels
// (any level when levels is empty) of the size (any size when it is 0)
// where some family uses it, by size and level.
func techniqueLevels(ctx context.Context, q sqlx.QueryerContext, technique string, levels []int, size int) ([]TechniqueCount, error) {
	if err := checkSlug(technique); err != nil {
		return nil, err
	}
	s, args := "SELECT size, level, technique, families, puzzles FROM technique_counts WHERE technique = ? AND families > 0", []any{technique}
	if size != 0 {
		if err := checkSize(size); err != nil {
			return nil, err
		}
		s += " AND size = ?"
		args = append(args, size)
	}
	if len(levels) > 0 {
		in, largs, err := levelsIn(levels)
		if err != nil {
			return nil, err
		}
		s += " AND level" + in
		args = append(args, largs...)
	}
	var out []TechniqueCount
	if err := sqlx.SelectContext(ctx, q, &out, s+" ORDER BY size, level", args...); err != nil {
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

// techKey is a technique at a size's level.
type techKey struct {
	size, level int
	technique   string
}

// famPuzzles counts the puzzles a batch stored for a family it did not
// write, with the family's size and level, which its puzzles share.
type famPuzzles struct {
	size, level int
	n           int64
}

// addTechniqueCounts adds a written batch to the technique counts: each
// new family to those of its level and techniques, and each stored puzzle
// to those of its family. fams is writeFamilies' result and perBatch
// counts writePuzzles' rows by batch family. A batch family that repeats
// a new one has its puzzles counted with it. A puzzle stored as a further
// variant of a family written before the batch (an import's, or a
// repeat's) counts under that family's stored techniques, which one
// statement reads for all such families; a run of new families costs
// none.
func addTechniqueCounts(ctx context.Context, tx *sqlx.Tx, batch []NewFamily, fams []famRow, perBatch []int64) error {
	// The puzzles of the batch families that are not new, by the family
	// they went to, which several can share.
	var joined map[int64]famPuzzles
	for i := range batch {
		if fm := &fams[i]; !fm.isNew && perBatch[i] > 0 {
			if joined == nil {
				joined = map[int64]famPuzzles{}
			}
			joined[fm.id] = famPuzzles{fm.size, fm.level, joined[fm.id].n + perBatch[i]}
		}
	}
	// The batch's new families take their repeats' puzzles out; those
	// left are families stored before the batch.
	counts := batchTechniqueCounts(batch, fams, func(i int) int64 {
		n := perBatch[i]
		if c, ok := joined[fams[i].id]; ok {
			n += c.n
			delete(joined, fams[i].id)
		}
		return n
	})
	if len(joined) > 0 {
		if err := storedTechniques(ctx, tx, joined, counts); err != nil {
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
		if a.size != b.size {
			return a.size - b.size
		}
		if a.level != b.level {
			return a.level - b.level
		}
		return strings.Compare(a.technique, b.technique)
	})
	// One statement for the batch's counts, as for its rows (rows.go).
	// The WHERE clause also lets SQLite parse the upsert after a SELECT.
	_, err := execRows(ctx, tx, `INSERT INTO technique_counts (size, level, technique, families, puzzles)
		SELECT c4, c0, c1, c2, c3 FROM `+rowsTable+` WHERE handle = ?
		ON CONFLICT (size, level, technique) DO UPDATE SET
			families = families + excluded.families,
			puzzles = puzzles + excluded.puzzles`,
		funcSource{len(keys), func(i, col int) any {
			switch col {
			case 0:
				return int64(keys[i].level)
			case 1:
				return keys[i].technique
			case 4:
				return int64(keys[i].size)
			default:
				return counts[keys[i]][col-2]
			}
		}})
	if err != nil {
		return fmt.Errorf("technique counts: %w", err)
	}
	return nil
}

// batchTechniqueCounts returns the counts of a batch's new families,
// given the number of puzzles stored for each by its batch index.
//
// Families share technique lists (one runs-form list for 7 families on
// a 5M bank): the families and puzzles of each (level, list) are summed
// first, and each list is split once.
func batchTechniqueCounts(batch []NewFamily, fams []famRow, puzzles func(i int) int64) map[techKey][2]int64 {
	type techList struct {
		size, level int
		list        string // a runs-form path up to its last comma
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
		n := puzzles(i)
		f := &batch[i].Family
		if !pathHasCounts(f.Path) {
			for t := range f.Techniques {
				add(techKey{fm.size, fm.level, t}, 1, n)
			}
			continue
		}
		// One lookup a family: a pointer is updated in place.
		k := techList{fm.size, fm.level, f.Path[:strings.LastIndexByte(f.Path, ',')+1]}
		c := lists[k]
		if c == nil {
			c = new([2]int64)
			lists[k] = c
		}
		c[0]++
		c[1] += n
	}
	for k, c := range lists {
		pathTechniques(k.list, func(t string) { add(techKey{k.size, k.level, t}, c[0], c[1]) })
	}
	return counts
}

// storedTechniquesSQL reads the path and, for a path in the list form,
// the techniques of the families a batch stored puzzles for, in one
// statement however many there are: c0 is the family ID, c1 and c2 come
// back as they went, so that a row needs no lookup to be counted.
const storedTechniquesSQL = `SELECT f.size, r.c1, r.c2, f.path,
	CASE WHEN substr(f.path, 1, 1) = ',' THEN '' ELSE
		(SELECT COALESCE(group_concat(technique, ' '), '') FROM family_techniques WHERE family_id = f.id)
	END
	FROM ` + rowsTable + ` r CROSS JOIN families f ON f.id = r.c0
	WHERE r.handle = ?`

// storedTechniques adds the puzzles a batch stored for families written
// before it to counts, under the techniques those families have stored.
// An import's batch holds thousands of such families: one statement
// reads them all, where one a family cost a statement's overhead each.
func storedTechniques(ctx context.Context, tx *sqlx.Tx, fams map[int64]famPuzzles, counts map[techKey][2]int64) error {
	type famRef struct {
		id int64
		famPuzzles
	}
	refs := make([]famRef, 0, len(fams))
	for id, c := range fams {
		refs = append(refs, famRef{id, c})
	}
	found := 0
	err := queryRows(ctx, tx, storedTechniquesSQL,
		funcSource{len(refs), func(i, col int) any {
			switch col {
			case 0:
				return refs[i].id
			case 1:
				return int64(refs[i].level)
			default:
				return refs[i].n
			}
		}},
		func(rows *sql.Rows) error {
			var (
				size, level int
				n           int64
				path, techs string
			)
			if err := rows.Scan(&size, &level, &n, &path, &techs); err != nil {
				return err
			}
			found++
			add := func(t string) {
				k := techKey{size, level, t}
				v := counts[k]
				v[1] += n
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
			return nil
		})
	if err != nil {
		return fmt.Errorf("technique counts: stored families: %w", err)
	}
	// The batch's puzzles reference these families: one missing would
	// leave its puzzles uncounted.
	if found != len(refs) {
		return fmt.Errorf("technique counts: %d of %d stored families found", found, len(refs))
	}
	return nil
}
