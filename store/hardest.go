package store

import (
	"context"
	"fmt"
	"strings"
)

// HardestQuery selects the families HardestFamilies returns. A zero
// bound means none; empty lists mean any.
type HardestQuery struct {
	Size                 int // N of the N x N grids; 0 means 9
	RatingMin, RatingMax int // ER in tenths, inclusive
	GivensMin, GivensMax int // inclusive
	Levels               []int
	Hardest              []string // the hardest technique is one of these slugs
	Uses                 []string // the solve uses one of these techniques (slugs)
	Symmetries           []string // the family's symmetry is one of these names
	ExceptRuns           []int64  // leave out the families these runs stored
	Limit                int      // the most families returned; must be set
}

// HardestFamilies returns up to q.Limit families that q selects, the
// highest ER first and, within an ER, by canonical form, so that the
// same bank gives the same list whatever order its rows were written
// in. Of each family it fills ID, Size, Canon, ER, Level, Givens,
// Hardest and Symmetry. It reads the families table once, as a run's
// dedup set does (ForEachCanon), keeping the top Limit rows.
func (db *DB) HardestFamilies(ctx context.Context, q HardestQuery) ([]Family, error) {
	if q.Limit <= 0 {
		return nil, fmt.Errorf("hardest families: limit %d, want 1 or more: %w", q.Limit, ErrInvalid)
	}
	size := q.Size
	if size == 0 {
		size = 9
	}
	if err := checkSize(size); err != nil {
		return nil, fmt.Errorf("hardest families: %w", err)
	}
	conds, args := []string{"size = ?"}, []any{size}
	bound := func(cond string, v int) {
		if v > 0 {
			conds, args = append(conds, cond), append(args, v)
		}
	}
	bound("er >= ?", q.RatingMin)
	bound("er <= ?", q.RatingMax)
	bound("givens >= ?", q.GivensMin)
	bound("givens <= ?", q.GivensMax)
	if len(q.Levels) > 0 {
		in, largs, err := levelsIn(q.Levels)
		if err != nil {
			return nil, fmt.Errorf("hardest families: %w", err)
		}
		conds, args = append(conds, "level"+in), append(args, largs...)
	}
	if len(q.Hardest) > 0 {
		for _, s := range q.Hardest {
			if err := checkSlug(s); err != nil {
				return nil, fmt.Errorf("hardest families: %w", err)
			}
			args = append(args, s)
		}
		conds = append(conds, "hardest IN (?"+strings.Repeat(", ?", len(q.Hardest)-1)+")")
	}
	if len(q.Uses) > 0 {
		// As a Filter's Technique: a family written since the runs form
		// has its counts in its path, one written before in
		// family_techniques.
		var uses []string
		for _, s := range q.Uses {
			if err := checkSlug(s); err != nil {
				return nil, fmt.Errorf("hardest families: %w", err)
			}
			uses = append(uses, "CASE WHEN substr(path, 1, 1) = ',' THEN instr(path, ?) > 0"+
				" ELSE EXISTS (SELECT 1 FROM family_techniques t WHERE t.family_id = families.id AND t.technique = ?) END")
			args = append(args, ","+s+",", s)
		}
		conds = append(conds, "("+strings.Join(uses, " OR ")+")")
	}
	if len(q.Symmetries) > 0 {
		conds = append(conds, "symmetry IN (?"+strings.Repeat(", ?", len(q.Symmetries)-1)+")")
		for _, s := range q.Symmetries {
			args = append(args, s)
		}
	}
	if len(q.ExceptRuns) > 0 {
		conds = append(conds, "(run_id IS NULL OR run_id NOT IN (?"+strings.Repeat(", ?", len(q.ExceptRuns)-1)+"))")
		for _, id := range q.ExceptRuns {
			args = append(args, id)
		}
	}
	args = append(args, q.Limit)
	var rows []struct {
		ID       int64  `db:"id"`
		Size     int    `db:"size"`
		Canon    string `db:"canon"`
		ER       int    `db:"er"`
		Level    int    `db:"level"`
		Givens   int    `db:"givens"`
		Hardest  string `db:"hardest"`
		Symmetry string `db:"symmetry"`
	}
	s := "SELECT id, size, canon, er, level, givens, hardest, symmetry FROM families WHERE " +
		strings.Join(conds, " AND ") + " ORDER BY er DESC, canon LIMIT ?"
	if err := db.db.SelectContext(ctx, &rows, s, args...); err != nil {
		return nil, fmt.Errorf("hardest families: %w", err)
	}
	fams := make([]Family, len(rows))
	for i, r := range rows {
		fams[i] = Family{ID: r.ID, Size: r.Size, Canon: r.Canon, ER: r.ER, Level: r.Level, Givens: r.Givens, Hardest: r.Hardest, Symmetry: r.Symmetry}
	}
	return fams, nil
}
