package main

import (
	"context"
	"errors"
	"fmt"

	"sudokubank/gen"
	"sudokubank/solve"
	"sudokubank/store"
)

// bankMatch is what a bank holds of a puzzle: the puzzle itself, another
// puzzle of its family (an isomorph: the same puzzle rotated, reflected,
// with rows, columns or digits swapped), or nothing.
type bankMatch struct {
	found  bool         // the bank holds the puzzle's family
	exact  bool         // the bank holds the puzzle as given
	family store.Family // the family, when found
	// row is the stored puzzle: the one given when exact, else the
	// family's first; hasRow is false for a family with no puzzle row,
	// which a writer never leaves.
	row    store.Row
	hasRow bool
	// to takes the stored puzzle (row, or the family's canonical form
	// without one) to the puzzle given: to.Apply(stored) is the puzzle.
	to gen.Transform
}

// lookUp finds puzzle p in the bank: as given (the puzzles' key index),
// else its family by canonical form (the families' key index) and the
// family's first stored puzzle, with the transform from that puzzle to p.
func lookUp(ctx context.Context, bank *store.DB, p solve.Grid) (bankMatch, error) {
	r, err := bank.PuzzleByString(ctx, p.String())
	switch {
	case err == nil:
		f, err := bank.Family(ctx, r.FamilyID)
		if err != nil {
			return bankMatch{}, err
		}
		return bankMatch{found: true, exact: true, family: f, row: r, hasRow: true}, nil
	case !errors.Is(err, store.ErrNotFound):
		return bankMatch{}, err
	}
	canon, toCanon := gen.Canon(p)
	f, err := bank.FamilyByCanon(ctx, canon.String())
	if errors.Is(err, store.ErrNotFound) {
		return bankMatch{}, nil
	}
	if err != nil {
		return bankMatch{}, err
	}
	m := bankMatch{found: true, family: f, to: toCanon.Inverse()}
	r, err = bank.FirstPuzzleOf(ctx, f)
	if errors.Is(err, store.ErrNotFound) {
		return m, nil
	}
	if err != nil {
		return bankMatch{}, err
	}
	stored, err := solve.Parse(r.Puzzle)
	if err != nil {
		return bankMatch{}, fmt.Errorf("puzzle %d: %w", r.ID, err)
	}
	// Both go to the one canonical form; the stored puzzle's way there,
	// then back from it to p, takes the one to the other.
	_, storedToCanon := gen.Canon(stored)
	to := storedToCanon.Then(m.to)
	if to.Apply(stored) != p {
		return bankMatch{}, fmt.Errorf("puzzle %d of family %d: no transform found to %s", r.ID, f.ID, p)
	}
	m.row, m.hasRow, m.to = r, true, to
	return m, nil
}
