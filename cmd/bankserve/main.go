// Command bankserve serves a puzzle bank to apps over HTTP, as JSON:
// statistics, pages of puzzles by filter, random picks, a puzzle with its
// hints, a puzzle of the day and exports. It opens the bank read-only, so
// it may run while bankgen adds to the same bank.
package main

import "sudokubank/internal/cli"

func main() {
	cli.Program{Name: "bankserve", UsageHint: "Run 'bankserve -h' for usage.", Run: Run}.Main()
}
