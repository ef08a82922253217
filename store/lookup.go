package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"sudokubank/gen"
	"sudokubank/grid"
	"sudokubank/solve"
)

// MatchOf is what a bank holds of a puzzle: the puzzle itself, another
// puzzle of its family (an isomorph: the same puzzle rotated, reflected,
// with rows, columns or digits swapped), or nothing. T is the transform
// of the puzzle's size: gen.Transform for 9x9 (Match), grid.Transform for
// any size (GridMatch).
type MatchOf[T any] struct {
	Found  bool   // the bank holds the puzzle's family
	Exact  bool   // the bank holds the puzzle as given
	Family Family // the family, when found
	// Row is the stored puzzle: the one given when Exact, else the
	// family's first; HasRow is false for a family with no puzzle row,
	// which a writer never leaves.
	Row    Row
	HasRow bool
	// To takes the stored puzzle (Row, or the family's canonical form
	// without one) to the puzzle given: To.Apply(stored) is the puzzle.
	// It is the zero T when Exact or not Found.
	To T
}

// Match is what a bank holds of a 9x9 puzzle (see MatchOf).
type Match = MatchOf[gen.Transform]

// GridMatch is what a bank holds of a puzzle of any size (see MatchOf).
type GridMatch = MatchOf[grid.Transform]

// Lookup finds puzzle p in the bank: as given, else its family by
// canonical form and the family's first stored puzzle, with the
// transform from that puzzle to p. A puzzle of no stored family is a
// Match with Found false, not an error.
func (db *DB) Lookup(ctx context.Context, p solve.Grid) (Match, error) {
	return lookup(ctx, db, p, gen.Canon, solve.Parse)
}

// LookupGrid is Lookup for a puzzle of any size in grid.Shapes. A 9x9
// puzzle is looked up as Lookup does, since 9x9 families are keyed by
// gen.Canon's form; the others by gen.SizedCanon's, as the sized
// pipeline stores them.
func (db *DB) LookupGrid(ctx context.Context, p grid.Grid) (GridMatch, error) {
	if p.Shape != grid.Nine {
		return lookup(ctx, db, p, gen.SizedCanon, func(s string) (grid.Grid, error) { return grid.ParseIn(p.Shape, s) })
	}
	q, err := solve.Parse(p.String())
	if err != nil {
		return GridMatch{}, fmt.Errorf("look up %s: %w", p, err)
	}
	m, err := db.Lookup(ctx, q)
	if err != nil {
		return GridMatch{}, err
	}
	gm := GridMatch{Found: m.Found, Exact: m.Exact, Family: m.Family, Row: m.Row, HasRow: m.HasRow}
	if m.Found && !m.Exact {
		// Both write a 9x9 transform in the one text form.
		if gm.To, err = grid.ParseTransform(grid.Nine, m.To.String()); err != nil {
			return GridMatch{}, fmt.Errorf("look up %s: transform %s: %w", p, m.To, err)
		}
	}
	return gm, nil
}

// lookupTransform is what lookup needs of a transform T of grids G.
type lookupTransform[G, T any] interface {
	Apply(G) G
	Then(T) T
	Inverse() T
	String() string
}

// lookup is Lookup for grids G with transforms T: canon gives a grid's
// canonical form, as the bank keys its families, and the transform to
// it; parse reads a stored puzzle.
func lookup[G fmt.Stringer, T lookupTransform[G, T]](ctx context.Context, db *DB, p G, canon func(G) (G, T), parse func(string) (G, error)) (MatchOf[T], error) {
	given := p.String()
	r, err := db.PuzzleByString(ctx, given)
	switch {
	case err == nil:
		f, err := db.Family(ctx, r.FamilyID)
		if err != nil {
			return MatchOf[T]{}, err
		}
		return MatchOf[T]{Found: true, Exact: true, Family: f, Row: r, HasRow: true}, nil
	case !errors.Is(err, ErrNotFound):
		return MatchOf[T]{}, err
	}
	form, toCanon := canon(p)
	f, err := db.FamilyByCanon(ctx, form.String())
	if errors.Is(err, ErrNotFound) {
		return MatchOf[T]{}, nil
	}
	if err != nil {
		return MatchOf[T]{}, err
	}
	m := MatchOf[T]{Found: true, Family: f, To: toCanon.Inverse()}
	r, err = db.FirstPuzzleOf(ctx, f)
	if errors.Is(err, ErrNotFound) {
		return m, nil
	}
	if err != nil {
		return MatchOf[T]{}, err
	}
	stored, err := parse(r.Puzzle)
	if err != nil {
		return MatchOf[T]{}, fmt.Errorf("puzzle %d: %w", r.ID, err)
	}
	// Both go to the one canonical form; the stored puzzle's way there,
	// then back from it to p, takes the one to the other.
	_, storedToCanon := canon(stored)
	to := storedToCanon.Then(m.To)
	if to.Apply(stored).String() != given {
		return MatchOf[T]{}, fmt.Errorf("puzzle %d of family %d: no transform found to %s", r.ID, f.ID, given)
	}
	m.Row, m.HasRow, m.To = r, true, to
	return m, nil
}

