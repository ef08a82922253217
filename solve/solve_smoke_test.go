package solve_test

import (
	"testing"

	"sudokubank/solve"
)

func TestCountSmoke(t *testing.T) {
	g, err := solve.Parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	if err != nil {
		t.Fatal(err)
	}
	if got := solve.Count(g, 2); got != 1 {
		t.Fatalf("Count = %d, want 1", got)
	}
}
