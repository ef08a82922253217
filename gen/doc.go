// Package gen makes Sudoku terminal grids and puzzles: it fills random
// terminal grids (Las Vegas or a direct random fill), digs holes in them
// with the dig-hole method of Zhang et al. ("Sudoku puzzles generating:
// from easy to evil"), lays the givens out with the symmetries publishers
// print, transforms grids and computes their canonical forms.
//
// Every puzzle it returns has exactly one solution, and every result is
// reproducible: all randomness comes from a *rand.Rand passed in, and the
// same seed gives the same grids and puzzles on every machine.
//
// Package gen does not grade puzzles (see package grade) and does not
// store them (see package store).
package gen
