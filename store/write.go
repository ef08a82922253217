package store

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// Family is one essentially different puzzle, identified by its canonical
// form, with the grade every variant of it shares.
type Family struct {
	ID    int64
	Canon string // the canonical form, 81 characters
	// ER, EP and ED are the Sudoku Explainer rating, pearl and diamond in
	// tenths: 23 means 2.3.
	ER, EP, ED int
	Level      int     // 1..5
	Score      float64 // the dig-hole paper's composite score
	// SearchNodes, Givens and MinRowCol, with ER, are the raw metrics
	// behind Score, so a different weighting needs no regrading.
	SearchNodes int
	Givens      int
	MinRowCol   int // the lowest number of givens in any row or column
	Hardest     string
	// Techniques counts the uses of each technique (by slug) in the solve.
	Techniques map[string]int
	Path       string // the hint path, opaque
	Minimal    bool
	Symmetry   string // none, rot180, rot90, mirror, flip, diagonal, antidiagonal
	// Source is "gen" for generated families, or the name of the
	// collection a family was imported from.
	Source    string
	RunID     int64  // the generating run; 0 for imports
	Seed      uint64 // the item's seed within the run
	CreatedAt time.Time
}

// Puzzle is one stored variant of a family.
type Puzzle struct {
	ID       int64
	FamilyID int64
	Puzzle   string // 81 characters, '.' for an empty cell
	Solution string
	// Transform takes the family's canonical form to this puzzle, as the
	// gen package encodes it; the store does not read it.
	Transform string
	// SortKey orders puzzles for random samples. Zero means the store
	// derives it from the puzzle string (a 63-bit hash), which is
	// uniformly spread and reproducible.
	SortKey int64
}

// NewFamily is a family with the variants to store for it. The first
// puzzle may be the canonical form itself or, for an import, the string as
// it was found.
type NewFamily struct {
	Family
	Puzzles []Puzzle
}

// WriteResult counts what a batch wrote and what it skipped.
type WriteResult struct {
	Families    int // families written
	Puzzles     int // puzzles written
	DupFamilies int // families skipped: the canonical form was already stored
	DupPuzzles  int // puzzles skipped: the string was already stored
}

// Add adds the counts of o to r.
func (r *WriteResult) Add(o WriteResult) {
	r.Families += o.Families
	r.Puzzles += o.Puzzles
	r.DupFamilies += o.DupFamilies
	r.DupPuzzles += o.DupPuzzles
}

