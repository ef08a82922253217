// Command bankgen builds a bank of graded Sudoku puzzles in a SQLite file,
// and imports outside puzzles into it. Run "bankgen -h" and
// "bankgen import -h" for the flags.
package main

func main() { program.Main() }
