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
	// ..49..3......38.49...5146........1363..6.9..8628........6481...49.27......1..67..
	// 32 givens, 2 at least per row and column, symmetry rot180
}
