package store

import (
	"database/sql/driver"
	"fmt"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"

	"sudokubank/gen"
	"sudokubank/solve"
)

// A puzzle row is derived or explicit (migrations/0010). A derived row
// keeps only the number of the transform (gen's Transform.Code) that
// takes its family's canonical form to it; its grids are that transform
// of the family's canon and of the family's solution, and its transform's
// text is the code's. An explicit row keeps its two packed grids and its
// transform's text, as every row did before 0010.
//
// The reads derive a row's grids in SQL, through two functions the store
// registers on its connections, so that every query that reads a
// puzzle's grids (rowColumns, a lookup by string, the writer's search of
// a key window) reads both kinds of row the same way. Nothing in the
// schema refers to them: an index or a CHECK that did would make the
// bank unreadable to any other SQLite.

const (
	// variantFunc(code, grid) is the packed grid that the transform with
	// that code takes grid (an 81-character text, or a packed grid) to.
	variantFunc = "sudokubank_variant"
	// transformFunc(code) is the text of the transform with that code.
	transformFunc = "sudokubank_transform"
)

// The expressions a query selects for a puzzle's grids and transform,
// with p the puzzles table and f its family's row.
const (
	puzzleExpr    = "COALESCE(p.puzzle, " + variantFunc + "(p.code, f.canon))"
	solutionExpr  = "COALESCE(p.solution, " + variantFunc + "(p.code, f.solution))"
	transformExpr = "COALESCE(p.transform, " + transformFunc + "(p.code))"
)

// registerVariants registers variantFunc and transformFunc on the
// "sqlite" driver, once per process, for the connections opened after it.
var registerVariants = sync.OnceValue(func() error {
	err := sqlite.RegisterDeterministicScalarFunction(variantFunc, 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		code, ok := args[0].(int64)
		if !ok {
			return nil, fmt.Errorf("%s: transform code is a %T, want an integer", variantFunc, args[0])
		}
		g, err := storedCells(args[1])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", variantFunc, err)
		}
		t, err := transformOf(code)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", variantFunc, err)
		}
		v := t.Apply(g)
		return appendCells(make([]byte, 0, packedLen), &v), nil
	})
	if err != nil {
		return fmt.Errorf("register %s: %w", variantFunc, err)
	}
	err = sqlite.RegisterDeterministicScalarFunction(transformFunc, 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		code, ok := args[0].(int64)
		if !ok {
			return nil, fmt.Errorf("%s: transform code is a %T, want an integer", transformFunc, args[0])
		}
		t, err := transformOf(code)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", transformFunc, err)
		}
		return t.String(), nil
	})
	if err != nil {
		return fmt.Errorf("register %s: %w", transformFunc, err)
	}
	return nil
})

// lastTransform is the transform the functions decoded last: a row's
// three calls (puzzle, solution, transform) decode its code once.
var lastTransform atomic.Pointer[codedTransform]

type codedTransform struct {
	code int64
	t    gen.Transform
}

// transformOf returns gen.TransformOfCode(code), from lastTransform when
// the code is the same.
func transformOf(code int64) (gen.Transform, error) {
	if c := lastTransform.Load(); c != nil && c.code == code {
		return c.t, nil
	}
	t, err := gen.TransformOfCode(code)
	if err != nil {
		return t, err
	}
	lastTransform.Store(&codedTransform{code, t})
	return t, nil
}

// storedCells reads a stored grid: a canonical form's 81 characters or a
// packed grid. A derived row whose family has no solution stored reaches
// here with nil, which only a damaged bank holds.
func storedCells(v driver.Value) (solve.Grid, error) {
	var g solve.Grid
	switch s := v.(type) {
	case string:
		var b [packedLen]byte
		if _, err := appendPacked(b[:0], s); err != nil {
			return g, err
		}
		return unpackCells(b[:]), nil
	case []byte:
		if len(s) != packedLen {
			return g, fmt.Errorf("packed grid of %d bytes, want %d: %w", len(s), packedLen, ErrInvalid)
		}
		return unpackCells(s), nil
	case nil:
		return g, fmt.Errorf("a derived puzzle's family has no grid to derive it from: %w", ErrInvalid)
	default:
		return g, fmt.Errorf("grid is a %T, want text or a blob: %w", v, ErrInvalid)
	}
}

// unpackCells returns the cells of a packed grid of packedLen bytes.
func unpackCells[T ~string | ~[]byte](b T) solve.Grid {
	var g solve.Grid
	for i := range g {
		g[i] = b[i/2] >> (4 * (1 - i%2)) & 0xf
	}
	return g
}

// appendCells appends g packed to dst. g's cells are 0..9, as Apply and
// unpackCells make them.
func appendCells(dst []byte, g *solve.Grid) []byte {
	var b [packedLen]byte
	for i := 0; i < 80; i += 2 {
		b[i/2] = g[i]<<4 | g[i+1]
	}
	b[40] = g[80] << 4
	return append(dst, b[:]...)
}

// derive finds which of p's rows nf's family can store as a transform
// code: those whose transform text gen reads (ParseTransform reads only
// the text String writes, so the code gives the text back: see
// FuzzParseTransform), and whose transform of the canonical form and of
// the form's solution gives exactly the row's packed grids. The form's solution is the inverse
// transform of the solution of the first row whose transform gives its
// puzzle, kept in p.solution if some row is derived by it. Any other row
// stays explicit; it is stored as it was given, only in more bytes.
func (p *prepared) derive() {
	var (
		canon, sol solve.Grid
		haveCanon  bool
		haveSol    bool
		buf        [packedLen]byte
	)
	for i := range p.rows {
		r := &p.rows[i]
		t, err := gen.ParseTransform(r.transform)
		if err != nil {
			continue
		}
		if !haveCanon {
			canon, haveCanon = unpackCells(p.canonCells[:]), true
		}
		pz := t.Apply(canon)
		if string(appendCells(buf[:0], &pz)) != string(r.puzzle) {
			continue
		}
		if !haveSol {
			// A row with a wrong transform does not get to decide the
			// family's solution for the rows after it.
			sol, haveSol = t.Inverse().Apply(unpackCells(r.solution)), true
		}
		s := t.Apply(sol)
		if string(appendCells(buf[:0], &s)) != string(r.solution) {
			continue
		}
		r.code, r.derived = t.Code(), true
		r.vals[4] = r.code
		if p.solution == nil {
			p.solution = appendCells(make([]byte, 0, packedLen), &sol)
		}
	}
}
