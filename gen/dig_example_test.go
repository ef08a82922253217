package gen_test

import (
	"fmt"
	"math/rand/v2"

	"sudokubank/gen"
)

// A Digger makes puzzles from a seed: the same seed gives the same puzzle
// on every machine.
func ExampleDigger_Generate() {
	var d gen.Digger
	rng := rand.New(rand.NewPCG(2026, 1))
	p, err := gen.ParseProfile("minimal-rot180")
	if err != nil {
		panic(err)
	}
	pz := d.Generate(p, rng)
	fmt.Println(pz.Grid)
	fmt.Println(pz.Grid.Givens(), "givens,", gen.MinRowColGivens(pz.Grid), "at least per row and column, symmetry", pz.Symmetry)
	// Output:
	// 61.3.....35...6........2.4...9.....2.4..7..8.1.....4...6.9........5...71.....7.68
	// 23 givens, 1 at least per row and column, symmetry rot180
}