// AsGiven is the row of puzzle g, of any size, which m found as another
// puzzle of its family (not Exact): the puzzle as given, with no ID, its
// solution, and the family's grade and data. What a transform keeps (the
// givens, the fewest in a row or column, minimality, the grade) is the
// stored puzzle's; the symmetry of the givens, which a transform can
// break or make, is g's own.
func (m MatchOf[T]) AsGiven(g grid.Grid) (Row, error) {
	var sol, sym string
	if g.Shape == grid.Nine {
		p := solve.Grid(g.Cells)
		s, ok := solve.Solve(p)
		if !ok {
			return Row{}, fmt.Errorf("puzzle %s: no solution, though its family is stored", g)
		}
		sol, sym = s.String(), gen.DetectSymmetry(p).String()
	} else {
		var v solve.Sized
		s, ok := v.Solution(g)
		if !ok {
			return Row{}, fmt.Errorf("%s puzzle %s: no solution, though its family is stored", g.Shape, g)
		}
		sol, sym = s.String(), gen.DetectSymmetrySized(g).String()
	}
	r := m.Row
	if !m.HasRow {
		f := m.Family
		r = Row{FamilyID: f.ID, Givens: f.Givens, Level: f.Level, ER: f.ER, EP: f.EP, ED: f.ED, Score: f.Score,
			Hardest: f.Hardest, Minimal: f.Minimal, Source: f.Source, MinRowCol: f.MinRowCol, SearchNodes: f.SearchNodes, Size: f.Size}
	}
	r.ID, r.Puzzle, r.Solution, r.Transform = 0, g.String(), sol, ""
	r.Symmetry = sym
	return r, nil
}

// FamilyByCanon returns the family whose canonical form is canon (gen's
// Canon of any of its puzzles, N*N characters, '.' for an empty cell), or
// ErrNotFound: the family of any isomorph of a puzzle. It searches the
// canon key's window, as a writer does (see window), with the unique
// index on the keys.
func (db *DB) FamilyByCanon(ctx context.Context, canon string) (Family, error) {
	if _, ok := grid.ShapeOfCells(len(canon)); !ok {
		return Family{}, fmt.Errorf("family of %q: %w", canon, ErrNotFound)
	}
	lo, hi := window(canonKey(canon))
	var id int64
	err := db.db.GetContext(ctx, &id, "SELECT id FROM families WHERE canon_key BETWEEN ? AND ? AND canon = ?", lo, hi, canon)
	if errors.Is(err, sql.ErrNoRows) {
		return Family{}, fmt.Errorf("family of %s: %w", canon, ErrNotFound)
	}
	if err != nil {
		return Family{}, fmt.Errorf("family of %s: %w", canon, err)
	}
	return db.Family(ctx, id)
}

// FirstPuzzleOf returns the stored puzzle of family f with the lowest ID,
// or ErrNotFound if the family has none.
func (db *DB) FirstPuzzleOf(ctx context.Context, f Family) (Row, error) {
	// puzzles_family finds them where it stands; a writer that defers its
	// indexes drops it until its close. A family's puzzles share its size,
	// level and givens, so the bucket index narrows the search then; a row that
	// breaks the rule (hand-made) is still found by a scan of the table.
	var r Row
	err := db.db.GetContext(ctx, &r, "SELECT "+rowColumns+` FROM puzzles p JOIN families f ON f.id = p.family_id
		WHERE `+bucketExpr("p")+` = ? AND p.family_id = ? ORDER BY p.id LIMIT 1`, bucketOf(f.size(), f.Level, f.Givens), f.ID)
	if errors.Is(err, sql.ErrNoRows) {
		err = db.db.GetContext(ctx, &r, "SELECT "+rowColumns+` FROM puzzles p JOIN families f ON f.id = p.family_id
			WHERE p.family_id = ? ORDER BY p.id LIMIT 1`, f.ID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return Row{}, fmt.Errorf("puzzles of family %d: %w", f.ID, ErrNotFound)
	}
	if err != nil {
		return Row{}, fmt.Errorf("puzzles of family %d: %w", f.ID, err)
	}
	r.unpack()
	return r, nil
}