// WriteBatch stores a batch of families and their puzzles in one
// transaction: either all of it is written or, on error, none of it.
//
// A family whose canonical form is already stored is not written again
// and its grade is not changed, but its puzzles that are new strings are
// stored as further variants of the stored family (an import of a
// relabelled copy adds a variant, never a family). A puzzle string that
// is already stored is skipped. Both kinds of duplicate are counted, also
// within the batch.
//
// Puzzle rows are inserted in the order of their strings, which keeps
// the unique index's writes local; IDs within a batch follow that order.
func (db *DB) WriteBatch(ctx context.Context, batch []NewFamily) (WriteResult, error) {
	// packed holds each puzzle's grids in their stored form, two a puzzle,
	// in batch order.
	var packed [][]byte
	for i := range batch {
		var err error
		if packed, err = validFamily(&batch[i], packed); err != nil {
			return WriteResult{}, fmt.Errorf("write batch: family %d: %w", i, err)
		}
	}
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return WriteResult{}, fmt.Errorf("write batch: %w", err)
	}
	defer tx.Rollback()
	insFam, err := tx.PrepareContext(ctx, `INSERT INTO families
		(canon, er, ep, ed, level, score, search_nodes, givens, min_row_col,
		 hardest, path, minimal, symmetry, source, run_id, seed, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (canon) DO NOTHING`)
	if err != nil {
		return WriteResult{}, fmt.Errorf("write batch: %w", err)
	}
	defer insFam.Close()
	selFam, err := tx.PrepareContext(ctx, `SELECT id, level, givens, er FROM families WHERE canon = ?`)
	if err != nil {
		return WriteResult{}, fmt.Errorf("write batch: %w", err)
	}
	defer selFam.Close()
	insTech, err := tx.PrepareContext(ctx, `INSERT INTO family_techniques (family_id, technique, uses) VALUES (?, ?, ?)`)
	if err != nil {
		return WriteResult{}, fmt.Errorf("write batch: %w", err)
	}
	defer insTech.Close()
	insPuz, err := tx.PrepareContext(ctx, `INSERT INTO puzzles
		(family_id, puzzle, solution, transform, sort_key, level, givens, er)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (puzzle) DO NOTHING`)
	if err != nil {
		return WriteResult{}, fmt.Errorf("write batch: %w", err)
	}
	defer insPuz.Close()

	type bucketKey struct{ level, givens int }
	type pending struct {
		p                 *Puzzle
		puzzle, solution  []byte // packed
		seq               int    // position in the batch
		fam, run          int64
		level, givens, er int
		bucket            bucketKey
	}
	var (
		res     WriteResult
		buckets = map[bucketKey][2]int64{}
		runs    = map[int64][2]int{} // families and puzzles written per run
		puzzles []pending
		now     = time.Now()
	)
	for i := range batch {
		f := &batch[i].Family
		created := f.CreatedAt
		if created.IsZero() {
			created = now
		}
		var runID any
		if f.RunID != 0 {
			runID = f.RunID
		}
		r, err := insFam.ExecContext(ctx, f.Canon, f.ER, f.EP, f.ED, f.Level, f.Score,
			f.SearchNodes, f.Givens, f.MinRowCol, f.Hardest, f.Path, f.Minimal, f.Symmetry,
			f.Source, runID, int64(f.Seed), created.Unix())
		if err != nil {
			return WriteResult{}, fmt.Errorf("write batch: family %s: %w", f.Canon, err)
		}
		n, err := r.RowsAffected()
		if err != nil {
			return WriteResult{}, fmt.Errorf("write batch: family %s: %w", f.Canon, err)
		}
		var id int64
		level, givens, er := f.Level, f.Givens, f.ER
		if n == 1 {
			if id, err = r.LastInsertId(); err != nil {
				return WriteResult{}, fmt.Errorf("write batch: family %s: %w", f.Canon, err)
			}
			res.Families++
			if f.RunID != 0 {
				c := runs[f.RunID]
				c[0]++
				runs[f.RunID] = c
			}
			for _, t := range sortedKeys(f.Techniques) {
				if _, err := insTech.ExecContext(ctx, id, t, f.Techniques[t]); err != nil {
					return WriteResult{}, fmt.Errorf("write batch: family %s: technique %s: %w", f.Canon, t, err)
				}
			}
			k := bucketKey{level, givens}
			c := buckets[k]
			c[0]++
			buckets[k] = c
		} else {
			// Variants of a stored family take its grade.
			if err := selFam.QueryRowContext(ctx, f.Canon).Scan(&id, &level, &givens, &er); err != nil {
				return WriteResult{}, fmt.Errorf("write batch: family %s: %w", f.Canon, err)
			}
			res.DupFamilies++
		}
		for j := range batch[i].Puzzles {
			puzzles = append(puzzles, pending{
				p: &batch[i].Puzzles[j], puzzle: packed[0], solution: packed[1], seq: len(puzzles), fam: id, run: f.RunID, level: level, givens: givens, er: er,
				bucket: bucketKey{level, givens},
			})
			packed = packed[2:]
		}
	}
	// Equal strings keep their batch order, so that the first is stored
	// and the others count as duplicates; pdqsort with the position as a
	// tie-break is cheaper than a stable merge sort.
	slices.SortFunc(puzzles, func(a, b pending) int {
		if c := bytes.Compare(a.puzzle, b.puzzle); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	for _, q := range puzzles {
		key := q.p.SortKey
		if key == 0 {
			key = SortKeyOf(q.p.Puzzle)
		}
		r, err := insPuz.ExecContext(ctx, q.fam, q.puzzle, q.solution, q.p.Transform, key, q.level, q.givens, q.er)
		if err != nil {
			return WriteResult{}, fmt.Errorf("write batch: puzzle %s: %w", q.p.Puzzle, err)
		}
		n, err := r.RowsAffected()
		if err != nil {
			return WriteResult{}, fmt.Errorf("write batch: puzzle %s: %w", q.p.Puzzle, err)
		}
		if n == 0 {
			res.DupPuzzles++
			continue
		}
		res.Puzzles++
		c := buckets[q.bucket]
		c[1]++
		buckets[q.bucket] = c
		if q.run != 0 {
			r := runs[q.run]
			r[1]++
			runs[q.run] = r
		}
	}
	for id, c := range runs {
		if err := addRunCounts(ctx, tx, id, c[0], c[1]); err != nil {
			return WriteResult{}, fmt.Errorf("write batch: %w", err)
		}
	}
	for k, c := range buckets {
		if _, err := tx.ExecContext(ctx, `INSERT INTO buckets (level, givens, families, puzzles)
			VALUES (?, ?, ?, ?)
			ON CONFLICT (level, givens) DO UPDATE SET
				families = families + excluded.families,
				puzzles = puzzles + excluded.puzzles`, k.level, k.givens, c[0], c[1]); err != nil {
			return WriteResult{}, fmt.Errorf("write batch: counts: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return WriteResult{}, fmt.Errorf("write batch: commit: %w", err)
	}
	return res, nil
}

// validFamily checks what the schema cannot say clearly, and appends the
// stored forms of each puzzle's grids, puzzle then solution, to packed.
func validFamily(nf *NewFamily, packed [][]byte) ([][]byte, error) {
	f := &nf.Family
	if len(f.Canon) != 81 {
		return nil, fmt.Errorf("canonical form has %d characters, want 81: %w", len(f.Canon), ErrInvalid)
	}
	if f.Level < 1 || f.Level > 5 {
		return nil, fmt.Errorf("family %s: level %d, want 1..5: %w", f.Canon, f.Level, ErrInvalid)
	}
	if f.Source == "" {
		return nil, fmt.Errorf("family %s: no source: %w", f.Canon, ErrInvalid)
	}
	for _, p := range nf.Puzzles {
		pz, err := packGrid(p.Puzzle)
		if err != nil {
			return nil, fmt.Errorf("family %s: puzzle: %w", f.Canon, err)
		}
		sol, err := packGrid(p.Solution)
		if err != nil {
			return nil, fmt.Errorf("family %s: solution of %s: %w", f.Canon, p.Puzzle, err)
		}
		packed = append(packed, pz, sol)
	}
	return packed, nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// SortKeyOf returns the sort key the store gives a puzzle string when the
// caller leaves Puzzle.SortKey zero: a 63-bit hash (FNV-1a, then a
// SplitMix64 finaliser), never zero.
func SortKeyOf(puzzle string) int64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(puzzle); i++ {
		h ^= uint64(puzzle[i])
		h *= 1099511628211
	}
	k := int64(mix64(h) >> 1)
	if k == 0 {
		k = 1
	}
	return k
}

// mix64 is SplitMix64's finaliser: it spreads every input bit over the
// whole output.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
